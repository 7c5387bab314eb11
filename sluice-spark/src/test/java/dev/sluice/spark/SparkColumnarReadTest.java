package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Base files alone (read-optimized, or a snapshot of slices without log files) are read by Spark's vectorized
 * Parquet reader ({@link ColumnarBase}); slices with log files on a snapshot, and columns some base file lacks,
 * keep the engine's row path. Either way the rows are the table's.
 */
class SparkColumnarReadTest {
  private static final StructType ROWS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("part", DataTypes.StringType, false)
      .add("ts", DataTypes.LongType, false)
      .add("tags", DataTypes.createArrayType(DataTypes.StringType, false), true);
  private static SparkSession spark;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.builder("sluice-columnar-read-test").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static Map<String, String> options(String type) {
    return Map.of("hoodie.table.name", "columnar", "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts", "hoodie.datasource.write.partitionpath.field", "part",
        "hoodie.datasource.write.table.type", type);
  }

  private static Dataset<Row> rows(Row... rows) {
    return spark.createDataFrame(List.of(rows), ROWS);
  }

  private static Dataset<Row> read(String path, String queryType) {
    return spark.read().format("sluice").option("hoodie.datasource.query.type", queryType).load(path);
  }

  private static boolean columnar(Dataset<Row> df) {
    return df.queryExecution().executedPlan().toString().contains("ColumnarToRow");
  }

  /** id → "ts tags" of every row. */
  private static Map<String, String> byId(Dataset<Row> df) {
    Map<String, String> out = new TreeMap<>();
    for (Row r : df.select("id", "ts", "tags").collectAsList()) {
      out.put(r.getString(0), r.getLong(1) + " " + (r.isNullAt(2) ? "null" : r.getList(2)));
    }
    return out;
  }

  @Test
  void copyOnWriteReadsItsBaseFilesInColumnBatches() {
    String p = dir.resolve("cow").toString();
    SluiceSpark.insert(rows(RowFactory.create("a", "p1", 1L, List.of("x")), RowFactory.create("b", "p2", 1L, null),
        RowFactory.create("c", "p1", 1L, List.of("y", "z"))), p, options("COPY_ON_WRITE"));
    SluiceSpark.upsert(rows(RowFactory.create("a", "p1", 2L, List.of("w"))), p, options("COPY_ON_WRITE"));

    Map<String, String> expected = Map.of("a", "2 [w]", "b", "1 null", "c", "1 [y, z]");
    for (String type : List.of("snapshot", "read_optimized")) {
      Dataset<Row> df = read(p, type);
      assertTrue(columnar(df), type + ": " + df.queryExecution().executedPlan());
      assertEquals(expected, byId(df), type);
      assertEquals(3L, df.count(), type);
      // the meta columns are read from the files as well
      assertEquals(List.of("a", "b", "c"), df.select("_hoodie_record_key").orderBy("_hoodie_record_key")
          .collectAsList().stream().map(r -> r.getString(0)).toList(), type);
    }
  }

  @Test
  void mergeOnReadSnapshotsWithLogFilesKeepTheEnginesPath() {
    String p = dir.resolve("mor").toString();
    SluiceSpark.insert(rows(RowFactory.create("a", "p1", 1L, List.of("x")), RowFactory.create("b", "p2", 1L, null)),
        p, options("MERGE_ON_READ"));
    SluiceSpark.upsert(rows(RowFactory.create("a", "p1", 2L, List.of("w"))), p, options("MERGE_ON_READ"));

    Dataset<Row> snapshot = read(p, "snapshot");
    assertFalse(columnar(snapshot), snapshot.queryExecution().executedPlan().toString());
    assertEquals(Map.of("a", "2 [w]", "b", "1 null"), byId(snapshot));
    Dataset<Row> ro = read(p, "read_optimized");
    assertTrue(columnar(ro), ro.queryExecution().executedPlan().toString());
    // the update is only in a log file: the read-optimized view has the base file's row
    assertEquals(Map.of("a", "1 [x]", "b", "1 null"), byId(ro));
  }

  @Test
  void aColumnSomeBaseFileLacksIsReadByTheEngine() {
    String p = dir.resolve("evolved").toString();
    SluiceSpark.insert(rows(RowFactory.create("a", "p1", 1L, null), RowFactory.create("b", "p2", 1L, null)), p,
        options("COPY_ON_WRITE"));
    StructType withTip = ROWS.add("tip", DataTypes.DoubleType, true);
    SluiceSpark.upsert(spark.createDataFrame(List.of(RowFactory.create("a", "p1", 2L, null, 1.5)), withTip), p,
        options("COPY_ON_WRITE"));

    // p2's base file has no tip: the engine reads it (as null), not Spark's reader
    Dataset<Row> all = read(p, "read_optimized");
    assertFalse(columnar(all), all.queryExecution().executedPlan().toString());
    Map<String, String> tips = new TreeMap<>();
    for (Row r : all.select("id", "tip").collectAsList()) {
      tips.put(r.getString(0), r.isNullAt(1) ? "null" : Double.toString(r.getDouble(1)));
    }
    assertEquals(Map.of("a", "1.5", "b", "null"), tips);
    // columns every base file holds are read in batches
    Dataset<Row> some = read(p, "read_optimized").select("id", "ts");
    assertTrue(columnar(some), some.queryExecution().executedPlan().toString());
    assertEquals(2L, some.count());
  }
}
