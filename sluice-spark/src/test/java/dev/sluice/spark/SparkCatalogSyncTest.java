package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CatalogSync;
import dev.sluice.api.CommitResult;
import dev.sluice.api.Tables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spark commit ({@link SluiceSpark} and {@code format("sluice")}) runs the installed {@link CatalogSync}s on the
 * driver after it commits, when {@code hoodie.datasource.meta.sync.enable=true}, with the committed instant as the
 * table's last commit; a sync that fails leaves the commit committed. The sync is {@link RecordingCatalogSync}, found
 * through ServiceLoader from this module's test resources (the Hive sync's real-metastore tests are in
 * sluice-hive-sync; its Thrift and metastore classes are kept off Spark's class path here).
 */
class SparkCatalogSyncTest {
  private static final StructType ROWS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("part", DataTypes.StringType, false)
      .add("ts", DataTypes.LongType, false);
  private static SparkSession spark;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.builder("sluice-spark-sync-test").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @BeforeEach
  void clear() {
    RecordingCatalogSync.SYNCED.clear();
  }

  private static List<Row> rows(int from, int n) {
    List<Row> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      out.add(RowFactory.create("k" + i, "p" + (i % 2), (long) i));
    }
    return out;
  }

  private static Map<String, String> options(String database, boolean sync) {
    Map<String, String> o = new HashMap<>(Map.of(
        "hoodie.table.name", "trips",
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.partitionpath.field", "part",
        "hoodie.datasource.hive_sync.database", database));
    if (sync) {
      o.put("hoodie.datasource.meta.sync.enable", "true");
    }
    return o;
  }

  @Test
  void aSparkCommitRunsTheCatalogSyncOnTheDriverWithItsInstant() {
    assertEquals(List.of("recording"), CatalogSync.installed().stream().map(CatalogSync::name).toList());
    String path = dir.resolve("t").toString();
    CommitResult first = SluiceSpark.insert(spark.createDataFrame(rows(0, 20), ROWS), path, options("db1", true));
    assertEquals(List.of(path + " " + first.instantTime() + " db1"), RecordingCatalogSync.SYNCED);

    // format("sluice") goes through the same publish
    spark.createDataFrame(rows(10, 20), ROWS).write().format("sluice").options(options("db1", true))
        .mode(SaveMode.Append).save(path);
    String second = Tables.open(path).inspect().lastCompletedCommit().orElseThrow();
    assertTrue(second.compareTo(first.instantTime()) > 0, second);
    assertEquals(List.of(path + " " + first.instantTime() + " db1", path + " " + second + " db1"),
        RecordingCatalogSync.SYNCED);

    // off unless asked for
    SluiceSpark.upsert(spark.createDataFrame(rows(0, 5), ROWS), path, options("db1", false));
    assertEquals(2, RecordingCatalogSync.SYNCED.size());
  }

  @Test
  void aFailedSyncNeverFailsTheSparkCommit() {
    String path = dir.resolve("t").toString();
    CommitResult done = SluiceSpark.insert(spark.createDataFrame(rows(0, 10), ROWS), path, options("refuse", true));
    assertEquals(List.of(), RecordingCatalogSync.SYNCED);
    assertTrue(Tables.open(path).inspect().find(done.instantTime()).orElseThrow().isCompleted());
    assertEquals(10, done.inserted());

    // the next commit's sync sees every commit so far
    CommitResult next = SluiceSpark.insert(spark.createDataFrame(rows(10, 10), ROWS), path, options("db2", true));
    assertEquals(List.of(path + " " + next.instantTime() + " db2"), RecordingCatalogSync.SYNCED);
  }
}
