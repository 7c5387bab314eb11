package dev.sluice.internal.log;

import dev.sluice.internal.spill.SpillableMap;
import dev.sluice.api.CloseableIterator;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * Merged log records in a {@link SpillableMap}: on the heap up to a memory budget, the rest in a spill file on
 * local disk (deleted on close). A snapshot read streams the base file in file order, not key order, and looks
 * each of its keys up here.
 */
final class SpillingLogRecords implements MutableLogRecords {
  private final SpillableMap<LogRecord> map;
  private ScanStats stats = ScanStats.none();

  SpillingLogRecords(Schema readerSchema, Optional<String> precombineField, long memoryBudget, Path spillDirectory) {
    this.map = SpillableMap.builder(new LogRecordSerializer(readerSchema, precombineField))
        .memoryBudgetBytes(memoryBudget)
        .spillDirectory(spillDirectory)
        .build();
  }

  @Override
  public LogRecord current(String key) {
    return map.get(key).orElse(null);
  }

  @Override
  public void put(LogRecord r) {
    map.put(r.key(), r);
  }

  @Override
  public void finish(ScanStats s) {
    this.stats = s;
  }

  @Override
  public Optional<LogRecord> get(String key) {
    return map.get(key);
  }

  @Override
  public Optional<LogRecord> remove(String key) {
    return map.remove(key);
  }

  @Override
  public Optional<LogRecord> remove(byte[] utf8, int offset, int length) {
    return map.remove(utf8, offset, length);
  }

  @Override
  public CloseableIterator<LogRecord> all() {
    CloseableIterator<Map.Entry<String, LogRecord>> entries = map.entries();
    return entries.map(Map.Entry::getValue);
  }

  @Override
  public long size() {
    return map.size();
  }

  @Override
  public ScanStats stats() {
    return stats;
  }

  /** Entries that went to the spill file (for tests and diagnostics). */
  long spilled() {
    return map.spilledCount();
  }

  @Override
  public void close() {
    map.close();
  }
}
