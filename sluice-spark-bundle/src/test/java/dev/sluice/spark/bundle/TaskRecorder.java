package dev.sluice.spark.bundle;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.ExecutorLostFailure;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.TaskKilled;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;

/**
 * What Spark's scheduler reports of an application's task attempts (hosts, speculative copies, failures) and of its
 * executors (registered, lost).
 */
final class TaskRecorder extends SparkListener {
  private final Set<String> hosts = ConcurrentHashMap.newKeySet();
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private final AtomicInteger started = new AtomicInteger();
  private final AtomicInteger ended = new AtomicInteger();
  private final AtomicInteger speculative = new AtomicInteger();
  private final AtomicInteger speculativeWins = new AtomicInteger();
  private final Map<Long, String> killed = new ConcurrentHashMap<>();
  private final Set<String> wonBySpeculativeCopy = ConcurrentHashMap.newKeySet();
  private final Set<String> executorsAdded = ConcurrentHashMap.newKeySet();
  private final Map<String, String> executorsRemoved = new ConcurrentHashMap<>();
  private final Set<String> lostWithExecutor = ConcurrentHashMap.newKeySet();

  @Override
  public void onExecutorAdded(SparkListenerExecutorAdded e) {
    executorsAdded.add(e.executorId() + "@" + e.executorInfo().executorHost());
  }

  @Override
  public void onExecutorRemoved(SparkListenerExecutorRemoved e) {
    executorsRemoved.put(e.executorId(), e.reason());
  }

  /** The executors, as {@code id@host}, that attempts failed with because the executor was lost. */
  Set<String> lostWithExecutor() {
    return Set.copyOf(lostWithExecutor);
  }

  /** The executors that registered with the driver after this listener was added, as {@code id@host}. */
  Set<String> executorsAdded() {
    return Set.copyOf(executorsAdded);
  }

  /** The executors the driver lost, each with Spark's reason. */
  Map<String, String> executorsRemoved() {
    return Map.copyOf(executorsRemoved);
  }

  @Override
  public void onTaskStart(SparkListenerTaskStart e) {
    started.incrementAndGet();
    hosts.add(e.taskInfo().host());
    if (e.taskInfo().speculative()) {
      speculative.incrementAndGet();
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd e) {
    if (e.reason() instanceof TaskFailedReason failed) {
      failures.add(failed.toErrorString());
      if (failed instanceof ExecutorLostFailure) {
        lostWithExecutor.add(e.taskInfo().executorId() + "@" + e.taskInfo().host());
      }
      if (failed instanceof TaskKilled) {
        killed.put(e.taskInfo().taskId(), e.stageId() + ":" + e.taskInfo().index());
      }
    } else if (e.taskInfo().speculative()) {
      speculativeWins.incrementAndGet();
      wonBySpeculativeCopy.add(e.stageId() + ":" + e.taskInfo().index());
    }
    ended.incrementAndGet();
  }

  /** The hosts of the executors that ran attempts. */
  Set<String> hosts() {
    return Set.copyOf(hosts);
  }

  /** The end reasons of attempts that did not succeed (failed or killed). */
  List<String> failures() {
    return List.copyOf(failures);
  }

  /** Speculative attempts started. */
  int speculative() {
    return speculative.get();
  }

  /**
   * Whether the attempt {@code attemptId} (Spark's task id) was killed and a speculative copy of its task succeeded
   * (Spark names the kill "another attempt succeeded" or, when the stage ends first, "Stage finished").
   */
  boolean lostToSpeculativeCopy(long attemptId) {
    String task = killed.get(attemptId);
    return task != null && wonBySpeculativeCopy.contains(task);
  }

  /** The attempts killed, by attempt id, each with its stage and task index. */
  Map<Long, String> killed() {
    return Map.copyOf(killed);
  }

  /** Speculative attempts that succeeded (their original was killed or lost). */
  int speculativeWins() {
    return speculativeWins.get();
  }

  /**
   * Waits until every attempt started has ended (a killed speculative loser reports after its stage): only then is
   * the listing of a table final.
   */
  void awaitAllEnded() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (ended.get() < started.get()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(started.get() + " task attempts started, " + ended.get() + " ended");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
  }
}
