package dev.sluice.api;

import java.util.Objects;
import java.util.Optional;

/**
 * What a write received and did not apply, and why: the counts behind a {@link CommitResult}'s inserted, updated and
 * deleted figures. Each count is kept as the write goes (counters only, no extra pass over the data).
 *
 * @param received records in the input
 * @param combined input records that were another version of a key earlier in the same input and were collapsed into
 *     one version per key before writing (the larger ordering value wins, a tie the later record: Hudi's
 *     {@code hoodie.combine.before.upsert} / {@code hoodie.combine.before.insert})
 * @param olderThanStored incoming versions that lost to the stored version of their key under event-time ordering
 *     (its ordering value was smaller than the stored one's), so the stored row stayed. Counted where the write
 *     compares with the stored row: Copy-on-Write rewrites (and Merge-on-Read file groups rewritten as small files).
 *     Updates appended to Merge-on-Read log files are weighed only when the slice is read or compacted, so they count
 *     as updated here
 * @param deletesNotFound deletes (the delete operation, or {@code _hoodie_is_deleted = true}) of keys the table does
 *     not hold: nothing to delete
 * @param deletesWithoutPartition deletes on a partitioned table with a non-global index whose row had no value for
 *     the partition path field(s): they are looked up in the default partition only ({@code __HIVE_DEFAULT_PARTITION__})
 *     and usually not found
 * @param orderingField the ordering (precombine) field the write compared versions by, when it had one
 */
public record WriteOutcome(long received, long combined, long olderThanStored, long deletesNotFound,
    long deletesWithoutPartition, Optional<String> orderingField) {
  /** Rejects a null ordering field. */
  public WriteOutcome {
    Objects.requireNonNull(orderingField, "orderingField");
  }
}
