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

  /**
   * This input with every record of schema {@code declared} copied into a record of {@code target}, a schema with the
   * same fields in the same order that only makes some of them nullable (see {@link SchemaEvolution#check}); records of
   * any other schema pass unchanged, for the write to report. Positions are still those of the input.
   */
  public Iterator<GenericRecord> retyped(org.apache.avro.Schema declared, org.apache.avro.Schema target) {
    Peeked self = this;
    final class Retyped implements Iterator<GenericRecord>, Positioned {
      @Override
      public boolean hasNext() {
        return self.hasNext();
      }

      @Override
      public GenericRecord next() {
        GenericRecord r = self.next();
        if (r == null || !r.getSchema().equals(declared)) {
          return r;
        }
        org.apache.avro.generic.GenericData.Record copy = new org.apache.avro.generic.GenericData.Record(target);
        for (int i = 0; i < target.getFields().size(); i++) {
          copy.put(i, r.get(i));
        }
        return copy;
      }

      @Override
      public Optional<String> position() {
        return self.position();
      }
    }
    return new Retyped();
  }

  @Override
  public Optional<String> position() {
    // the input points at the first record until the second one is read, then at the one last returned
    return input instanceof Positioned p ? p.position() : Optional.empty();
  }
}
