package dev.sluice.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a scan reads.
 *
 * @param columns user columns to return, in order; empty means all
 * @param filter rows to keep; pushed down to partition pruning and Parquet statistics where possible
 * @param asOf time travel: the snapshot as of this instant (snapshot and read-optimized queries)
 * @param metaColumns whether to return the five {@code _hoodie_*} columns first
 * @param limit maximum rows, or {@code Long.MAX_VALUE}
 * @param queryType snapshot, read-optimized or incremental
 * @param beginInstant incremental: the range starts after this instant (exclusive)
 * @param endInstant incremental: the range ends at this instant (inclusive); default the latest completed write
 * @param includeDeletes incremental: also return the keys deleted in the range, as rows whose
 *     {@code _hoodie_is_deleted} column is true
 * @param parallelism threads that read file slices; empty means the table's {@code sluice.read.parallelism}
 *     (default 1: one slice open at a time). With more, slices are read at once and their rows still come in
 *     plan order, as with one
 */
public record ScanOptions(List<String> columns, Optional<Expression> filter, Optional<String> asOf, boolean metaColumns,
    long limit, QueryType queryType, Optional<String> beginInstant, Optional<String> endInstant,
    boolean includeDeletes, Optional<Integer> parallelism) {

  /** Copies the columns and rejects nulls. */
  public ScanOptions {
    columns = List.copyOf(columns);
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(asOf, "asOf");
    Objects.requireNonNull(queryType, "queryType");
    Objects.requireNonNull(beginInstant, "beginInstant");
    Objects.requireNonNull(endInstant, "endInstant");
    Objects.requireNonNull(parallelism, "parallelism");
  }

  /** Options without a scan parallelism of their own (the table's applies). */
  public ScanOptions(List<String> columns, Optional<Expression> filter, Optional<String> asOf, boolean metaColumns,
      long limit, QueryType queryType, Optional<String> beginInstant, Optional<String> endInstant,
      boolean includeDeletes) {
    this(columns, filter, asOf, metaColumns, limit, queryType, beginInstant, endInstant, includeDeletes,
        Optional.empty());
  }

  /** Options of a snapshot or read-optimized query (no incremental range). */
  public ScanOptions(List<String> columns, Optional<Expression> filter, Optional<String> asOf, boolean metaColumns,
      long limit, QueryType queryType) {
    this(columns, filter, asOf, metaColumns, limit, queryType, Optional.empty(), Optional.empty(), false,
        Optional.empty());
  }

  /** All columns, latest snapshot, no meta columns. */
  public static ScanOptions defaults() {
    return new ScanOptions(List.of(), Optional.empty(), Optional.empty(), false, Long.MAX_VALUE, QueryType.SNAPSHOT);
  }

  /** A copy returning these columns. */
  public ScanOptions withColumns(List<String> c) {
    return new ScanOptions(c, filter, asOf, metaColumns, limit, queryType, beginInstant, endInstant, includeDeletes,
        parallelism);
  }

  /** A copy with this filter. */
  public ScanOptions withFilter(Optional<Expression> f) {
    return new ScanOptions(columns, f, asOf, metaColumns, limit, queryType, beginInstant, endInstant, includeDeletes,
        parallelism);
  }

  /** A copy with this time-travel instant. */
  public ScanOptions withAsOf(Optional<String> a) {
    return new ScanOptions(columns, filter, a, metaColumns, limit, queryType, beginInstant, endInstant, includeDeletes,
        parallelism);
  }

  /** A copy with or without meta columns. */
  public ScanOptions withMetaColumns(boolean m) {
    return new ScanOptions(columns, filter, asOf, m, limit, queryType, beginInstant, endInstant, includeDeletes,
        parallelism);
  }

  /** A copy with this row limit. */
  public ScanOptions withLimit(long n) {
    return new ScanOptions(columns, filter, asOf, metaColumns, n, queryType, beginInstant, endInstant, includeDeletes,
        parallelism);
  }

  /** A copy with this query type. */
  public ScanOptions withQueryType(QueryType t) {
    return new ScanOptions(columns, filter, asOf, metaColumns, limit, t, beginInstant, endInstant, includeDeletes,
        parallelism);
  }

  /** A copy with this incremental range. */
  public ScanOptions withRange(Optional<String> begin, Optional<String> end) {
    return new ScanOptions(columns, filter, asOf, metaColumns, limit, queryType, begin, end, includeDeletes,
        parallelism);
  }

  /** A copy with or without deleted keys (incremental queries). */
  public ScanOptions withIncludeDeletes(boolean d) {
    return new ScanOptions(columns, filter, asOf, metaColumns, limit, queryType, beginInstant, endInstant, d,
        parallelism);
  }

  /** A copy read on this many threads. */
  public ScanOptions withParallelism(Optional<Integer> p) {
    return new ScanOptions(columns, filter, asOf, metaColumns, limit, queryType, beginInstant, endInstant,
        includeDeletes, p);
  }
}
