package dev.sluice.internal.log;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.merge.DeleteFlag;
import dev.sluice.internal.merge.KeyedChanges;
import dev.sluice.internal.merge.PartialUpdate;
import dev.sluice.api.CloseableIterator;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * A file slice's merged log records as the changes a base file's rows are merged with (snapshot read, compaction):
 * a base row's key is taken out of the records (by its UTF-8 bytes where the records allow it), so that what is left
 * afterwards is the keys in the logs alone. A record with {@code _hoodie_is_deleted = true} deletes, as a delete
 * block does, but is ordered like any data record.
 */
public final class LogChanges implements KeyedChanges<LogRecord> {
  private final MergedLogRecords records;
  private final DeleteFlag deleted;

  /**
   * @param records the merged records, still the caller's to close
   * @param deleted reads {@code _hoodie_is_deleted} of the records' schema
   */
  public LogChanges(MergedLogRecords records, DeleteFlag deleted) {
    this.records = records;
    this.deleted = deleted;
  }

  @Override
  public boolean isEmpty() {
    return records.size() == 0;
  }

  @Override
  public Optional<LogRecord> take(String key) {
    return records.remove(key);
  }

  @Override
  public Optional<LogRecord> take(byte[] utf8, int offset, int length) {
    return records.remove(utf8, offset, length);
  }

  @Override
  public CloseableIterator<LogRecord> rest() {
    return records.all();
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Comparable ordering(LogRecord change) {
    return change.ordering();
  }

  @Override
  public boolean hardDelete(LogRecord change) {
    return change.hardDelete();
  }

  @Override
  public boolean partial() {
    return records.stats().partialUpdates();
  }

  @Override
  public LogRecord alone(LogRecord change) {
    if (change.partialColumns().isPresent() && change.record() != null) {
      // Hudi's MERGE INTO writes partial updates only for keys the table holds; one with no older version here is
      // a slice read without its base file (an incremental read), where Hudi 1.1.1's own read fails: not guessed
      throw Errors.unsupported("The partial update of key '" + change.key() + "' with no older version in its file slice",
          "Sluice merges Hudi 1.x partial updates only with an older version of the key (base file or earlier log); "
              + "use a snapshot query, or compact the table first.");
    }
    return change;
  }

  @Override
  public LogRecord fill(LogRecord change, GenericRecord stored) {
    if (change.partialColumns().isEmpty() || change.record() == null) {
      return change;
    }
    return new LogRecord(change.key(), change.partitionPath(),
        PartialUpdate.overlay(change.record(), change.partialColumns(), stored), change.ordering(), false);
  }

  @Override
  public boolean deletes(LogRecord change) {
    return change.isDelete() || deleted.isSet(change.record());
  }
}
