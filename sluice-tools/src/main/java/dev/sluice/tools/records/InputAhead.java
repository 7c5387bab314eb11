package dev.sluice.tools.records;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Positioned;
import dev.sluice.api.SluiceException;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.apache.avro.generic.GenericRecord;

/**
 * Input records parsed on a thread of their own, up to {@link #BATCHES} batches of {@link #BATCH_RECORDS} ahead of
 * the caller, in the input's order. A write reads its input on the caller's thread and converts each record as it
 * comes (so that an error can name the line); in a cold command-line process, parsing JSON or CSV was about half of
 * that single-threaded phase, so here it runs on a second core beside the conversion.
 *
 * <p>Nothing the caller sees changes: the same records in the same order; a failure of the input (bad JSON, a
 * missing field) is thrown when the caller reaches the record where it happened, after every record before it;
 * {@link #position()} is where the record last returned came from, exactly as the input would say it (each record's
 * position is noted as its source's fixed text and a number, no string per record). Memory stays bounded by the
 * batches waiting. {@link #close()} stops the reader and closes the input.
 */
final class InputAhead implements CloseableIterator<GenericRecord>, Positioned {
  static final int BATCH_RECORDS = 1024;
  static final int BATCHES = 4;

  /**
   * What the reader hands over: {@code size} records with where each came from ({@code prefixes[i]} and
   * {@code numbers[i]}: see {@link #position()}), then the end ({@code end}) or the failure that ended the input.
   */
  private record Batch(GenericRecord[] records, String[] prefixes, long[] numbers, int size, boolean end,
      Throwable failure) {
  }

  /** A position given whole by a source that is not a {@link NumberedPosition}: the prefix is all of it. */
  private static final long WHOLE = Long.MIN_VALUE;

  private final RecordSources.Concat source;
  private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(BATCHES);
  private final Thread reader;
  private volatile boolean stopping;
  private Batch current;
  private int index;
  private int returned = -1;
  private Batch returnedBatch;
  private boolean ended;

  private InputAhead(RecordSources.Concat source) {
    this.source = source;
    this.reader = new Thread(this::read, "sluice-input-ahead");
    reader.setDaemon(true);
  }

  /** Starts reading {@code source} ahead. */
  static InputAhead of(RecordSources.Concat source) {
    InputAhead a = new InputAhead(source);
    a.reader.start();
    return a;
  }

  private void read() {
    Batch batch = newBatch();
    int size = 0;
    // the prefix of the source the last record came from, asked once per source
    Object lastFrom = null;
    String prefix = null;
    try {
      while (!stopping) {
        if (!source.hasNext()) {
          queue.put(new Batch(batch.records(), batch.prefixes(), batch.numbers(), size, true, null));
          return;
        }
        GenericRecord r = source.next();
        CloseableIterator<GenericRecord> from = source.returnedFrom();
        batch.records()[size] = r;
        if (from instanceof NumberedPosition n) {
          if (from != lastFrom) {
            lastFrom = from;
            prefix = n.positionPrefix();
          }
          batch.prefixes()[size] = prefix;
          batch.numbers()[size] = n.positionNumber();
        } else {
          batch.prefixes()[size] = source.position().orElse(null);
          batch.numbers()[size] = WHOLE;
        }
        size++;
        if (size == BATCH_RECORDS) {
          queue.put(new Batch(batch.records(), batch.prefixes(), batch.numbers(), size, false, null));
          batch = newBatch();
          size = 0;
        }
      }
    } catch (InterruptedException e) {
      // closed: the caller wants no more records
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      // the records read before it, then the failure, which the caller throws as its own
      try {
        queue.put(new Batch(batch.records(), batch.prefixes(), batch.numbers(), size, true, e));
      } catch (InterruptedException stopped) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static Batch newBatch() {
    return new Batch(new GenericRecord[BATCH_RECORDS], new String[BATCH_RECORDS], new long[BATCH_RECORDS], 0, false,
        null);
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
        throw SluiceException.internal("interrupted while waiting for the input's records", e);
      }
      index = 0;
    }
    return true;
  }

  @Override
  public GenericRecord next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    returnedBatch = current;
    returned = index;
    GenericRecord r = current.records()[index];
    // the batch keeps no reference the caller no longer needs
    current.records()[index++] = null;
    return r;
  }

  @Override
  public Optional<String> position() {
    if (returnedBatch == null) {
      return Optional.empty();
    }
    String prefix = returnedBatch.prefixes()[returned];
    long n = returnedBatch.numbers()[returned];
    if (prefix == null || (n != WHOLE && n <= 0)) {
      return Optional.empty();
    }
    return Optional.of(n == WHOLE ? prefix : prefix + n);
  }

  /** Stops the reader and waits for it (it uses the input), then closes the input. */
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
