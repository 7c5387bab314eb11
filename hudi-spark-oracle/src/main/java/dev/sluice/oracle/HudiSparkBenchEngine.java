package dev.sluice.oracle;

import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.spark.SparkBenchEngine;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * Apache Hudi 0.15.0's own Spark data source ({@code hudi-spark3.5-bundle_2.12}) as a benchmark engine: the shared
 * {@link SparkBenchEngine} steps with {@code format("hudi")}, set up as Hudi's Spark quick start sets a session
 * (Kryo with Hudi's registrar, Hudi's SQL extension) and with what the Java-client engine of the other workloads
 * gets: event-time merging ({@code DefaultHoodieRecordPayload} on {@code ts}), the simple key generator, bulk
 * insert globally sorted, the bench's parallelism for every shuffle, direct markers and no embedded timeline server,
 * no inline or async compaction. The first write creates the table, as a Hudi Spark job does; W4 runs
 * {@code CALL run_compaction} (schedule and execute), Hudi's Spark procedure.
 */
final class HudiSparkBenchEngine extends SparkBenchEngine {
  private static final String PAYLOAD = "org.apache.hudi.common.model.DefaultHoodieRecordPayload";

  HudiSparkBenchEngine(StepArgs args) {
    super(args, "hudi", Map.of(
        "spark.serializer", "org.apache.spark.serializer.KryoSerializer",
        "spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar",
        "spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension"), hudiOptions(args));
  }

  private static Map<String, String> hudiOptions(StepArgs args) {
    Map<String, String> m = new LinkedHashMap<>();
    String parallelism = args.get("parallelism");
    m.put("hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.SimpleKeyGenerator");
    m.put("hoodie.datasource.write.payload.class", PAYLOAD);
    m.put("hoodie.compaction.payload.class", PAYLOAD);
    m.put("hoodie.payload.ordering.field", BenchRecords.ORDERING);
    for (String op : List.of("insert", "upsert", "bulkinsert", "delete")) {
      m.put("hoodie." + op + ".shuffle.parallelism", parallelism);
    }
    m.put("hoodie.bloom.index.parallelism", parallelism);
    m.put("hoodie.bulkinsert.sort.mode", "GLOBAL_SORT");
    m.put("hoodie.embed.timeline.server", "false");
    m.put("hoodie.write.markers.type", "DIRECT");
    m.put("hoodie.compact.inline", "false");
    m.put("hoodie.datasource.compaction.async.enable", "false");
    return m;
  }

  @Override
  public String name() {
    return "hudi-spark";
  }

  @Override
  protected void createTable(Path table, boolean mergeOnRead) {
    // Hudi's data source creates the table with its first write
  }

  /** Schedules a compaction of every file slice with log files and runs it, in one procedure call. */
  @Override
  public boolean compact(Path table) {
    List<Row> result = spark().sql("CALL run_compaction(op => 'scheduleandexecute', path => '"
        + table.toString().replace("'", "\\'") + "', options => 'hoodie.compact.inline.max.delta.commits=1')")
        .collectAsList();
    if (result.isEmpty()) {
      throw new IllegalStateException("Hudi on Spark ran no compaction on " + table);
    }
    return true;
  }
}
