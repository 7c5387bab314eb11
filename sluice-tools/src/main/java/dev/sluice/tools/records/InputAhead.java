package dev.sluice.tools.records;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Positioned;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * Input records parsed on a thread of their own ({@link ReadAhead}), up to {@link #BATCHES} batches of
 * {@link #BATCH_RECORDS} ahead of the caller, in the input's order. A write reads its input on the caller's thread
 * and converts each record as it comes (so that an error can name the line); in a cold command-line process, parsing
 * JSON or CSV was about half of that single-threaded phase, so here it runs on a second core beside the conversion.
 *
 * <p>Nothing the caller sees changes: the same records in the same order; a failure of the input (bad JSON, a
 * missing field) is thrown when the caller reaches the record where it happened, after every record before it;
 * {@link #position()} is where the record last returned came from, exactly as the input would say it (each record's
 * position is noted on the reading thread as its source's fixed text and a number, no string per record). Memory
 * stays bounded by the batches waiting. {@link #close()} stops the reader and closes the input.
 */
final class InputAhead implements CloseableIterator<GenericRecord>, Positioned {
  static final int BATCH_RECORDS = ReadAhead.BATCH;
  static final int BATCHES = ReadAhead.BATCHES;

  /** A position given whole by a source that is not a {@link NumberedPosition}: the prefix is all of it. */
  private static final long WHOLE = Long.MIN_VALUE;

  /** Where each record of a batch came from: {@code prefixes[i]} and {@code numbers[i]} (see {@link #position()}). */
  private record Positions(String[] prefixes, long[] numbers) {
  }

  /** Notes each record's position as the concatenated input gives it, on the reading thread. */
  private static final class PositionNotes implements ReadAhead.Notes<Positions> {
    private final RecordSources.Concat source;
    // the prefix of the source the last record came from, asked once per source
    private Object lastFrom;
    private String prefix;

    PositionNotes(RecordSources.Concat source) {
      this.source = source;
    }

    @Override
    public Positions room(int size) {
      return new Positions(new String[size], new long[size]);
    }

    @Override
    public void note(Positions room, int index) {
      CloseableIterator<GenericRecord> from = source.returnedFrom();
      if (from instanceof NumberedPosition n) {
        if (from != lastFrom) {
          lastFrom = from;
          prefix = n.positionPrefix();
        }
        room.prefixes()[index] = prefix;
        room.numbers()[index] = n.positionNumber();
      } else {
        room.prefixes()[index] = source.position().orElse(null);
        room.numbers()[index] = WHOLE;
      }
    }
  }

  private final ReadAhead<GenericRecord, Positions> ahead;

  private InputAhead(ReadAhead<GenericRecord, Positions> ahead) {
    this.ahead = ahead;
  }

  /** Starts reading {@code source} ahead. */
  static InputAhead of(RecordSources.Concat source) {
    return new InputAhead(ReadAhead.of(source, new PositionNotes(source), "sluice-input-ahead",
        "the input's records"));
  }

  @Override
  public boolean hasNext() {
    return ahead.hasNext();
  }

  @Override
  public GenericRecord next() {
    return ahead.next();
  }

  @Override
  public Optional<String> position() {
    Positions at = ahead.returnedNotes();
    if (at == null) {
      return Optional.empty();
    }
    int i = ahead.returnedIndex();
    String prefix = at.prefixes()[i];
    long n = at.numbers()[i];
    if (prefix == null || (n != WHOLE && n <= 0)) {
      return Optional.empty();
    }
    return Optional.of(n == WHOLE ? prefix : prefix + n);
  }

  /** Stops the reader and waits for it (it uses the input), then closes the input. */
  @Override
  public void close() {
    ahead.close();
  }
}
