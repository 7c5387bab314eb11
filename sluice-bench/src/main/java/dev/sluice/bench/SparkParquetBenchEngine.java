package dev.sluice.bench;

import dev.sluice.api.BaseFileInfo;
import dev.sluice.api.FileSliceInfo;
import dev.sluice.api.QueryType;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.spark.SparkBenchEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.SaveMode;

/**
 * The reference of the Spark workloads: Spark's own Parquet data source with no table format, in the session
 * {@link SparkBenchEngine} gives Sluice on Spark ({@code local[N]}, the default serializer), on the same staged
 * Datasets. What it measures is a lower bound for any table format on Spark doing the same job on this machine, not
 * a competitor: it does less.
 *
 * <ul>
 *   <li><b>Writes</b> (W1's bulk insert and insert): {@code df.write.partitionBy("part")} as Parquet, snappy, the
 *       row-group and page sizes the table formats get, mode Append into an empty folder: no batch dedupe, no index
 *       lookup, no sort, no meta columns, no timeline; Spark's own commit protocol (task files renamed into place).
 *       Upserts, deletes and compaction do not exist in plain Parquet: W2 and W4 are not run on it.</li>
 *   <li><b>Reads</b> (W3) of a Hudi table some other engine wrote: the files of its read-optimized view, listed
 *       through Sluice's API before the clock ({@link #prepareRead}), read with {@code spark.read.parquet} and the
 *       same aggregation as the table formats' reads. For the read-optimized query that is exactly the job (the
 *       same rows and {@code ts} sum as the format's own read-optimized read of that table); for a snapshot it is a
 *       lower bound, since the log files are not merged.</li>
 * </ul>
 *
 * <p>Folders this engine created hold plain Parquet and are read whole (the row check after a write).
 */
final class SparkParquetBenchEngine extends SparkBenchEngine {
  private final Set<Path> plain = new HashSet<>();
  private final Map<Path, List<String>> baseFiles = new HashMap<>();

  SparkParquetBenchEngine(StepArgs args) {
    super(args, "parquet", Map.of(), Map.of());
  }

  @Override
  public String name() {
    return BenchResults.SPARK_PARQUET;
  }

  @Override
  public boolean upserts() {
    return false;
  }

  /** An empty folder: the write appends into it. */
  @Override
  protected void createTable(Path table, boolean mergeOnRead) {
    try {
      Files.createDirectories(table);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + table, e);
    }
    plain.add(table);
  }

  @Override
  public void write(Path table, Op op, List<GenericRecord> records) {
    if (op != Op.BULK_INSERT && op != Op.INSERT) {
      throw new UnsupportedOperationException("plain Parquet has no " + op + ": the " + name()
          + " reference runs W1 and W3 only");
    }
    Map<String, String> sizes = options(false);
    input(records).write().format("parquet").partitionBy(BenchRecords.PARTITION)
        .option("compression", "snappy")
        .option("parquet.block.size", sizes.get("hoodie.parquet.block.size"))
        .option("parquet.page.size", sizes.get("hoodie.parquet.page.size"))
        .mode(SaveMode.Append)
        .save(table.toString());
  }

  /** A Hudi table's read: its read-optimized view's base files, listed now, before the clock. */
  @Override
  public void prepareRead(Path table, boolean snapshot) {
    if (!plain.contains(table)) {
      baseFiles.put(table, readOptimizedFiles(table));
    }
  }

  @Override
  public ReadResult read(Path table, boolean snapshot) {
    if (plain.contains(table)) {
      return aggregate(spark().read().parquet(table.toString()));
    }
    List<String> files = Optional.ofNullable(baseFiles.get(table)).orElseGet(() -> readOptimizedFiles(table));
    if (files.isEmpty()) {
      return new ReadResult(0, 0);
    }
    return aggregate(spark().read().parquet(files.toArray(String[]::new)));
  }

  /** The base files of the table's read-optimized view, through Sluice's public API. */
  private static List<String> readOptimizedFiles(Path table) {
    try (Table t = Tables.open(table.toString())) {
      return t.newScan().queryType(QueryType.READ_OPTIMIZED).slices().stream().map(FileSliceInfo::baseFile)
          .flatMap(Optional::stream).map(BaseFileInfo::path).toList();
    }
  }

  @Override
  public boolean compact(Path table) {
    return false;
  }
}
