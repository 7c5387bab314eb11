package dev.sluice.spark;

import dev.sluice.api.Expression;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Takes the columns a query needs and the filters Spark can push, for the engine's scan: the columns become the
 * scan's projection, the filters its predicate (partition pruning when planning, Parquet statistics when
 * reading). Every filter is also handed back to Spark to evaluate after the scan ({@link PushedFilters}).
 */
final class SliceScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownFilters {
  private final ReadOptions read;
  private StructType required;
  private Filter[] pushed = new Filter[0];
  private Optional<Expression> predicate = Optional.empty();

  SliceScanBuilder(ReadOptions read, StructType tableSchema) {
    this.read = read;
    this.required = tableSchema;
  }

  @Override
  public void pruneColumns(StructType requiredSchema) {
    this.required = requiredSchema;
  }

  @Override
  public Filter[] pushFilters(Filter[] filters) {
    List<Filter> taken = new ArrayList<>();
    List<Expression> expressions = new ArrayList<>();
    for (Filter f : filters) {
      Optional<Expression> e = PushedFilters.toExpression(f);
      if (e.isPresent()) {
        taken.add(f);
        expressions.add(e.get());
      }
    }
    pushed = taken.toArray(Filter[]::new);
    predicate = expressions.isEmpty() ? Optional.empty() : Optional.of(dev.sluice.api.Expressions.and(expressions));
    return filters;
  }

  @Override
  public Filter[] pushedFilters() {
    return pushed.clone();
  }

  @Override
  public Scan build() {
    return new SliceScan(read, required, pushed, predicate, true);
  }

  /** The scan with row partitions only, for a caller that reads the partitions itself ({@link SliceRelation}). */
  SliceScan buildRows() {
    return new SliceScan(read, required, pushed, predicate, false);
  }
}
