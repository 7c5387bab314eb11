package dev.sluice.internal.util;

import dev.sluice.api.CloseableIterator;
import dev.sluice.internal.error.Errors;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Drains several iterators on worker threads and hands their elements to one consumer in the parts' own order, as
 * the plain concatenation would: each worker takes the next part not yet taken, opens it, reads it to the end in
 * batches and closes it, and the consumer takes the batches of part 0, then of part 1, and so on. So a parallel
 * scan returns the same rows in the same order as one thread (a query's output does not depend on its thread
 * count). Workers read at most {@code 2 * threads} parts past the one the consumer is on, and at most
 * {@link #PART_BATCHES} batches of each wait, so memory stays bounded however many elements the parts hold.
 *
 * <p>A failure in a worker (opening, reading or closing a part) is thrown, as the same exception, by the
 * consumer's next {@link #hasNext()}; the other workers stop at their next batch. {@link #close()} stops the
 * workers, waits until each has closed the part it had open, and throws a worker's failure the consumer has not
 * seen yet. Workers start on the first {@link #hasNext()}; they are daemon threads named {@code sluice-scan-*}.
 *
 * @param <T> element type
 */
public final class ParallelConcat<T> implements CloseableIterator<T> {
  private static final AtomicInteger SCAN_ID = new AtomicInteger();
  /** Batches of one part that may wait for the consumer: one being read while the worker fills the next. */
  static final int PART_BATCHES = 2;

  private final List<Supplier<CloseableIterator<T>>> parts;
  private final int threads;
  private final int batchSize;
  /** Parts workers may run ahead of the consumer's: a slow part does not idle the other workers at once. */
  private final int window;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final Condition notFull = lock.newCondition();
  /** Batches waiting, by part; a part's entry is made when a worker takes it and dropped once consumed. */
  private final List<Deque<List<T>>> ready = new ArrayList<>();
  /** Parts read to their end (under the lock). */
  private final boolean[] done;
  /** The next part a worker takes (under the lock). */
  private int nextPart;
  /** The part the consumer takes batches from (under the lock). */
  private int consuming;
  private final List<Thread> workers = new ArrayList<>();
  /** The consumer closed the scan. Set under the lock. */
  private boolean stopped;
  /** Closed or failed: set under the lock, read without it by workers between elements, so they stop promptly. */
  private volatile boolean halted;
  private Throwable failure;
  private boolean failureSeen;
  private int running;
  private boolean started;
  private Iterator<T> batch = List.<T>of().iterator();

  public ParallelConcat(List<Supplier<CloseableIterator<T>>> parts, int threads, int batchSize) {
    this.parts = List.copyOf(parts);
    this.threads = Math.max(1, Math.min(threads, this.parts.size()));
    this.batchSize = Math.max(1, batchSize);
    this.window = 2 * this.threads;
    this.done = new boolean[this.parts.size()];
    for (int i = 0; i < this.parts.size(); i++) {
      ready.add(null);
    }
  }

  @Override
  public boolean hasNext() {
    if (batch.hasNext()) {
      return true;
    }
    lock.lock();
    try {
      start();
      while (true) {
        if (failure != null) {
          failureSeen = true;
          throw rethrow(failure);
        }
        if (stopped || consuming >= parts.size()) {
          return false;
        }
        Deque<List<T>> q = ready.get(consuming);
        List<T> b = q == null ? null : q.pollFirst();
        if (b != null) {
          notFull.signalAll();
          batch = b.iterator();
          return true;
        }
        if (done[consuming]) {
          // this part is consumed: on to the next, and a worker waiting for the window may take one more
          ready.set(consuming, null);
          consuming++;
          notFull.signalAll();
          continue;
        }
        if (running == 0) {
          return false;
        }
        awaitConsumer();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return batch.next();
  }

  @Override
  public void close() {
    List<Thread> toJoin;
    lock.lock();
    try {
      stopped = true;
      halted = true;
      for (int i = 0; i < ready.size(); i++) {
        ready.set(i, null);
      }
      batch = List.<T>of().iterator();
      notFull.signalAll();
      toJoin = List.copyOf(workers);
    } finally {
      lock.unlock();
    }
    joinAll(toJoin);
    lock.lock();
    try {
      if (failure != null && !failureSeen) {
        failureSeen = true;
        throw rethrow(failure);
      }
    } finally {
      lock.unlock();
    }
  }

  private void start() {
    if (started || stopped) {
      return;
    }
    started = true;
    int id = SCAN_ID.incrementAndGet();
    for (int i = 0; i < threads; i++) {
      Thread t = new Thread(this::work, "sluice-scan-" + id + "-" + (i + 1));
      t.setDaemon(true);
      workers.add(t);
    }
    running = threads;
    workers.forEach(Thread::start);
  }

  private void awaitConsumer() {
    try {
      notEmpty.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Errors.internal("interrupted while waiting for scan rows", e);
    }
  }

  private void work() {
    try {
      while (true) {
        int i = take();
        if (i < 0) {
          break;
        }
        drain(i, parts.get(i));
      }
    } catch (RuntimeException | Error e) {
      fail(e);
    } finally {
      lock.lock();
      try {
        running--;
        notEmpty.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** The next part to read, once it is within the window of the consumer's; -1 when none is left or stopped. */
  private int take() {
    lock.lock();
    try {
      while (!halted && nextPart < parts.size() && nextPart >= consuming + window) {
        notFull.await();
      }
      if (halted || nextPart >= parts.size()) {
        return -1;
      }
      int i = nextPart++;
      ready.set(i, new ArrayDeque<>());
      return i;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Errors.internal("scan worker interrupted", e);
    } finally {
      lock.unlock();
    }
  }

  private void drain(int index, Supplier<CloseableIterator<T>> part) {
    try (CloseableIterator<T> in = part.get()) {
      List<T> b = new ArrayList<>(batchSize);
      while (!halted && in.hasNext()) {
        b.add(in.next());
        if (b.size() == batchSize) {
          if (!offer(index, b)) {
            return;
          }
          b = new ArrayList<>(batchSize);
        }
      }
      if (!b.isEmpty() && !offer(index, b)) {
        return;
      }
    }
    lock.lock();
    try {
      done[index] = true;
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Queues a batch of part {@code index}, waiting while that part has {@link #PART_BATCHES} waiting; false if the
   * scan stopped or failed (drop the rest).
   */
  private boolean offer(int index, List<T> b) {
    lock.lock();
    try {
      while (!halted && ready.get(index).size() >= PART_BATCHES) {
        notFull.await();
      }
      if (halted) {
        return false;
      }
      ready.get(index).addLast(b);
      notEmpty.signalAll();
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Errors.internal("scan worker interrupted", e);
    } finally {
      lock.unlock();
    }
  }

  private void fail(Throwable e) {
    lock.lock();
    try {
      if (failure == null) {
        failure = e;
      } else if (failure != e) {
        failure.addSuppressed(e);
      }
      // the other workers stop at their next element; the consumer wakes to throw
      halted = true;
      notEmpty.signalAll();
      notFull.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The worker's own exception, to be thrown as it is (unchecked: workers only run unchecked code). */
  private static RuntimeException rethrow(Throwable t) {
    if (t instanceof Error err) {
      throw err;
    }
    return (RuntimeException) t;
  }

  private static void joinAll(List<Thread> threads) {
    boolean interrupted = false;
    for (Thread t : threads) {
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          // keep waiting: the workers hold open files until they have closed them
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
