package dev.sluice.records;

import dev.sluice.error.Errors;
import dev.sluice.util.CloseableIterator;
import java.nio.file.Path;
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
   * @throws dev.sluice.error.SluiceException BAD_INPUT for bad content (possibly while iterating), STORAGE when
   *     the file cannot be read
   */
  public static CloseableIterator<GenericRecord> open(Path file, InputFormat format, Schema tableSchema, InputOptions options) {
    if (tableSchema.getType() != Schema.Type.RECORD) {
      throw Errors.internal("table schema must be a record, got " + tableSchema.getType(), null);
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
        throw Errors.internal("unknown input format " + format, null);
    }
  }

  /** Opens {@code file} in the format its name implies ({@link InputFormat#fromFileName}). */
  public static CloseableIterator<GenericRecord> open(Path file, Schema tableSchema, InputOptions options) {
    return open(file, InputFormat.fromFileName(file.getFileName().toString()), tableSchema, options);
  }
}
