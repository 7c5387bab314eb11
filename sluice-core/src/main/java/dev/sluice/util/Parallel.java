package dev.sluice.util;

import dev.sluice.error.Errors;
import dev.sluice.error.SluiceException;
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
    int id = POOL_ID.incrementAndGet();
    AtomicInteger thread = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(n, r -> {
      Thread t = new Thread(r, "sluice-" + id + "-" + thread.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
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
      Throwable cause = e.getCause();
      if (cause instanceof SluiceException se) {
        throw se;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw Errors.internal("parallel task failed", cause);
    } finally {
      pool.shutdownNow();
    }
  }
}
