package dev.sluice.spark.bundle;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;

/** What Spark's scheduler reports of an application's task attempts: hosts, speculative copies, failures. */
final class TaskRecorder extends SparkListener {
  private final Set<String> hosts = ConcurrentHashMap.newKeySet();
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private final AtomicInteger started = new AtomicInteger();
  private final AtomicInteger ended = new AtomicInteger();
  private final AtomicInteger speculative = new AtomicInteger();
  private final AtomicInteger speculativeWins = new AtomicInteger();

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
    } else if (e.taskInfo().speculative()) {
      speculativeWins.incrementAndGet();
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
