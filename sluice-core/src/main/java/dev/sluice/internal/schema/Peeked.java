package dev.sluice.internal.schema;

import dev.sluice.api.Positioned;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * An input whose first record has been looked at (its schema decides the writer schema), handed on unchanged: the
 * iterator returns that record first (even a null one, which the write then reports), then the rest, and still says
 * where each record came from if the input can.
 */
public final class Peeked implements Iterator<GenericRecord>, Positioned {
  private final Iterator<GenericRecord> input;
  private final boolean hasFirst;
  private final GenericRecord first;
  private boolean firstTaken;

  private Peeked(Iterator<GenericRecord> input) {
    this.input = input;
    this.hasFirst = input.hasNext();
    this.first = hasFirst ? input.next() : null;
  }

  /** Reads the first record of {@code input}. */
  public static Peeked of(Iterator<GenericRecord> input) {
    return new Peeked(input);
  }

  /** The first record, if there is one and it is not null. */
  public Optional<GenericRecord> first() {
    return Optional.ofNullable(first);
  }

  @Override
  public boolean hasNext() {
    return (hasFirst && !firstTaken) || input.hasNext();
  }

  @Override
  public GenericRecord next() {
    if (hasFirst && !firstTaken) {
      firstTaken = true;
      return first;
    }
    if (!input.hasNext()) {
      throw new NoSuchElementException();
    }
    return input.next();
  }

  @Override
  public Optional<String> position() {
    // the input points at the first record until the second one is read, then at the one last returned
    return input instanceof Positioned p ? p.position() : Optional.empty();
  }
}
