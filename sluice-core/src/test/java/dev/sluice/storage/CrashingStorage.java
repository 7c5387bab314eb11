package dev.sluice.storage;

import dev.sluice.storage.InterceptedStorage.Call;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Simulates the process dying in tests: at the chosen call it throws {@link Crash} (an {@link Error}, which the
 * write path does not catch, so nothing is cleaned up) and from then on fails every call the same way, as if the
 * JVM were gone; streams are left unclosed. {@link #restart()} brings it back, as a new process would find the
 * storage. {@link #storage()} is the storage to hand to the code under test.
 */
public final class CrashingStorage implements InterceptedStorage.Interceptor {
  /** The simulated end of the process. */
  public static final class Crash extends Error {
    private static final long serialVersionUID = 1L;

    Crash(String where) {
      super("simulated crash at " + where);
    }
  }

  private final Storage storage;
  private volatile Predicate<String> crashAt = c -> false;
  private volatile long skip;
  private volatile boolean dead;
  private final AtomicLong calls = new AtomicLong();

  /** Wraps {@code delegate}; crashes nowhere until {@link #crashAt} is called. */
  public CrashingStorage(Storage delegate) {
    this.storage = new InterceptedStorage(delegate, this);
  }

  /** The storage that crashes as configured. */
  public Storage storage() {
    return storage;
  }

  /**
   * Crashes at the {@code nth} (1-based) call whose description ({@code OP path}, e.g. {@code CREATE /t/p0/x.parquet};
   * the kinds are {@link InterceptedStorage.Op}'s) matches {@code call}.
   */
  public CrashingStorage crashAt(Predicate<String> call, long nth) {
    this.crashAt = call;
    this.skip = nth - 1;
    this.dead = false;
    return this;
  }

  /** No more crashes; the storage works again. */
  public void restart() {
    crashAt = c -> false;
    dead = false;
  }

  /** True once the crash happened. */
  public boolean crashed() {
    return dead;
  }

  /** Calls made so far. */
  public long calls() {
    return calls.get();
  }

  @Override
  public synchronized void before(Call call) {
    if (dead) {
      throw new Crash("(after the crash) " + call);
    }
    calls.incrementAndGet();
    if (crashAt.test(call.toString())) {
      if (skip == 0) {
        dead = true;
        throw new Crash(call.toString());
      }
      skip--;
    }
  }

  @Override
  public boolean passesClose(Call call) {
    // a dead process closes nothing: the bytes written so far stay as they are
    return !dead;
  }
}
