package dev.sluice.internal.log;

import java.util.Optional;

/**
 * The kinds of log blocks. The ordinal is what a block's type field holds on disk ({@code HoodieLogBlockType}),
 * so the constants must never be reordered.
 */
public enum LogBlockType {
  /** A command, such as a rollback of an earlier instant's blocks. */
  COMMAND_BLOCK,
  /** Keys deleted by an instant. */
  DELETE_BLOCK,
  /** A damaged span of the file; made by readers, never written. */
  CORRUPT_BLOCK,
  /** Avro-encoded records. */
  AVRO_DATA_BLOCK,
  /** Records in an HFile (metadata table only). */
  HFILE_DATA_BLOCK,
  /** Records in an embedded Parquet file. */
  PARQUET_DATA_BLOCK,
  /** Change-data-capture records (Avro-encoded). */
  CDC_DATA_BLOCK;

  private static final LogBlockType[] BY_ORDINAL = values();

  /** The type stored as {@code ordinal}, or empty if no such type exists. */
  public static Optional<LogBlockType> fromOrdinal(int ordinal) {
    return ordinal >= 0 && ordinal < BY_ORDINAL.length ? Optional.of(BY_ORDINAL[ordinal]) : Optional.empty();
  }

  /** True for the types whose content is a set of records (Avro, HFile, Parquet, CDC). */
  public boolean isData() {
    return this == AVRO_DATA_BLOCK || this == HFILE_DATA_BLOCK || this == PARQUET_DATA_BLOCK || this == CDC_DATA_BLOCK;
  }
}
