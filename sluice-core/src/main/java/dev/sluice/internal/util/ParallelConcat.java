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
 * Drains several iterators on worker threads and hands their elements to one consumer. Each worker takes the next
 * part not yet taken, opens it, reads it to the end in batches and closes it, so the elements of one part keep
 * their order while batches of different parts interleave in no defined order. At most a few batches per worker
 * wait for the consumer, so memory stays bounded however many elements the parts hold.
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

  private final List<Supplier<CloseableIterator<T>>> parts;
  private final int threads;
  private final int batchSize;
  private final int capacity;
  private final AtomicInteger nextPart = new AtomicInteger();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final Condition notFull = lock.newCondition();
  private final Deque<List<T>> ready = new ArrayDeque<>();
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
    // two batches per worker: one being read by the consumer side while the worker fills the next
    this.capacity = 2 * this.threads;
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
        if (stopped) {
          return false;
        }
        List<T> b = ready.pollFirst();
        if (b != null) {
          notFull.signal();
          batch = b.iterator();
          return true;
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
      ready.clear();
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
      while (!halted) {
        int i = nextPart.getAndIncrement();
        if (i >= parts.size()) {
          break;
        }
        drain(parts.get(i));
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

  private void drain(Supplier<CloseableIterator<T>> part) {
    try (CloseableIterator<T> in = part.get()) {
      List<T> b = new ArrayList<>(batchSize);
      while (!halted && in.hasNext()) {
        b.add(in.next());
        if (b.size() == batchSize) {
          if (!offer(b)) {
            return;
          }
          b = new ArrayList<>(batchSize);
        }
      }
      if (!b.isEmpty()) {
        offer(b);
      }
    }
  }

  /** Queues a batch, waiting while the queue is full; false if the scan stopped or failed (drop the rest). */
  private boolean offer(List<T> b) {
    lock.lock();
    try {
      while (ready.size() >= capacity && !halted) {
        notFull.await();
      }
      if (halted) {
        return false;
      }
      ready.addLast(b);
      notEmpty.signal();
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
