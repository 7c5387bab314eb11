package dev.sluice.log;

import dev.sluice.util.CloseableIterator;
import java.util.Optional;

/**
 * The result of merging a file slice's log: per record key its latest record or delete. Implementations may keep
 * the entries in memory or spill them to disk; close releases what they hold.
 */
public interface MergedLogRecords extends AutoCloseable {
  /** The merged state of {@code key}, if any block mentioned it. */
  Optional<LogRecord> get(String key);

  /** Every merged entry (records and deletes); close the iterator. */
  CloseableIterator<LogRecord> all();

  /** The number of keys. */
  long size();

  /** What the scan read. */
  ScanStats stats();

  @Override
  void close();
}
