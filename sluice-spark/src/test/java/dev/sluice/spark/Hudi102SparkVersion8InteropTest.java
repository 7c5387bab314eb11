package dev.sluice.spark;

import static dev.sluice.spark.InteropRows.delete;
import static dev.sluice.spark.InteropRows.json;
import static dev.sluice.spark.InteropRows.options;
import static dev.sluice.spark.InteropRows.rows;
import static dev.sluice.spark.InteropRows.sluiceRead;
import static dev.sluice.spark.InteropRows.upsert;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.QueryType;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.interop.HudiSpark;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice-on-Spark at table version 8 beside Hudi 1.0.2 on Spark (the release that writes version 8; its
 * {@code hudi-spark3.5-bundle_2.12}, run by sluice-interop's {@link HudiSpark} in its own JVM): one partitioned
 * Merge-on-Read table written by Sluice-on-Spark (bulk insert, upsert, delete, a compaction by
 * {@link SluiceSpark#compact}, an update-only upsert into log files) is read by Hudi (snapshot with and without its
 * metadata-table listing, read-optimized) with Sluice's rows; Hudi upserts into it in the same Spark session and
 * reads it again; then Sluice-on-Spark upserts after Hudi, and Sluice reads what both wrote. One oracle start.
 */
class Hudi102SparkVersion8InteropTest {
  private static final String HUDI = "1.0.2";

  @TempDir
  Path dir;

  @Test
  void hudi102OnSparkReadsAndContinuesAVersion8TableSluiceOnSparkWroteAndSluiceContinuesHudis() {
    SparkSession spark = LocalSpark.builder("sluice-hudi102-spark-interop-test").getOrCreate();
    try {
      Path table = dir.resolve("trips");
      String path = table.toString();
      Map<String, String> options = new HashMap<>(options(TableType.MERGE_ON_READ));
      options.put("hoodie.write.table.version", "8");
      Map<String, String> model = new TreeMap<>();
      SluiceSpark.bulkInsert(df(spark, upsert(model, rows(0, 90, 1, "b"))), path, options);
      SluiceSpark.upsert(df(spark, upsert(model, rows(60, 50, 2, "u"))), path, options);
      SluiceSpark.delete(df(spark, delete(model, rows(10, 12, 3, "gone"))), path, options);
      Map<String, String> force = new HashMap<>(options);
      force.put("sluice.spark.compact.force", "true");
      assertTrue(SluiceSpark.compact(spark, path, force).compaction().isPresent(), "a compaction ran");
      SluiceSpark.upsert(df(spark, upsert(model, rows(30, 15, 4, "after"))), path, options);
      assertEquals(8, Tables.open(path).tableVersion());
      Map<String, String> snapshot = sluiceRead(table, QueryType.SNAPSHOT);
      Map<String, String> readOptimized = sluiceRead(table, QueryType.READ_OPTIMIZED);
      assertEquals(model, snapshot, "Sluice reads what Sluice-on-Spark wrote");
      assertNotEquals(snapshot, readOptimized, "the last upsert is in log files only");

      // one oracle JVM: Hudi 1.0.2 reads, upserts (updates of log-file rows and base-file rows, new keys), reads
      Map<String, String> hudiModel = new TreeMap<>(model);
      HudiSpark hudi = HudiSpark.locate(HUDI);
      List<List<Map<String, Object>>> out = hudi.batch(List.of(
          new HudiSpark.Read(table, "snapshot", Map.of("hoodie.metadata.enable", "false")).args(),
          new HudiSpark.Read(table, "snapshot", Map.of("hoodie.metadata.enable", "true")).args(),
          new HudiSpark.Read(table, "read_optimized", Map.of()).args(),
          hudi.writeCommand(table, "upsert", json(upsert(hudiModel, rows(35, 100, 5, "h"))), InteropRows.DDL,
              options, dir),
          new HudiSpark.Read(table, "snapshot", Map.of("hoodie.metadata.enable", "true")).args()), dir);
      assertEquals(snapshot, InteropRows.byKey(out.get(0)), "Hudi " + HUDI + " reads Sluice's snapshot");
      assertEquals(snapshot, InteropRows.byKey(out.get(1)), "the same through the metadata table");
      assertEquals(readOptimized, InteropRows.byKey(out.get(2)), "read-optimized: Hudi reads what Sluice reads");
      assertEquals(hudiModel, InteropRows.byKey(out.get(4)), "Hudi reads its own upsert into Sluice's table");
      assertEquals(8, Tables.open(path).tableVersion(), "Hudi " + HUDI + " keeps version 8");

      assertEquals(hudiModel, sluiceRead(table, QueryType.SNAPSHOT), "Sluice reads Hudi's upsert");
      List<Row> last = rows(0, 20, 6, "s");
      last.addAll(rows(130, 20, 6, "s"));
      SluiceSpark.upsert(df(spark, upsert(hudiModel, last)), path, options);
      Map<String, String> after = sluiceRead(table, QueryType.SNAPSHOT);
      assertEquals(hudiModel, after, "Sluice-on-Spark continues after Hudi " + HUDI);
      assertEquals(150 - 2, after.size(), "keys 20 and 21 stay deleted");
      assertEquals("p0/5/h:120", after.get("k000120"), "Hudi's new key, kept");
    } finally {
      spark.stop();
    }
  }

  private static Dataset<Row> df(SparkSession spark, List<Row> rows) {
    return spark.createDataFrame(rows, InteropRows.SCHEMA);
  }
}
