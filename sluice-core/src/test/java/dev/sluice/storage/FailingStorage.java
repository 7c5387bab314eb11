package dev.sluice.storage;

import dev.sluice.storage.InterceptedStorage.Call;
import dev.sluice.storage.InterceptedStorage.Op;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Fault injection for tests: fails the N-th call of the chosen kind (optionally only for paths matching a
 * predicate) with an IOException, and can make every read short. Counts every call, so tests can also assert how
 * many listings an operation made. {@link #storage()} is the storage to hand to the code under test.
 */
public final class FailingStorage implements InterceptedStorage.Interceptor {
  private final Storage storage;
  private volatile Op failOp;
  private volatile long failAt = -1;
  private volatile Predicate<String> pathFilter = p -> true;
  private final AtomicLong matching = new AtomicLong();
  private volatile int maxRead = Integer.MAX_VALUE;
  private final AtomicLong[] counts = new AtomicLong[Op.values().length];
  private final List<String> listed = new CopyOnWriteArrayList<>();

  /** Wraps {@code delegate}; fails nothing until {@link #failOn} is called. */
  public FailingStorage(Storage delegate) {
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new AtomicLong();
    }
    this.storage = new InterceptedStorage(delegate, this);
  }

  /** The storage whose calls fail as configured. */
  public Storage storage() {
    return storage;
  }

  /** Fails the {@code nth} (1-based) call of {@code op} on a path matching {@code paths}, and only that one. */
  public FailingStorage failOn(Op op, long nth, Predicate<String> paths) {
    this.failOp = op;
    this.failAt = nth;
    this.pathFilter = paths;
    this.matching.set(0);
    return this;
  }

  /**
   * Makes every read of an opened file return at most {@code bytes} bytes (as a network stream may), so readers that
   * assume full reads break; {@code Integer.MAX_VALUE} turns it off.
   */
  public FailingStorage shortReads(int bytes) {
    this.maxRead = bytes;
    return this;
  }

  /** Stops failing. */
  public void heal() {
    failOp = null;
    failAt = -1;
  }

  /** How many calls of {@code op} were made. */
  public long count(Op op) {
    return counts[op.ordinal()].get();
  }

  /** The directories listed so far, in order (every listing, also failed ones). */
  public List<String> listed() {
    return List.copyOf(listed);
  }

  /** Forgets the directories listed so far. */
  public void forgetListed() {
    listed.clear();
  }

  @Override
  public void before(Call call) throws IOException {
    counts[call.op().ordinal()].incrementAndGet();
    if (call.op() == Op.LIST) {
      listed.add(call.path());
    }
    if (call.op() == failOp && pathFilter.test(call.path()) && matching.incrementAndGet() == failAt) {
      throw new IOException("injected failure of " + call);
    }
  }

  @Override
  public SeekableInput opened(Call call, SeekableInput in) {
    return maxRead == Integer.MAX_VALUE ? in : ObservedInput.shortReads(in, maxRead);
  }
}
