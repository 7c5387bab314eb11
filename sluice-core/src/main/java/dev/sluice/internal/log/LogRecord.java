package dev.sluice.internal.log;

import java.util.Optional;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;

/**
 * The merged state of one record key across a file slice's log blocks.
 *
 * @param key record key
 * @param partitionPath partition path (of the latest winning version)
 * @param record the latest record, or null if the key's latest state is a delete
 * @param ordering ordering (precombine) value of that version ({@code Integer 0} without precombine field; may be
 *     null for a delete stored without ordering value); Avro strings are given as {@code String}
 * @param hardDelete true if the state comes from a delete block: it removes the key from the base file whatever
 *     the ordering values (Hudi's empty payload). Records with {@code _hoodie_is_deleted = true} are data records.
 * @param partialColumns the columns {@code record} holds if it is a Hudi 1.x partial update (from an
 *     {@code IS_PARTIAL} block, merged with no full version of the key yet): the others are null in it and are taken
 *     from the older version of the key (the base file's row); empty for a whole record
 */
public record LogRecord(String key, String partitionPath, GenericRecord record, Comparable<?> ordering, boolean hardDelete,
    Optional<Set<String>> partialColumns) {
  /** A whole record (or a delete). */
  public LogRecord(String key, String partitionPath, GenericRecord record, Comparable<?> ordering, boolean hardDelete) {
    this(key, partitionPath, record, ordering, hardDelete, Optional.empty());
  }

  /** True if the key's latest state is a delete. */
  public boolean isDelete() {
    return record == null;
  }
}
