package dev.sluice.api;

import java.util.Optional;

/**
 * One difference between the metadata table's listing and a listing of storage.
 *
 * @param kind what differs
 * @param partition the partition (relative path, {@code ""} for a non-partitioned table)
 * @param file the file name; empty for partition differences
 * @param metadataSize the size the metadata table records; empty if it does not list the file
 * @param storageSize the size on storage; empty if storage does not hold the file
 */
public record MetadataDifference(Kind kind, String partition, Optional<String> file, Optional<Long> metadataSize,
    Optional<Long> storageSize) {
  /** Kinds of differences, named from the metadata table's side. */
  public enum Kind {
    /** A partition on storage the metadata table does not list. */
    MISSING_PARTITION,
    /** A partition the metadata table lists that storage does not have. */
    EXTRA_PARTITION,
    /** A committed file on storage the metadata table does not list. */
    MISSING_FILE,
    /** A file the metadata table lists that storage does not hold. */
    EXTRA_FILE,
    /** A file both list with different sizes. */
    SIZE_MISMATCH
  }

  /** One line for people: kind, partition, file and sizes. */
  public String describe() {
    String where = partition.isEmpty() ? "<none>" : partition;
    return switch (kind) {
      case MISSING_PARTITION -> "missing partition " + where + " (on storage, not in the metadata table)";
      case EXTRA_PARTITION -> "extra partition " + where + " (in the metadata table, not on storage)";
      case MISSING_FILE -> "missing file " + where + "/" + file.orElse("") + " (" + storageSize.orElse(0L)
          + " bytes on storage, not in the metadata table)";
      case EXTRA_FILE -> "extra file " + where + "/" + file.orElse("") + " (" + metadataSize.orElse(0L)
          + " bytes in the metadata table, not on storage)";
      case SIZE_MISMATCH -> "size mismatch " + where + "/" + file.orElse("") + ": metadata table " + metadataSize.orElse(0L)
          + " bytes, storage " + storageSize.orElse(0L) + " bytes";
    };
  }
}
