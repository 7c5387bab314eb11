package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * A session with Kryo as its serializer (what Hudi's guides set, without a registrator for Sluice's classes) runs
 * every write path and a compaction: records cross the shuffles as byte arrays and task results as Java-serialized
 * bytes, so no Java record meets Kryo (it cannot make them).
 */
class SparkKryoTest {
  private static final StructType ROWS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("part", DataTypes.StringType, false)
      .add("ts", DataTypes.LongType, false);
  private static SparkSession spark;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.builder("sluice-kryo-test")
        .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static Map<String, String> options(String type) {
    return Map.of("hoodie.table.name", "kryo", "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts", "hoodie.datasource.write.partitionpath.field", "part",
        "hoodie.datasource.write.table.type", type);
  }

  private static Dataset<Row> rows(Row... rows) {
    return spark.createDataFrame(List.of(rows), ROWS);
  }

  private static Map<String, Long> read(String path) {
    Map<String, Long> out = new TreeMap<>();
    for (Row r : spark.read().format("sluice").load(path).select("id", "ts").collectAsList()) {
      out.put(r.getString(0), r.getLong(1));
    }
    return out;
  }

  @Test
  void everyWritePathAndACompactionRunUnderKryo() {
    String mor = dir.resolve("mor").toString();
    SluiceSpark.insert(rows(RowFactory.create("a", "p1", 1L), RowFactory.create("b", "p2", 1L),
        RowFactory.create("c", "p1", 1L)), mor, options("MERGE_ON_READ"));
    // duplicates combined across partitions, keys tagged against the base files, updates and an insert routed
    SluiceSpark.upsert(rows(RowFactory.create("a", "p1", 3L), RowFactory.create("a", "p1", 2L),
        RowFactory.create("d", "p2", 2L)), mor, options("MERGE_ON_READ"));
    SluiceSpark.delete(rows(RowFactory.create("b", "p2", 9L)), mor, options("MERGE_ON_READ"));
    assertEquals(Map.of("a", 3L, "c", 1L, "d", 2L), read(mor));

    SparkCompactionResult compacted = SluiceSpark.compact(spark, mor, Map.of("sluice.spark.compact.force", "true"));
    assertTrue(compacted.compaction().isPresent(), compacted.explanation());
    assertEquals(Map.of("a", 3L, "c", 1L, "d", 2L), read(mor));

    String bulk = dir.resolve("bulk").toString();
    SluiceSpark.bulkInsert(rows(RowFactory.create("x", "p1", 1L), RowFactory.create("y", "p2", 1L)), bulk,
        options("COPY_ON_WRITE"));
    assertEquals(Map.of("x", 1L, "y", 1L), read(bulk));
  }
}
