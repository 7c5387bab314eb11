package dev.sluice.internal.log;

import java.util.Optional;

/**
 * Keys of a log block's header ({@code HeaderMetadataType}). The ordinal is what the file stores, so the
 * constants must never be reordered.
 */
public enum HeaderKey {
  /** The instant that wrote the block. */
  INSTANT_TIME,
  /** Command blocks: the instant the command applies to (the one rolled back). */
  TARGET_INSTANT_TIME,
  /** Data blocks: the writer's Avro schema, as JSON. */
  SCHEMA,
  /** Command blocks: the command's ordinal as a decimal string; {@code "0"} is a rollback. */
  COMMAND_BLOCK_TYPE,
  /** Log-compaction blocks: comma-separated instants compacted into this block. */
  COMPACTED_BLOCK_TIMES,
  /** Record positions (a Hudi 1.x feature; 0.15 writers leave it out). */
  RECORD_POSITIONS,
  /** Optional identifier used to drop blocks of retried tasks in Hudi's optimized scan. */
  BLOCK_IDENTIFIER,
  /** {@code "true"} on a data block of partial rows (Hudi 1.x partial updates; table versions 8 and 9). */
  IS_PARTIAL,
  /** The base file instant {@link #RECORD_POSITIONS} refer to (Hudi 1.x); keys decide the merge here, not positions. */
  BASE_FILE_INSTANT_TIME_OF_RECORD_POSITIONS;

  private static final HeaderKey[] BY_ORDINAL = values();

  /** The key stored as {@code ordinal}, or empty if no such key exists. */
  public static Optional<HeaderKey> fromOrdinal(int ordinal) {
    return ordinal >= 0 && ordinal < BY_ORDINAL.length ? Optional.of(BY_ORDINAL[ordinal]) : Optional.empty();
  }
}
