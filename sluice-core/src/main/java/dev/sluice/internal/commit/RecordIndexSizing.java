package dev.sluice.internal.commit;

import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;

/**
 * How many file groups (shards) a new {@code record_index} partition gets: Hudi 0.15's estimate at the record
 * index's bootstrap ({@code HoodieTableMetadataUtil.estimateFileGroupCount} with the writer's
 * {@code RECORD_INDEX_AVERAGE_RECORD_SIZE}), so that a table indexed by Sluice has the shard count a Hudi writer with
 * the same settings would have given it. The count is fixed once the partition is built: the key hash is modulo it.
 *
 * @param minFileGroups {@link ConfigKeys#RECORD_INDEX_MIN_FILEGROUP_COUNT}
 * @param maxFileGroups {@link ConfigKeys#RECORD_INDEX_MAX_FILEGROUP_COUNT}
 * @param maxFileGroupBytes {@link ConfigKeys#RECORD_INDEX_MAX_FILEGROUP_SIZE}
 * @param growthFactor {@link ConfigKeys#RECORD_INDEX_GROWTH_FACTOR}, a float as Hudi reads it
 */
public record RecordIndexSizing(int minFileGroups, int maxFileGroups, int maxFileGroupBytes, float growthFactor) {
  /**
   * Bytes Hudi's writer assumes one record-index entry takes in a shard's HFile (a fixed-size record, measured by
   * Hudi with its default block size and compression); the estimate divides the shard size limit by it.
   */
  public static final int ENTRY_BYTES = 48;

  /** The most file groups a metadata-table partition can have: its file ids carry four digits. */
  public static final int MOST_FILE_GROUPS = 10_000;

  /** Hudi's defaults: at least 10 shards, at most 10,000, 1 GiB each, room for twice the records. */
  public static RecordIndexSizing defaults() {
    return new RecordIndexSizing(ConfigKeys.RECORD_INDEX_MIN_FILEGROUP_COUNT.defaultValue(),
        ConfigKeys.RECORD_INDEX_MAX_FILEGROUP_COUNT.defaultValue(),
        ConfigKeys.RECORD_INDEX_MAX_FILEGROUP_SIZE.defaultValue(),
        ConfigKeys.RECORD_INDEX_GROWTH_FACTOR.defaultValue().floatValue());
  }

  /**
   * Checks the settings before anything is written: counts from 1 to {@value #MOST_FILE_GROUPS} with the minimum at
   * most the maximum, a shard size that holds at least one entry, a positive growth factor. (Hudi divides by zero on
   * a size below one entry; Sluice refuses it.)
   */
  public RecordIndexSizing checked() {
    if (minFileGroups < 1 || minFileGroups > MOST_FILE_GROUPS) {
      throw Errors.badConfig(ConfigKeys.RECORD_INDEX_MIN_FILEGROUP_COUNT.name(), Integer.toString(minFileGroups),
          "a file group count from 1 to " + MOST_FILE_GROUPS);
    }
    if (maxFileGroups < minFileGroups || maxFileGroups > MOST_FILE_GROUPS) {
      throw Errors.badConfig(ConfigKeys.RECORD_INDEX_MAX_FILEGROUP_COUNT.name(), Integer.toString(maxFileGroups),
          "a file group count from " + ConfigKeys.RECORD_INDEX_MIN_FILEGROUP_COUNT.name() + " (" + minFileGroups
              + ") to " + MOST_FILE_GROUPS);
    }
    if (maxFileGroupBytes < ENTRY_BYTES) {
      throw Errors.badConfig(ConfigKeys.RECORD_INDEX_MAX_FILEGROUP_SIZE.name(), Integer.toString(maxFileGroupBytes),
          "a size in bytes of at least " + ENTRY_BYTES + " (one record-index entry)");
    }
    if (!(growthFactor > 0) || Float.isInfinite(growthFactor)) {
      throw Errors.badConfig(ConfigKeys.RECORD_INDEX_GROWTH_FACTOR.name(), Float.toString(growthFactor),
          "a positive number");
    }
    return this;
  }

  /**
   * The shard count for a record index of {@code records} keys: the minimum when it equals the maximum; otherwise
   * {@code records x growthFactor} (in float, rounded up, as Hudi computes it) over the entries one shard holds
   * ({@code maxFileGroupBytes / 48}), rounded down and clamped to [min, max].
   */
  public int fileGroups(long records) {
    if (minFileGroups == maxFileGroups) {
      return minFileGroups;
    }
    long expected = (long) Math.ceil((float) records * growthFactor);
    long perFileGroup = maxFileGroupBytes / ENTRY_BYTES;
    long estimate = expected / perFileGroup;
    if (estimate >= maxFileGroups) {
      return maxFileGroups;
    }
    return (int) Math.max(minFileGroups, estimate);
  }
}
