package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.CommitResult;
import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sluice on Spark ({@code local[2]}) against the engine alone on the same input: each step (an insert, an upsert
 * with new keys, updates and duplicate keys that lose, a delete with unknown keys) is written by
 * {@link SluiceSpark} to one table and by {@link Table#write} to another; both end with the same rows and the same
 * number of base and log files (the same plan), on Copy-on-Write and Merge-on-Read, partitioned and not.
 */
class SluiceSparkTest {
  private static final StructType ROWS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("part", DataTypes.StringType, false)
      .add("ts", DataTypes.LongType, false)
      .add("payload", DataTypes.StringType, false);
  private static SparkSession spark;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    spark = SparkSession.builder().master("local[2]").appName("sluice-spark-test")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @ParameterizedTest
  @CsvSource({"COPY_ON_WRITE, part", "MERGE_ON_READ, part", "COPY_ON_WRITE, ''", "MERGE_ON_READ, ''"})
  void writesWhatTheEngineWrites(TableType type, String partitionField) {
    Map<String, String> options = new HashMap<>(Map.of(
        "hoodie.table.name", "trips",
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.partitionpath.field", partitionField,
        "hoodie.datasource.write.table.type", type.name(),
        "hoodie.parquet.max.file.size", String.valueOf(40 << 10),
        "hoodie.parquet.small.file.limit", String.valueOf(30 << 10)));
    String sparkPath = dir.resolve("spark").toString();
    List<Row> first = rows(0, 900, 1, "a");
    CommitResult created = SluiceSpark.insert(spark.createDataFrame(first, ROWS), sparkPath, options);
    Schema schema = SluiceSpark.tableSchema(spark.createDataFrame(first, ROWS), "trips");
    Table engine = Tables.create(dir.resolve("engine").toString(), spec(type, partitionField, schema),
        Config.of(Map.of("hoodie.parquet.max.file.size", String.valueOf(40 << 10),
            "hoodie.parquet.small.file.limit", String.valueOf(30 << 10))));
    engine.insert(records(first, schema).iterator());
    assertEquals(900, created.inserted());

    List<Row> upsert = rows(600, 600, 2, "b");
    upsert.addAll(rows(600, 100, 1, "dup"));
    SluiceSpark.upsert(spark.createDataFrame(upsert, ROWS), sparkPath, options);
    engine.upsert(records(upsert, schema).iterator());

    List<Row> gone = rows(100, 200, 9, "x");
    gone.addAll(rows(50_000, 5, 9, "unknown"));
    CommitResult deleted = SluiceSpark.delete(spark.createDataFrame(gone, ROWS), sparkPath, options);
    engine.delete(records(gone, schema).iterator());
    assertEquals(200, deleted.deleted());

    Table written = Tables.open(sparkPath);
    Map<String, String> expected = contents(engine);
    assertEquals(1_200 - 200, expected.size());
    assertEquals(expected, contents(written));
    assertEquals(files(dir.resolve("engine"), ".parquet"), files(dir.resolve("spark"), ".parquet"),
        "the same number of base files");
    assertEquals(files(dir.resolve("engine"), ".log."), files(dir.resolve("spark"), ".log."),
        "the same number of log files");
    // one commit per write on each side: the Spark write commits once, on the driver
    assertEquals(engine.inspect().timeline().size(), written.inspect().timeline().size());
  }

  @Test
  void aMissingRecordKeyIsRefusedBeforeAnyFile() {
    Path p = dir.resolve("none");
    SluiceException e = assertThrows(SluiceException.class, () -> SluiceSpark.upsert(
        spark.createDataFrame(rows(0, 3, 1, "a"), ROWS), p.toString(), Map.of("hoodie.table.name", "t")));
    assertTrue(e.getMessage().contains("hoodie.datasource.write.recordkey.field"), e.getMessage());
    assertTrue(!Files.exists(p.resolve(".hoodie")));
  }

  private static TableSpec spec(TableType type, String partitionField, Schema schema) {
    TableSpec.Builder b = TableSpec.builder("trips").type(type).recordKey("id").precombine("ts").schema(schema);
    if (!partitionField.isEmpty()) {
      b.partitionBy(partitionField);
    }
    return b.build();
  }

  private static List<Row> rows(int from, int n, long ts, String tag) {
    List<Row> out = new ArrayList<>(n);
    for (int i = from; i < from + n; i++) {
      out.add(RowFactory.create(String.format("k%06d", i), "p" + (i % 3), ts, tag + ":" + i + ":" + "x".repeat(40)));
    }
    return out;
  }

  private static List<GenericRecord> records(List<Row> rows, Schema schema) {
    List<GenericRecord> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      GenericRecord g = new GenericData.Record(schema);
      g.put("id", r.getString(0));
      g.put("part", r.getString(1));
      g.put("ts", r.getLong(2));
      g.put("payload", r.getString(3));
      out.add(g);
    }
    return out;
  }

  private static Map<String, String> contents(Table t) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        assertEquals(null, out.put(r.get("id").toString(), r.get("part") + "/" + r.get("ts") + "/" + r.get("payload")),
            "key returned twice: " + r.get("id"));
      }
    }
    return out;
  }

  private static long files(Path table, String marker) {
    try (Stream<Path> walk = Files.walk(table)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> !table.relativize(p).toString().startsWith(".hoodie"))
          .filter(p -> p.getFileName().toString().contains(marker)).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
