package dev.sluice.tools.records;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.SluiceException;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A source read on a thread of its own, up to {@link #BATCHES} batches of {@link #BATCH} elements ahead of the
 * caller, in the source's order: while the caller works on one batch (formats a query's rows, prepares a write's
 * records) the next is read, so the two run on two cores instead of taking turns on one. Memory stays bounded by the
 * batches waiting, whatever the source's size.
 *
 * <p>Nothing the caller sees changes but the thread: the same elements in the same order; a failure of the source
 * is thrown when the caller reaches the element where it happened, after every element before it, an {@link Error}
 * as itself; {@link #close()} stops the reader (also mid-source: a closed pipe, a limit) and, once the reader has
 * left the source, closes it. What the caller would have asked the source about each element (where it came from)
 * is noted by a {@link Notes} on the reading thread, into storage of its own per batch, so that nothing is made per
 * element.
 *
 * @param <T> element type
 * @param <N> what a batch's notes are kept in ({@link Void} without notes)
 */
public final class ReadAhead<T, N> implements CloseableIterator<T> {
  /** Elements per batch handed over. */
  public static final int BATCH = 1024;
  /** Batches waiting at the most. */
  public static final int BATCHES = 4;

  /**
   * Notes what is to be known of each element besides itself, on the reading thread, right after the source returned
   * it (while the source can still say where it came from).
   *
   * @param <N> what a batch's notes are kept in
   */
  public interface Notes<N> {
    /** Room for the notes of {@code size} elements. */
    N room(int size);

    /** Notes the element the source returned last, the {@code index}th of the batch, into {@code room}. */
    void note(N room, int index);
  }

  /** What the reader hands over: {@code size} elements and their notes, then the end or the failure that ended it. */
  private record Batch<N>(Object[] items, N notes, int size, boolean end, Throwable failure) {
  }

  private final CloseableIterator<T> source;
  private final Notes<N> notes;
  private final String what;
  private final BlockingQueue<Batch<N>> queue = new ArrayBlockingQueue<>(BATCHES);
  private final Thread reader;
  private volatile boolean stopping;
  private Batch<N> current;
  private int index;
  private Batch<N> returnedBatch;
  private int returned = -1;
  private boolean ended;

  private ReadAhead(CloseableIterator<T> source, Notes<N> notes, String threadName, String what) {
    this.source = source;
    this.notes = notes;
    this.what = what;
    this.reader = new Thread(this::read, threadName);
    reader.setDaemon(true);
  }

  /**
   * Starts reading {@code source} ahead on a daemon thread named {@code threadName}; {@code what} names the elements
   * in the message of an interrupted wait ("the query's rows").
   */
  public static <T> ReadAhead<T, Void> of(CloseableIterator<T> source, String threadName, String what) {
    return of(source, null, threadName, what);
  }

  /** As {@link #of(CloseableIterator, String, String)}, each element noted by {@code notes} when read. */
  public static <T, N> ReadAhead<T, N> of(CloseableIterator<T> source, Notes<N> notes, String threadName,
      String what) {
    ReadAhead<T, N> r = new ReadAhead<>(source, notes, threadName, what);
    r.reader.start();
    return r;
  }

  private void read() {
    Object[] items = new Object[BATCH];
    N room = notes == null ? null : notes.room(BATCH);
    int size = 0;
    try {
      while (!stopping) {
        while (size < BATCH && source.hasNext()) {
          items[size] = source.next();
          if (notes != null) {
            notes.note(room, size);
          }
          size++;
        }
        boolean end = size < BATCH;
        queue.put(new Batch<>(items, room, size, end, null));
        if (end) {
          return;
        }
        // before the new batch is made, so that a failure making it hands over none of the old one's again
        size = 0;
        items = new Object[BATCH];
        room = notes == null ? null : notes.room(BATCH);
      }
    } catch (InterruptedException e) {
      // closed: the caller wants no more
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      // the elements read before it, then the failure, which the caller throws as its own (an error from the
      // source, or the heap running out)
      try {
        queue.put(new Batch<>(items, room, size, true, e));
      } catch (InterruptedException stopped) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public boolean hasNext() {
    while (current == null || index >= current.size()) {
      if (current != null && current.end()) {
        ended = true;
        Throwable failure = current.failure();
        current = null;
        if (failure instanceof Error e) {
          throw e;
        }
        if (failure != null) {
          throw (RuntimeException) failure;
        }
      }
      if (ended) {
        return false;
      }
      try {
        current = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw SluiceException.internal("interrupted while waiting for " + what, e);
      }
      index = 0;
    }
    return true;
  }

  @Override
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    returnedBatch = current;
    returned = index;
    @SuppressWarnings("unchecked")
    T item = (T) current.items()[index];
    // the batch keeps no reference the caller no longer needs
    current.items()[index++] = null;
    return item;
  }

  /** The notes of the batch of the element {@link #next()} returned last; null before the first or without notes. */
  public N returnedNotes() {
    return returnedBatch == null ? null : returnedBatch.notes();
  }

  /** The index in {@link #returnedNotes()} of the element {@link #next()} returned last; -1 before the first. */
  public int returnedIndex() {
    return returned;
  }

  /** Stops the reader and waits for it (it uses the source), then closes the source. */
  @Override
  public void close() {
    stopping = true;
    reader.interrupt();
    boolean interrupted = false;
    while (reader.isAlive()) {
      // a reader blocked on a full queue gets room to see that it is stopped
      queue.clear();
      try {
        reader.join(50);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    try {
      source.close();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
