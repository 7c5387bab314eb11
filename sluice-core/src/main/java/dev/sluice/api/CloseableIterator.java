package dev.sluice.api;

import dev.sluice.internal.util.ParallelConcat;
import java.io.Closeable;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * An iterator that holds open files; callers close it (try-with-resources). {@link #close()} never throws a
 * checked exception: I/O failures surface as {@link dev.sluice.api.SluiceException}.
 *
 * @param <T> element type
 */
public interface CloseableIterator<T> extends Iterator<T>, Closeable {
  @Override
  void close();

  /** An iterator over a list, holding nothing open. */
  static <T> CloseableIterator<T> of(List<T> items) {
    return of(items.iterator());
  }

  /**
   * A plain iterator as one holding nothing open, its elements read as the caller pulls them: so that code handed an
   * {@link Iterator} (a cluster engine's partition) can use {@link #map} and the others. A closeable iterator passed
   * as a plain one is returned itself, so that closing still closes it.
   */
  static <T> CloseableIterator<T> of(Iterator<T> items) {
    if (items instanceof CloseableIterator<T> closeable) {
      return closeable;
    }
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return items.hasNext();
      }

      @Override
      public T next() {
        return items.next();
      }

      @Override
      public void close() {
        // nothing held open
      }
    };
  }

  /** An iterator with nothing in it. */
  static <T> CloseableIterator<T> empty() {
    return of(List.of());
  }

  /** Applies {@code fn} to each element; closing closes this iterator. */
  default <R> CloseableIterator<R> map(Function<? super T, ? extends R> fn) {
    CloseableIterator<T> self = this;
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return self.hasNext();
      }

      @Override
      public R next() {
        return fn.apply(self.next());
      }

      @Override
      public void close() {
        self.close();
      }
    };
  }

  /** Keeps the elements that match {@code keep}; closing closes this iterator. */
  default CloseableIterator<T> filter(Predicate<? super T> keep) {
    CloseableIterator<T> self = this;
    return new ComputingIterator<>() {
      @Override
      protected T computeNext() {
        while (self.hasNext()) {
          T candidate = self.next();
          if (keep.test(candidate)) {
            return candidate;
          }
        }
        return end();
      }

      @Override
      public void close() {
        self.close();
      }
    };
  }

  /**
   * Runs {@code action} when the returned iterator is closed, after this one is closed (also when closing this one
   * throws), at most once: to release what was opened to make this iterator (a reader, a temporary folder).
   */
  default CloseableIterator<T> onClose(Runnable action) {
    CloseableIterator<T> self = this;
    return new CloseableIterator<>() {
      private boolean closed;

      @Override
      public boolean hasNext() {
        return self.hasNext();
      }

      @Override
      public T next() {
        return self.next();
      }

      @Override
      public void close() {
        if (closed) {
          return;
        }
        closed = true;
        try {
          self.close();
        } finally {
          action.run();
        }
      }
    };
  }

  /**
   * At most the first {@code max} elements: after them {@code hasNext()} is false without asking this iterator for
   * more (so nothing past them is read); closing closes this iterator.
   */
  default CloseableIterator<T> limit(long max) {
    if (max < 0) {
      throw new IllegalArgumentException("limit " + max + " is negative");
    }
    CloseableIterator<T> self = this;
    return new CloseableIterator<>() {
      private long left = max;

      @Override
      public boolean hasNext() {
        return left > 0 && self.hasNext();
      }

      @Override
      public T next() {
        if (left <= 0) {
          throw new NoSuchElementException();
        }
        T out = self.next();
        left--;
        return out;
      }

      @Override
      public void close() {
        self.close();
      }
    };
  }

  /** Concatenates iterators opened lazily one after the other; each is closed when exhausted or on close. */
  static <T> CloseableIterator<T> concat(List<java.util.function.Supplier<CloseableIterator<T>>> parts) {
    return new CloseableIterator<>() {
      private int next;
      private CloseableIterator<T> current;

      @Override
      public boolean hasNext() {
        while (true) {
          if (current != null && current.hasNext()) {
            return true;
          }
          if (current != null) {
            current.close();
            current = null;
          }
          if (next >= parts.size()) {
            return false;
          }
          current = parts.get(next++).get();
        }
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return current.next();
      }

      @Override
      public void close() {
        if (current != null) {
          current.close();
          current = null;
        }
        next = parts.size();
      }
    };
  }

  /**
   * Like {@link #concat}, but with {@code threads > 1} the parts are read on up to that many worker threads, each
   * part whole by one worker, and handed over in batches of {@code batchSize}, in the order of the plain
   * concatenation (part by part; workers read up to {@code 2 * threads} parts ahead of the consumer's). A worker's
   * failure is thrown as it is by {@link #hasNext()}; closing stops the workers and returns once every part they opened is closed.
   */
  static <T> CloseableIterator<T> concat(List<java.util.function.Supplier<CloseableIterator<T>>> parts, int threads,
      int batchSize) {
    if (threads <= 1 || parts.size() <= 1) {
      return concat(parts);
    }
    return new ParallelConcat<>(parts, threads, batchSize);
  }
}
