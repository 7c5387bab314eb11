package dev.sluice.api;

import java.util.NoSuchElementException;

/**
 * The base of look-ahead iterators: a subclass says only how to get the next element ({@link #computeNext}), or
 * that there is none ({@link #end}); this class keeps the element found by {@code hasNext()} until {@code next()}
 * hands it out, so the buffer-and-flag code is not written again in every reader. Elements may be null.
 * {@link #computeNext} is not called again once it ended; if it throws, the next {@code hasNext()} calls it again
 * (readers close themselves before they throw, and then end).
 *
 * @param <T> element type
 */
public abstract class ComputingIterator<T> implements CloseableIterator<T> {
  private T next;
  private boolean ready;
  private boolean ended;

  /** The next element, or {@code return end();} when there is none. */
  protected abstract T computeNext();

  /** Marks the end of the elements; returns null so that {@code computeNext} can {@code return end();}. */
  protected final T end() {
    ended = true;
    return null;
  }

  @Override
  public final boolean hasNext() {
    if (ready) {
      return true;
    }
    if (ended) {
      return false;
    }
    T found = computeNext();
    if (ended) {
      return false;
    }
    next = found;
    ready = true;
    return true;
  }

  @Override
  public final T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    T out = next;
    next = null;
    ready = false;
    return out;
  }
}
