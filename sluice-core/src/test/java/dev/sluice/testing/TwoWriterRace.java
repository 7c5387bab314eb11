package dev.sluice.testing;

import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Two writers of one Merge-on-Read table, A and B, each a thread with its own {@link Table} over a storage that holds
 * their calls back so that they meet in a chosen order, every run the same. A requests its instant first, so B's
 * instant is the later one. Then, in the file group partition {@code racePartition}:
 * <ul>
 *   <li>{@link Order#SAME_LISTING}: both have listed the slice's log files before either creates one (A creates
 *       first), which is how two writers came to create the same log version;</li>
 *   <li>{@link Order#LATER_FIRST}: B writes all its log files before A creates its own, so the later instant's file
 *       sorts first.</li>
 * </ul>
 * With {@code awaitFirstCommit} B publishes only after A's commit (under optimistic concurrency control B then fails
 * the conflict check and is rolled back); without it B publishes when it is ready.
 */
public final class TwoWriterRace implements InterceptedStorage.Interceptor {
  /** How the two writers' log file creations meet. */
  public enum Order {
    /** Both list before either creates. */
    SAME_LISTING,
    /** The later instant's files are written before the earlier one lists. */
    LATER_FIRST
  }

  /**
   * What happened.
   *
   * @param instantA A's committed instant, if A committed
   * @param failureA A's failure, if it failed
   * @param instantB B's committed instant, if B committed
   * @param failureB B's failure, if it failed
   */
  public record Outcome(Optional<String> instantA, Optional<SluiceException> failureA, Optional<String> instantB,
      Optional<SluiceException> failureB) {
  }

  private static final Pattern COMPLETED = Pattern.compile(".*/\\.hoodie/\\d+\\.deltacommit$");
  private static final long WAIT_SECONDS = 60;

  private final Order order;
  private final boolean awaitFirstCommit;
  private final String racePartition;
  private final CountDownLatch aRequested = new CountDownLatch(1);
  private final CountDownLatch bAtCreate = new CountDownLatch(1);
  private final CountDownLatch aCreated = new CountDownLatch(1);
  private final CountDownLatch bReady = new CountDownLatch(1);
  private final CountDownLatch aCommitted = new CountDownLatch(1);
  private final AtomicBoolean aWaited = new AtomicBoolean();
  private final AtomicBoolean bWaited = new AtomicBoolean();
  private final AtomicBoolean bClosedLog = new AtomicBoolean();
  private volatile Thread a;
  private volatile Thread b;

  private TwoWriterRace(Order order, boolean awaitFirstCommit, String racePartition) {
    this.order = order;
    this.awaitFirstCommit = awaitFirstCommit;
    this.racePartition = racePartition;
  }

  /**
   * Runs {@code writeA} and {@code writeB} (each returns its commit's instant) against the table at {@code location}
   * with {@code options}, in the order described above.
   */
  public static Outcome run(String location, Map<String, String> options, Order order, boolean awaitFirstCommit,
      String racePartition, Function<Table, String> writeA, Function<Table, String> writeB) throws InterruptedException {
    TwoWriterRace race = new TwoWriterRace(order, awaitFirstCommit, racePartition);
    Storage storage = new InterceptedStorage(new LocalStorage(), race);
    Table ta = Tables.open(storage, location, Config.of(options));
    Table tb = Tables.open(storage, location, Config.of(options));
    String[] instants = new String[2];
    RuntimeException[] failures = new RuntimeException[2];
    Thread threadA = new Thread(() -> {
      try {
        instants[0] = writeA.apply(ta);
      } catch (RuntimeException e) {
        failures[0] = e;
      }
    }, "writer-A");
    Thread threadB = new Thread(() -> {
      try {
        instants[1] = writeB.apply(tb);
      } catch (RuntimeException e) {
        failures[1] = e;
      }
    }, "writer-B");
    race.a = threadA;
    race.b = threadB;
    threadA.start();
    if (!race.aRequested.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
      throw new AssertionError("writer A never requested its instant");
    }
    threadB.start();
    threadA.join(TimeUnit.SECONDS.toMillis(2 * WAIT_SECONDS));
    threadB.join(TimeUnit.SECONDS.toMillis(2 * WAIT_SECONDS));
    if (threadA.isAlive() || threadB.isAlive()) {
      throw new AssertionError("the writers did not finish");
    }
    if (failures[0] != null && !(failures[0] instanceof SluiceException)) {
      throw new AssertionError("writer A failed unexpectedly", failures[0]);
    }
    if (failures[1] != null && !(failures[1] instanceof SluiceException)) {
      throw new AssertionError("writer B failed unexpectedly", failures[1]);
    }
    if (!race.aWaited.get() || !race.bWaited.get()) {
      throw new AssertionError("the race was not forced (A held back: " + race.aWaited + ", B: " + race.bWaited + ")");
    }
    return new Outcome(Optional.ofNullable(instants[0]), Optional.ofNullable((SluiceException) failures[0]),
        Optional.ofNullable(instants[1]), Optional.ofNullable((SluiceException) failures[1]));
  }

  private boolean raceLog(String path) {
    return !path.contains("/.hoodie/") && path.contains("/" + racePartition + "/.") && path.contains(".log.");
  }

  @Override
  public void before(InterceptedStorage.Call call) throws IOException {
    Thread t = Thread.currentThread();
    String path = call.path();
    if (t == a) {
      beforeA(call.op(), path);
    } else if (t == b) {
      beforeB(call.op(), path);
    }
  }

  private void beforeA(InterceptedStorage.Op op, String path) throws IOException {
    if (op == InterceptedStorage.Op.CREATE_EXCLUSIVE && path.endsWith(".deltacommit.requested")) {
      aRequested.countDown();
    } else if (op == InterceptedStorage.Op.CREATE && raceLog(path) && aWaited.compareAndSet(false, true)) {
      await(order == Order.SAME_LISTING ? bAtCreate : bReady, "A waiting for B before creating " + path);
    } else if (op == InterceptedStorage.Op.WRITE && raceLog(path)) {
      aCreated.countDown();
    } else if (op == InterceptedStorage.Op.DELETE_TREE && path.contains("/.hoodie/.temp/")) {
      aCommitted.countDown();
    }
  }

  private void beforeB(InterceptedStorage.Op op, String path) throws IOException {
    if (order == Order.SAME_LISTING && op == InterceptedStorage.Op.CREATE && raceLog(path) && !bWaited.get()) {
      bWaited.set(true);
      bAtCreate.countDown();
      await(aCreated, "B waiting for A's create of its log file");
    } else if (op == InterceptedStorage.Op.CLOSE && raceLog(path)) {
      bClosedLog.set(true);
    } else if (bClosedLog.get() && bReady.getCount() > 0 && (path.endsWith("/lock") || path.contains("/.heartbeat/")
        || (op == InterceptedStorage.Op.CREATE_EXCLUSIVE && COMPLETED.matcher(path).matches()))) {
      // B has written its log files and is about to publish
      bReady.countDown();
      if (order == Order.LATER_FIRST) {
        bWaited.set(true);
      }
      if (awaitFirstCommit) {
        await(aCommitted, "B waiting for A's commit before publishing");
      }
    }
  }

  private static void await(CountDownLatch latch, String what) throws IOException {
    try {
      if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
        throw new IOException("race step timed out: " + what);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: " + what, e);
    }
  }
}
