package dev.sluice.internal.log;

import dev.sluice.api.CloseableIterator;
import java.util.Optional;

/**
 * The result of merging a file slice's log: per record key its latest record or delete. Implementations may keep
 * the entries in memory or spill them to disk; close releases what they hold.
 */
public interface MergedLogRecords extends AutoCloseable {
  /** The merged state of {@code key}, if any block mentioned it. */
  Optional<LogRecord> get(String key);

  /**
   * Removes the merged state of {@code key} and returns it, if any: a snapshot reader takes each key it meets in
   * the base file, so that {@link #all()} afterwards yields only the keys that are in the logs alone.
   */
  Optional<LogRecord> remove(String key);

  /**
   * {@link #remove(String)} for the key whose UTF-8 bytes are {@code utf8[offset, offset + length)}: a base row's
   * key as the file holds it, which the in-memory table probes without building a {@code String}.
   */
  Optional<LogRecord> remove(byte[] utf8, int offset, int length);

  /** Every merged entry (records and deletes) not removed; close the iterator. */
  CloseableIterator<LogRecord> all();

  /** The number of keys. */
  long size();

  /** What the scan read. */
  ScanStats stats();

  @Override
  void close();
}
