package dev.sluice.bench;

import dev.sluice.api.Config;
import dev.sluice.api.MergeMode;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.spark.SparkBenchEngine;
import dev.sluice.spark.SluiceSpark;
import dev.sluice.spark.SparkCompactionResult;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Sluice on Spark as a benchmark engine: the shared {@link SparkBenchEngine} steps with {@code format("sluice")}
 * (sluice-spark's data source: the engine's write units as Spark tasks, one commit on the driver), Spark's default
 * serializer. Tables are created empty as on the single-engine side (the bench schema, event-time merging, the
 * bench's table version); W4 runs {@link SluiceSpark#compact} with a plan of every file slice with log files
 * ({@code sluice.spark.compact.force}), as the single engine's {@code scheduleNow} plans it.
 */
final class SluiceSparkBenchEngine extends SparkBenchEngine {
  private final int tableVersion;

  SluiceSparkBenchEngine(StepArgs args) {
    super(args, "sluice", Map.of(), Map.of());
    this.tableVersion = Integer.parseInt(args.find("table-version").orElse("6"));
  }

  @Override
  public String name() {
    return BenchResults.SLUICE_SPARK;
  }

  /** The options the engine itself reads (everything but the data source's own {@code hoodie.datasource.*}). */
  private Map<String, String> engineOptions(boolean mergeOnRead) {
    Map<String, String> m = new HashMap<>(options(mergeOnRead));
    m.keySet().removeIf(k -> k.startsWith("hoodie.datasource.") || k.equals("hoodie.table.name"));
    return m;
  }

  @Override
  protected void createTable(Path table, boolean mergeOnRead) {
    Tables.create(table.toString(), TableSpec.builder("bench")
        .type(mergeOnRead ? TableType.MERGE_ON_READ : TableType.COPY_ON_WRITE)
        .recordKey(BenchRecords.KEY).precombine(BenchRecords.ORDERING).partitionBy(BenchRecords.PARTITION)
        .schema(BenchRecords.SCHEMA).mergeMode(MergeMode.EVENT_TIME_ORDERING).tableVersion(tableVersion).build(),
        Config.of(engineOptions(mergeOnRead)));
  }

  @Override
  public boolean compact(Path table) {
    Map<String, String> o = engineOptions(true);
    o.put("sluice.spark.compact.force", "true");
    SparkCompactionResult r = SluiceSpark.compact(spark(), table.toString(), o);
    if (r.compaction().isEmpty()) {
      throw new IllegalStateException("Sluice on Spark ran no compaction on " + table + ": " + r.explanation());
    }
    return true;
  }
}
