package dev.sluice.sql;

import java.util.Objects;
import java.util.Optional;

/**
 * How the views read their tables.
 *
 * @param asOf time travel: the snapshot and read-optimized views as of this instant
 * @param from incremental: adds the {@code ALIAS_incr} views, rows written after this instant
 * @param to incremental: up to and including this instant (default: the latest commit)
 * @param meta whether the views also have the {@code _hoodie_*} meta columns
 * @param batchSize rows per Arrow batch handed to DuckDB
 */
public record SqlOptions(Optional<String> asOf, Optional<String> from, Optional<String> to, boolean meta,
    int batchSize) {
  /** Rows per Arrow batch by default: DuckDB's vectors are 2048 rows; a few of them per batch keep the calls few. */
  public static final int DEFAULT_BATCH_SIZE = 8192;

  /** Checks the options. */
  public SqlOptions {
    Objects.requireNonNull(asOf, "asOf");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
    }
  }

  /** The latest snapshot, no incremental views, no meta columns. */
  public static SqlOptions defaults() {
    return new SqlOptions(Optional.empty(), Optional.empty(), Optional.empty(), false, DEFAULT_BATCH_SIZE);
  }
}
