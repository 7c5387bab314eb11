package dev.sluice.tools.records;

import dev.sluice.api.SluiceException;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Writes query results, one record at a time, to an output stream the caller owns. {@link #close()} finishes
 * the output (for example a CSV header when there were no rows, or the buffered table) and flushes, but does not
 * close the stream.
 */
public interface RecordFormatter extends Closeable {
  /**
   * Writes one record; its schema must equal the schema the formatter was made for.
   *
   * @throws IOException when the stream fails
   */
  void write(GenericRecord record) throws IOException;

  /** Finishes and flushes the output; the stream stays open. */
  @Override
  void close() throws IOException;

  /** A formatter writing records of {@code schema} (all its fields) to {@code out} in {@code format}. */
  static RecordFormatter create(OutputFormat format, OutputStream out, Schema schema) {
    switch (format) {
      case JSONL:
        return new JsonRecordWriter(out, schema);
      case CSV:
        return new CsvRecordWriter(out, schema);
      case TABLE:
        List<String> columns = new ArrayList<>();
        for (Schema.Field f : schema.getFields()) {
          columns.add(f.name());
        }
        return TableRenderer.withDefaults().formatter(out, columns);
      default:
        throw SluiceException.internal("unknown output format " + format, null);
    }
  }
}
