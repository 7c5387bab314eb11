package dev.sluice.storageit;

import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.InterceptedStorage.Call;
import dev.sluice.storage.InterceptedStorage.Op;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Records every call (kind and path, in order) before it passes on, so tests can count the listings an operation
 * made and see in which order a write touched its files. With a crash point set, the matching call and every later
 * one fail as if the writing process had died there: nothing after it reaches the storage, not even the writer's
 * own clean-up, and streams stay open (on HDFS the file stays under construction; on S3 nothing is uploaded).
 * {@link #storage()} is the storage to hand to the code under test.
 */
public final class RecordingStorage implements InterceptedStorage.Interceptor {
  private final Storage storage;
  private final List<Call> calls = new ArrayList<>();
  private volatile Predicate<Call> crashPoint = c -> false;
  private volatile boolean crashed;
  private int crashIndex = -1;
  private volatile Predicate<Call> hangPoint = c -> false;
  private volatile Runnable onHang = () -> { };

  /** Records calls to {@code delegate}. */
  public RecordingStorage(Storage delegate) {
    this.storage = new InterceptedStorage(delegate, this);
  }

  /** The storage whose calls are recorded. */
  public Storage storage() {
    return storage;
  }

  /** From the first call matching {@code point} on, every call fails: the writer "died" there. */
  public RecordingStorage crashAt(Predicate<Call> point) {
    this.crashPoint = point;
    return this;
  }

  /**
   * At the first call matching {@code point}, runs {@code onHang} and then blocks that thread for good: the
   * process stays alive, mid-write, until something kills it.
   */
  public RecordingStorage hangAt(Predicate<Call> point, Runnable onHang) {
    this.hangPoint = point;
    this.onHang = onHang;
    return this;
  }

  /** True once the crash point was reached. */
  public boolean crashed() {
    return crashed;
  }

  /** The calls so far, in order. */
  public synchronized List<Call> calls() {
    return List.copyOf(calls);
  }

  /** The calls up to and including the one the writer died at (all calls if it did not die). */
  public synchronized List<Call> callsUntilCrash() {
    return List.copyOf(crashIndex < 0 ? calls : calls.subList(0, crashIndex + 1));
  }

  /** Forgets the calls so far. */
  public synchronized void reset() {
    calls.clear();
  }

  /** The paths of the calls of {@code op}, in order. */
  public synchronized List<String> paths(Op op) {
    return calls.stream().filter(c -> c.op() == op).map(Call::path).toList();
  }

  /** How many calls of {@code op} were made. */
  public long count(Op op) {
    return paths(op).size();
  }

  @Override
  public void before(Call call) throws IOException {
    boolean dead;
    synchronized (this) {
      calls.add(call);
      if (!crashed && crashPoint.test(call)) {
        crashed = true;
        crashIndex = calls.size() - 1;
      }
      dead = crashed;
    }
    if (dead) {
      throw new IOException("simulated crash: the writer died before " + call);
    }
    if (hangPoint.test(call)) {
      onHang.run();
      hangForever();
    }
  }

  private static void hangForever() throws IOException {
    try {
      while (true) {
        Thread.sleep(60_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while hanging", e);
    }
  }
}
