package dev.sluice.api;

import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * The merged state of one record key across the committed log blocks of a file slice, as a snapshot read merges
 * them before it meets the base file.
 *
 * @param recordKey the record key
 * @param partitionPath its partition path
 * @param record the winning record (all columns of the table schema), empty when the key's latest state is a delete
 * @param orderingValue the ordering (precombine) value of the winning version, if it has one
 */
public record MergedLogRecord(String recordKey, String partitionPath, Optional<GenericRecord> record,
    Optional<Object> orderingValue) {
  /** Whether the key's latest state in the logs is a delete. */
  public boolean deleted() {
    return record.isEmpty();
  }
}
