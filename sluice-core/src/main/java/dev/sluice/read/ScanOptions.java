package dev.sluice.read;

import dev.sluice.read.expr.Expression;
import java.util.List;
import java.util.Optional;

/**
 * What a scan reads.
 *
 * @param columns user columns to return, in order; empty means all
 * @param filter rows to keep; pushed down to partition pruning and Parquet statistics where possible
 * @param asOf time travel: the snapshot as of this instant
 * @param metaColumns whether to return the five {@code _hoodie_*} columns first
 * @param limit maximum rows, or {@code Long.MAX_VALUE}
 * @param queryType snapshot or read-optimized
 */
public record ScanOptions(List<String> columns, Optional<Expression> filter, Optional<String> asOf, boolean metaColumns,
    long limit, QueryType queryType) {

  /** All columns, latest snapshot, no meta columns. */
  public static ScanOptions defaults() {
    return new ScanOptions(List.of(), Optional.empty(), Optional.empty(), false, Long.MAX_VALUE, QueryType.SNAPSHOT);
  }
}
