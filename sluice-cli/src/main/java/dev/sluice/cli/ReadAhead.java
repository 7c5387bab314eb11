package dev.sluice.cli;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.SluiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The rows of a scan read on a thread of their own, a batch ahead of the caller, in the scan's own order: while the
 * query formats one batch the next is read, so reading (decoding Parquet, merging logs) and formatting run on two
 * cores at once instead of taking turns on one. At most {@link #BATCHES} batches of {@link #BATCH_ROWS} rows wait,
 * so memory stays bounded whatever the table's size. A failure of the reading thread is thrown to the caller at the
 * row where it happened; {@link #close()} stops the reader (also mid-scan: a closed pipe, a limit) and closes the
 * scan.
 */
final class ReadAhead<T> implements CloseableIterator<T> {
  static final int BATCH_ROWS = 1024;
  static final int BATCHES = 4;

  /** What the reader hands over: rows, the end, or the failure that ended it. */
  private record Batch<T>(List<T> rows, Throwable failure) {
  }

  private final CloseableIterator<T> source;
  private final BlockingQueue<Batch<T>> queue = new ArrayBlockingQueue<>(BATCHES);
  private final Thread reader;
  private volatile boolean stopping;
  private List<T> current = List.of();
  private int index;
  private boolean ended;

  private ReadAhead(CloseableIterator<T> source) {
    this.source = source;
    this.reader = new Thread(this::read, "sluice-read-ahead");
    reader.setDaemon(true);
  }

  /** Starts reading {@code source} ahead. */
  static <T> ReadAhead<T> of(CloseableIterator<T> source) {
    ReadAhead<T> r = new ReadAhead<>(source);
    r.reader.start();
    return r;
  }

  private void read() {
    List<T> batch = new ArrayList<>(BATCH_ROWS);
    try {
      while (!stopping) {
        while (batch.size() < BATCH_ROWS && source.hasNext()) {
          batch.add(source.next());
        }
        boolean end = batch.size() < BATCH_ROWS;
        if (!batch.isEmpty()) {
          queue.put(new Batch<>(batch, null));
          batch = new ArrayList<>(BATCH_ROWS);
        }
        if (end) {
          queue.put(new Batch<>(List.of(), null));
          return;
        }
      }
    } catch (InterruptedException e) {
      // closed: the caller wants no more rows
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      // the rows read before it, then the failure, which the caller throws as its own (an error from the scan, or
      // the heap running out)
      try {
        if (!batch.isEmpty()) {
          queue.put(new Batch<>(batch, null));
        }
        queue.put(new Batch<>(List.of(), e));
      } catch (InterruptedException stopped) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public boolean hasNext() {
    if (index < current.size()) {
      return true;
    }
    if (ended) {
      return false;
    }
    Batch<T> b;
    try {
      b = queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SluiceException.internal("interrupted while waiting for the query's rows", e);
    }
    if (b.failure() != null) {
      ended = true;
      if (b.failure() instanceof Error e) {
        throw e;
      }
      throw (RuntimeException) b.failure();
    }
    if (b.rows().isEmpty()) {
      ended = true;
      return false;
    }
    current = b.rows();
    index = 0;
    return true;
  }

  @Override
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return current.get(index++);
  }

  /** Stops the reader and waits for it (it uses the scan), then closes the scan. */
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
