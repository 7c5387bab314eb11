package dev.sluice.records;

import java.io.Closeable;
import java.io.IOException;
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
}
