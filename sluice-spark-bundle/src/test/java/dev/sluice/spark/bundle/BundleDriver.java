package dev.sluice.spark.bundle;

import dev.sluice.spark.SluiceSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * A Spark driver program run the way a user runs a job, with only Spark's jars and the Sluice bundle on its class
 * path: {@code java -cp <spark jars>:<bundle> BundleDriver.java <master> <table> <out> <executor class path>} (Java's
 * source launcher compiles it, so no test class is on the path). On the standalone cluster it inserts, upserts and
 * compacts a Merge-on-Read table through {@link SluiceSpark}, reads it back through {@code format("sluice")} and
 * writes the rows as lines to {@code <out>}, the application id to {@code <out>.app}. SparkClusterIT compares them
 * with the engine's rows; the rows, options and cluster settings are shared with it from here (one definition).
 */
public final class BundleDriver {
  static final StructType ROWS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("part", DataTypes.StringType, false)
      .add("ts", DataTypes.LongType, false)
      .add("payload", DataTypes.StringType, false);

  private BundleDriver() {
  }

  public static void main(String[] args) throws IOException {
    SparkSession.Builder b = SparkSession.builder().master(args[0]).appName("sluice-bundle");
    clusterConf(args[3]).forEach(b::config);
    SparkSession spark = b.getOrCreate();
    try {
      Map<String, String> options = options("MERGE_ON_READ");
      SluiceSpark.insert(spark.createDataFrame(firstBatch(), ROWS), args[1], options);
      SluiceSpark.upsert(spark.createDataFrame(secondBatch(), ROWS), args[1], options);
      if (SluiceSpark.compact(spark, args[1], Map.of("sluice.spark.compact.force", "true")).compaction().isEmpty()) {
        throw new IllegalStateException("no compaction ran");
      }
      List<String> lines = lines(spark.read().format("sluice").load(args[1]));
      Files.write(Path.of(args[2]), lines);
      Files.writeString(Path.of(args[2] + ".app"), spark.sparkContext().applicationId());
    } finally {
      spark.stop();
    }
  }

  /**
   * An application's settings on the test cluster: executors of 512 MB, one core each, one per Worker; the class
   * path they run on; the driver on loopback; the first job waits until both executors registered.
   */
  static Map<String, String> clusterConf(String executorClassPath) {
    Map<String, String> c = new HashMap<>();
    c.put("spark.driver.host", "127.0.0.1");
    c.put("spark.driver.bindAddress", "127.0.0.1");
    c.put("spark.ui.enabled", "false");
    c.put("spark.ui.showConsoleProgress", "false");
    c.put("spark.executor.memory", "512m");
    c.put("spark.executor.cores", "1");
    c.put("spark.cores.max", "2");
    c.put("spark.executor.extraClassPath", executorClassPath);
    c.put("spark.executor.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    c.put("spark.executorEnv.SPARK_SCALA_VERSION", "2.12");
    c.put("spark.scheduler.minRegisteredResourcesRatio", "1.0");
    c.put("spark.scheduler.maxRegisteredResourcesWaitingTime", "300s");
    c.put("spark.sql.shuffle.partitions", "4");
    c.put("spark.default.parallelism", "4");
    return c;
  }

  /** Small files, so a few hundred rows make several file groups (several write tasks). */
  static Map<String, String> options(String tableType) {
    Map<String, String> o = new HashMap<>();
    o.put("hoodie.table.name", "trips");
    o.put("hoodie.datasource.write.recordkey.field", "id");
    o.put("hoodie.datasource.write.precombine.field", "ts");
    o.put("hoodie.datasource.write.partitionpath.field", "part");
    o.put("hoodie.datasource.write.table.type", tableType);
    o.put("hoodie.parquet.max.file.size", String.valueOf(40 << 10));
    o.put("hoodie.parquet.small.file.limit", String.valueOf(30 << 10));
    return o;
  }

  /** 600 new keys. */
  static List<Row> firstBatch() {
    return rows(0, 600, 1, "a");
  }

  /** Updates of 200 keys, 300 new keys, and 50 versions older than the stored ones (they lose). */
  static List<Row> secondBatch() {
    List<Row> out = rows(400, 500, 2, "b");
    out.addAll(rows(400, 50, 0, "old"));
    return out;
  }

  static List<Row> rows(int from, int n, long ts, String tag) {
    List<Row> out = new ArrayList<>(n);
    for (int i = from; i < from + n; i++) {
      out.add(RowFactory.create(String.format("k%06d", i), "p" + (i % 3), ts, tag + ":" + i + ":" + "x".repeat(40)));
    }
    return out;
  }

  /** The rows as sorted {@code id|part|ts|payload} lines. */
  static List<String> lines(Dataset<Row> df) {
    List<String> out = new ArrayList<>();
    for (Row r : df.select("id", "part", "ts", "payload").collectAsList()) {
      out.add(r.getString(0) + "|" + r.getString(1) + "|" + r.getLong(2) + "|" + r.getString(3));
    }
    out.sort(null);
    return out;
  }
}
