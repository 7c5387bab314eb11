package dev.sluice.spark;

import dev.sluice.api.Expression;
import dev.sluice.api.FileSliceInfo;
import dev.sluice.api.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A planned read: the driver plans the engine's scan (partition pruning by the pushed predicate) and makes one
 * input partition per file slice; each task reads its slice through the engine ({@link SliceReaders}).
 */
final class SliceScan implements Scan, Batch {
  private final ReadOptions read;
  private final StructType required;
  private final Filter[] pushed;
  private final Optional<Expression> predicate;
  private final boolean columnarAllowed;
  private InputPartition[] planned;
  private boolean columnar;

  /** A scan; {@code columnarAllowed}: base-file slices may be read in column batches ({@link ColumnarBase}). */
  SliceScan(ReadOptions read, StructType required, Filter[] pushed, Optional<Expression> predicate,
      boolean columnarAllowed) {
    this.read = read;
    this.required = required;
    this.pushed = pushed.clone();
    this.predicate = predicate;
    this.columnarAllowed = columnarAllowed;
  }

  @Override
  public StructType readSchema() {
    return required;
  }

  @Override
  public String description() {
    return "sluice " + read.queryType().name().toLowerCase(java.util.Locale.ROOT) + " " + read.path()
        + read.asOf().map(a -> " as of " + a).orElse("")
        + read.beginInstant().map(b -> " after " + b + read.endInstant().map(e -> " to " + e).orElse("")).orElse("")
        + " columns=" + Arrays.toString(required.fieldNames())
        + " pushed=" + Arrays.stream(pushed).map(Filter::toString).collect(Collectors.joining(", ", "[", "]"));
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  /**
   * One partition per file slice the engine plans, in its order; planned once per scan. Base-file slices Spark's
   * Parquet reader can read as they are become partitions of the columnar path ({@link ColumnarBase}).
   */
  @Override
  public synchronized InputPartition[] planInputPartitions() {
    if (planned == null) {
      List<FileSliceInfo> slices;
      try (Table table = read.open()) {
        slices = engineScan(read, required, predicate, table).slices();
      }
      Optional<InputPartition[]> bases = columnarAllowed ? ColumnarBase.plan(read, required, slices)
          : Optional.empty();
      columnar = bases.isPresent();
      if (columnar) {
        planned = bases.get();
      } else {
        List<InputPartition> out = new ArrayList<>(slices.size());
        for (FileSliceInfo s : slices) {
          out.add(new SliceReaders.SlicePartition(read, required, pushed, SliceReaders.SliceWire.of(s)));
        }
        planned = out.toArray(InputPartition[]::new);
      }
    }
    return planned.clone();
  }

  @Override
  public synchronized PartitionReaderFactory createReaderFactory() {
    planInputPartitions();
    return columnar ? new ColumnarBase.Factory() : new SliceReaders.Factory();
  }

  /**
   * The engine's scan for Spark's {@code required} columns: the table's own columns among them (at least one, so
   * that a count reads one column rather than all), and the meta columns if any is asked for.
   */
  static dev.sluice.api.Scan engineScan(ReadOptions read, StructType required, Optional<Expression> predicate,
      Table table) {
    List<String> columns = new ArrayList<>();
    boolean meta = false;
    for (StructField f : required.fields()) {
      if (SparkRows.META.contains(f.name())) {
        meta = true;
      } else {
        columns.add(f.name());
      }
    }
    if (columns.isEmpty()) {
      columns.add(table.schema().getFields().stream().map(org.apache.avro.Schema.Field::name)
          .filter(n -> !SparkRows.META.contains(n)).findFirst().orElseThrow());
    }
    dev.sluice.api.Scan s = read.scan(table).select(columns).withMetaColumns(meta);
    return predicate.isPresent() ? s.filter(predicate.get()) : s;
  }
}
