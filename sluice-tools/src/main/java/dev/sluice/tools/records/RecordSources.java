package dev.sluice.tools.records;

import dev.sluice.api.SluiceException;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Positioned;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Opens user input files as iterators of records of the table schema. Every record is validated against the
 * table schema (the user schema, without Hudi's meta fields) and has exactly that schema; values use Avro's
 * generic representation without logical-type conversions (strings as {@link String}, decimals as bytes or
 * fixed, dates as int days, timestamps as long). Any problem is a {@code BAD_INPUT} error naming the file,
 * the line (JSON, CSV) or record number (Avro, Parquet), and the field.
 */
public final class RecordSources {
  private RecordSources() {
  }

  /**
   * Opens {@code file} in {@code format}. The caller closes the iterator.
   *
   * @param tableSchema a record schema; records are validated against it and built with it
   * @throws dev.sluice.api.SluiceException BAD_INPUT for bad content (possibly while iterating), STORAGE when
   *     the file cannot be read
   */
  public static CloseableIterator<GenericRecord> open(Path file, InputFormat format, Schema tableSchema, InputOptions options) {
    if (tableSchema.getType() != Schema.Type.RECORD) {
      throw SluiceException.internal("table schema must be a record, got " + tableSchema.getType(), null);
    }
    switch (format) {
      case JSON:
        return JsonLinesSource.open(file, tableSchema, options);
      case CSV:
        return CsvSource.open(file, tableSchema, options);
      case AVRO:
        return AvroFileSource.open(file, tableSchema, options);
      case PARQUET:
        return ParquetFileSource.open(file, tableSchema, options);
      default:
        throw SluiceException.internal("unknown input format " + format, null);
    }
  }

  /**
   * The records of several inputs one after the other, each opened when the previous one is used up; the result
   * is {@link Positioned}: it says which file and line its last record came from.
   */
  public static CloseableIterator<GenericRecord> concat(List<Supplier<CloseableIterator<GenericRecord>>> parts) {
    return new Concat(parts);
  }

  /**
   * As {@link #concat}, but on a machine with more than one core the inputs are opened and parsed on a thread of
   * their own, a few thousand records ahead of the caller ({@link InputAhead}): parsing then runs beside the
   * write's own work on the records instead of taking turns with it. Same records, same order, same errors at the
   * same record, same positions; close it to stop the reader.
   */
  public static CloseableIterator<GenericRecord> concatAhead(List<Supplier<CloseableIterator<GenericRecord>>> parts) {
    Concat all = new Concat(parts);
    return Runtime.getRuntime().availableProcessors() > 1 ? InputAhead.of(all) : all;
  }

  static final class Concat implements CloseableIterator<GenericRecord>, Positioned {
    private final List<Supplier<CloseableIterator<GenericRecord>>> parts;
    private int next;
    private CloseableIterator<GenericRecord> current;
    private CloseableIterator<GenericRecord> returnedFrom;

    Concat(List<Supplier<CloseableIterator<GenericRecord>>> parts) {
      this.parts = parts;
    }

    @Override
    public boolean hasNext() {
      while (true) {
        if (current != null && current.hasNext()) {
          return true;
        }
        if (current != null && current != returnedFrom) {
          current.close();
        }
        current = null;
        if (next >= parts.size()) {
          return false;
        }
        current = parts.get(next++).get();
      }
    }

    @Override
    public GenericRecord next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      if (returnedFrom != null && returnedFrom != current) {
        returnedFrom.close();
      }
      returnedFrom = current;
      return current.next();
    }

    @Override
    public Optional<String> position() {
      return returnedFrom instanceof Positioned p ? p.position() : Optional.empty();
    }

    /** The input the record last returned came from, if any. */
    CloseableIterator<GenericRecord> returnedFrom() {
      return returnedFrom;
    }

    @Override
    public void close() {
      if (current != null) {
        current.close();
      }
      if (returnedFrom != null && returnedFrom != current) {
        returnedFrom.close();
      }
      current = null;
      returnedFrom = null;
      next = parts.size();
    }
  }

  /** Opens {@code file} in the format its name implies ({@link InputFormat#fromFileName}). */
  public static CloseableIterator<GenericRecord> open(Path file, Schema tableSchema, InputOptions options) {
    return open(file, InputFormat.fromFileName(file.getFileName().toString()), tableSchema, options);
  }
}
