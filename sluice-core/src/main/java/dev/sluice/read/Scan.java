package dev.sluice.read;

import dev.sluice.read.expr.Expression;
import dev.sluice.util.CloseableIterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * An immutable query builder: each method returns a new scan. {@link #open()} starts reading.
 *
 * <pre>{@code
 * try (CloseableIterator<GenericRecord> rows = table.newScan().select("id", "ts").filter(Expressions.gt("ts", 5L)).open()) {
 *   rows.forEachRemaining(System.out::println);
 * }
 * }</pre>
 */
public final class Scan {
  private final ScanOptions options;
  private final Function<ScanOptions, ScanPlan> planner;

  /** A scan with {@code options}, planned by {@code planner} (the table's). */
  public Scan(ScanOptions options, Function<ScanOptions, ScanPlan> planner) {
    this.options = options;
    this.planner = planner;
  }

  /** Only these user columns, in this order. */
  public Scan select(List<String> columns) {
    return with(new ScanOptions(List.copyOf(columns), options.filter(), options.asOf(), options.metaColumns(),
        options.limit(), options.queryType()));
  }

  /** Only these user columns, in this order. */
  public Scan select(String... columns) {
    return select(List.of(columns));
  }

  /** Only rows matching {@code filter}. */
  public Scan filter(Expression filter) {
    return with(new ScanOptions(options.columns(), Optional.of(filter), options.asOf(), options.metaColumns(),
        options.limit(), options.queryType()));
  }

  /** The snapshot as of instant {@code instantTime} ({@code yyyyMMddHHmmssSSS}). */
  public Scan asOf(String instantTime) {
    return with(new ScanOptions(options.columns(), options.filter(), Optional.of(instantTime), options.metaColumns(),
        options.limit(), options.queryType()));
  }

  /** Also return the {@code _hoodie_*} meta columns (first). */
  public Scan withMetaColumns(boolean include) {
    return with(new ScanOptions(options.columns(), options.filter(), options.asOf(), include, options.limit(),
        options.queryType()));
  }

  /** At most {@code n} rows. */
  public Scan limit(long n) {
    return with(new ScanOptions(options.columns(), options.filter(), options.asOf(), options.metaColumns(), n,
        options.queryType()));
  }

  /** Snapshot (default) or read-optimized. */
  public Scan queryType(QueryType type) {
    return with(new ScanOptions(options.columns(), options.filter(), options.asOf(), options.metaColumns(),
        options.limit(), type));
  }

  /** The options so far. */
  public ScanOptions options() {
    return options;
  }

  /** The schema of the rows {@link #open()} returns. */
  public Schema schema() {
    return planner.apply(options).outputSchema();
  }

  /** Plans the scan (file listing, pruning) without reading rows. */
  public ScanPlan plan() {
    return planner.apply(options);
  }

  /** Reads the rows; close the iterator to release open files. */
  public CloseableIterator<GenericRecord> open() {
    return planner.apply(options).open();
  }

  private Scan with(ScanOptions o) {
    return new Scan(o, planner);
  }
}
