package dev.sluice.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.PrunedFilteredScan;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.TaskCompletionListener;

/**
 * The same read as {@link SliceScan} for Spark's V1 path, which Spark 3.5 takes for a table in its session catalog
 * ({@code CREATE TABLE t USING sluice LOCATION '...'}, then {@code SELECT ... FROM t}): it loads such a table as a
 * V1 relation whatever the provider implements. The columns and filters Spark passes go through the V2 scan
 * builder, so the plan (one Spark partition per file slice, pruning) and the task's reader are the V2 read's.
 */
final class SliceRelation extends BaseRelation implements PrunedFilteredScan {
  private final SQLContext sqlContext;
  private final SluiceTable table;

  SliceRelation(SQLContext sqlContext, Map<String, String> options) {
    this.sqlContext = sqlContext;
    this.table = new SluiceTable(options);
  }

  @Override
  public SQLContext sqlContext() {
    return sqlContext;
  }

  @Override
  public StructType schema() {
    return table.schema();
  }

  /** The rows are Spark's internal rows already ({@link SparkRows}). */
  @Override
  public boolean needConversion() {
    return false;
  }

  @Override
  public RDD<Row> buildScan(String[] requiredColumns, Filter[] filters) {
    StructType all = table.schema();
    StructType required = new StructType(Arrays.stream(requiredColumns).map(c -> all.apply(c))
        .toArray(org.apache.spark.sql.types.StructField[]::new));
    SliceScanBuilder builder = (SliceScanBuilder) table.newScanBuilder(
        org.apache.spark.sql.util.CaseInsensitiveStringMap.empty());
    builder.pushFilters(filters);
    builder.pruneColumns(required);
    InputPartition[] partitions = builder.buildRows().toBatch().planInputPartitions();
    RDD<InternalRow> rows = JavaSparkContext.fromSparkContext(sqlContext.sparkContext())
        .parallelize(Arrays.asList(partitions), Math.max(1, partitions.length))
        .mapPartitions(SliceRelation::read).rdd();
    // with needConversion() false Spark takes the RDD's elements as internal rows (as its own V1 sources do)
    @SuppressWarnings("unchecked")
    RDD<Row> asRows = (RDD<Row>) (RDD<?>) rows;
    return asRows;
  }

  /** The rows of the task's input partitions (one each), every reader closed at its end or the task's. */
  private static Iterator<InternalRow> read(Iterator<InputPartition> partitions) {
    return new Iterator<>() {
      private PartitionReader<InternalRow> reader;
      private boolean ready;

      @Override
      public boolean hasNext() {
        try {
          while (!ready) {
            if (reader == null) {
              if (!partitions.hasNext()) {
                return false;
              }
              PartitionReader<InternalRow> r = new SliceReaders.Factory().createReader(partitions.next());
              reader = r;
              TaskContext task = TaskContext.get();
              if (task != null) {
                task.addTaskCompletionListener((TaskCompletionListener) c -> close(r));
              }
            }
            if (reader.next()) {
              ready = true;
            } else {
              close(reader);
              reader = null;
            }
          }
          return true;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public InternalRow next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        ready = false;
        return reader.get();
      }
    };
  }

  private static void close(PartitionReader<InternalRow> r) {
    try {
      r.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
