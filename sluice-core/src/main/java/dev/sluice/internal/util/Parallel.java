package dev.sluice.internal.util;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.SluiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** Runs independent tasks (one per file or file group) on a bounded number of threads. */
public final class Parallel {
  private static final AtomicInteger POOL_ID = new AtomicInteger();

  private Parallel() {
  }

  /**
   * Applies {@code fn} to every item on up to {@code threads} threads and returns the results in item order.
   * The first failure cancels the rest and is rethrown (a {@link SluiceException} as it is).
   */
  public static <T, R> List<R> map(List<T> items, int threads, Function<T, R> fn) {
    if (items.isEmpty()) {
      return List.of();
    }
    int n = Math.max(1, Math.min(threads, items.size()));
    if (n == 1) {
      List<R> out = new ArrayList<>(items.size());
      for (T item : items) {
        out.add(fn.apply(item));
      }
      return out;
    }
    ExecutorService pool = daemonPool(n, "sluice-" + POOL_ID.incrementAndGet());
    try {
      List<Future<R>> futures = new ArrayList<>(items.size());
      for (T item : items) {
        futures.add(pool.submit(() -> fn.apply(item)));
      }
      List<R> out = new ArrayList<>(items.size());
      for (Future<R> f : futures) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Errors.internal("interrupted while waiting for parallel tasks", e);
    } catch (ExecutionException e) {
      throw failure(e, "parallel task failed");
    } finally {
      pool.shutdownNow();
    }
  }

  /** A fixed pool of {@code threads} daemon threads named {@code prefix-1}, {@code prefix-2}, ... */
  public static ExecutorService daemonPool(int threads, String prefix) {
    AtomicInteger thread = new AtomicInteger();
    return Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, prefix + "-" + thread.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * What a task's failure is rethrown as: its own unchecked exception (a {@link SluiceException} as it is) or error,
   * anything else wrapped as an internal error saying {@code what}.
   */
  public static RuntimeException failure(ExecutionException e, String what) {
    Throwable cause = e.getCause();
    if (cause instanceof RuntimeException re) {
      return re;
    }
    if (cause instanceof Error err) {
      throw err;
    }
    return Errors.internal(what, cause);
  }
}
