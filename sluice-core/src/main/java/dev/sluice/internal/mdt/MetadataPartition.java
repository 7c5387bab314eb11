package dev.sluice.internal.mdt;

import java.util.Arrays;
import java.util.Optional;

/**
 * The partitions of the metadata table that Hudi 0.15 knows, with the file id prefix of their file groups
 * ({@code MetadataPartitionType}). Sluice maintains {@link #FILES} and {@link #RECORD_INDEX}; the others are
 * dropped when Sluice writes, as a Hudi writer with them disabled drops them.
 */
public enum MetadataPartition {
  /** Partition and file listings (one file group). */
  FILES("files", "files-"),
  /** Column statistics per file. */
  COLUMN_STATS("column_stats", "col-stats-"),
  /** Bloom filters per file. */
  BLOOM_FILTERS("bloom_filters", "bloom-filters-"),
  /** Record key to file group. */
  RECORD_INDEX("record_index", "record-index-");

  private final String path;
  private final String fileIdPrefix;

  MetadataPartition(String path, String fileIdPrefix) {
    this.path = path;
    this.fileIdPrefix = fileIdPrefix;
  }

  /** The partition's folder under {@code .hoodie/metadata} and its name in {@code hoodie.table.metadata.partitions}. */
  public String path() {
    return path;
  }

  /** The id of file group {@code index}: prefix, four digits, {@code -0} ({@code getFileIDForFileGroup}). */
  public String fileId(int index) {
    return String.format("%s%04d-%d", fileIdPrefix, index, 0);
  }

  /** The partition named {@code path}, if Hudi 0.15 has one of that name. */
  public static Optional<MetadataPartition> of(String path) {
    return Arrays.stream(values()).filter(p -> p.path.equals(path)).findFirst();
  }

  /**
   * The file group (0 to {@code groups - 1}, the partition's file groups sorted by file id) that holds {@code key}:
   * the 31-multiplier hash over the key's UTF-16 units with 32-bit overflow, its absolute value modulo
   * {@code groups} ({@code mapRecordKeyToFileGroupIndex}).
   */
  public static int fileGroupIndex(String key, int groups) {
    int h = 0;
    for (int i = 0; i < key.length(); i++) {
      h = 31 * h + key.charAt(i);
    }
    // Math.abs(Integer.MIN_VALUE) stays negative; the remainder then is too, and the outer abs fixes it
    return Math.abs(Math.abs(h) % groups);
  }
}
