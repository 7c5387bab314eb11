package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Dataset with columns the table lacks evolves the table's schema, as Hudi's Spark writer does: the column is
 * added (it must be nullable: {@code lit(...)} makes a non-nullable one), the table's older rows read it as null,
 * and a later Dataset without it writes on. Hudi's meta columns of a Dataset read from the table are not data. A
 * schema the table cannot take is refused before any file.
 */
class SparkSchemaEvolutionTest {
  private static final StructType ROWS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("part", DataTypes.StringType, false)
      .add("ts", DataTypes.LongType, false);
  private static final Map<String, String> OPTIONS = Map.of("hoodie.table.name", "evolving",
      "hoodie.datasource.write.recordkey.field", "id", "hoodie.datasource.write.precombine.field", "ts",
      "hoodie.datasource.write.partitionpath.field", "part", "hoodie.datasource.write.table.type", "MERGE_ON_READ");
  private static SparkSession spark;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.builder("sluice-schema-evolution-test").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @Test
  void aNewColumnIsAddedAndOlderRowsReadItAsNull() {
    String p = dir.resolve("t").toString();
    SluiceSpark.insert(spark.createDataFrame(List.of(RowFactory.create("a", "p1", 1L), RowFactory.create("b", "p2", 1L),
        RowFactory.create("c", "p1", 1L)), ROWS), p, OPTIONS);

    StructType withTip = ROWS.add("tip", DataTypes.DoubleType, true);
    SluiceSpark.upsert(spark.createDataFrame(List.of(RowFactory.create("a", "p1", 2L, 1.5),
        RowFactory.create("d", "p2", 2L, 2.5)), withTip), p, OPTIONS);
    Table t = Tables.open(p);
    Schema.Field tip = t.schema().getField("tip");
    assertNotNull(tip, "the table took the new column: " + t.schema());
    assertTrue(tip.schema().isNullable(), tip.toString());
    assertEquals(Map.of("a", "2 1.5", "b", "1 null", "c", "1 null", "d", "2 2.5"), rows(t));

    // a Dataset of the old shape writes on: its rows' tip is null
    SluiceSpark.upsert(spark.createDataFrame(List.of(RowFactory.create("b", "p2", 3L)), ROWS), p, OPTIONS);
    assertEquals(Map.of("a", "2 1.5", "b", "3 null", "c", "1 null", "d", "2 2.5"), rows(Tables.open(p)));
    // Spark's reader sees the column too
    List<Row> read = spark.read().format("sluice").load(p).select("id", "tip").orderBy("id").collectAsList();
    assertEquals("[[a,1.5], [b,null], [c,null], [d,2.5]]", read.toString());
  }

  @Test
  void theMetaColumnsOfADatasetReadFromTheTableAreNotAdded() {
    String p = dir.resolve("t").toString();
    SluiceSpark.insert(spark.createDataFrame(List.of(RowFactory.create("a", "p1", 1L), RowFactory.create("b", "p2", 1L)),
        ROWS), p, OPTIONS);
    Dataset<Row> again = spark.read().format("sluice").load(p);
    assertTrue(List.of(again.columns()).contains("_hoodie_commit_time"), List.of(again.columns()).toString());
    again.withColumn("ts", functions.lit(5L)).withColumn("note", functions.when(functions.col("id").isNotNull(), "n"))
        .write().format("sluice").options(OPTIONS).option("hoodie.datasource.write.operation", "upsert").mode(SaveMode.Append).save(p);
    Schema schema = Tables.open(p).schema();
    assertNotNull(schema.getField("note"), schema.toString());
    assertFalse(schema.getFields().stream().anyMatch(f -> f.name().startsWith("_hoodie_")), schema.toString());
    Map<String, String> notes = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = Tables.open(p).newScan().open()) {
      it.forEachRemaining(r -> notes.put(r.get("id").toString(), r.get("ts") + " " + r.get("note")));
    }
    assertEquals(Map.of("a", "5 n", "b", "5 n"), notes);
  }

  @Test
  void aRequiredNewColumnIsRefusedBeforeAnyFile() {
    String p = dir.resolve("t").toString();
    SluiceSpark.insert(spark.createDataFrame(List.of(RowFactory.create("a", "p1", 1L)), ROWS), p, OPTIONS);
    int instants = Tables.open(p).inspect().timeline().size();
    StructType required = ROWS.add("level", DataTypes.IntegerType, false);
    SluiceException e = assertThrows(SluiceException.class, () -> SluiceSpark.upsert(spark.createDataFrame(
        List.of(RowFactory.create("a", "p1", 2L, 7)), required), p, OPTIONS));
    assertTrue(e.getMessage().contains("'level'"), e.getMessage());
    Table t = Tables.open(p);
    assertEquals(instants, t.inspect().timeline().size(), "no instant was requested");
    assertNull(t.schema().getField("level"));
    try (CloseableIterator<GenericRecord> it = t.newScan().open()) {
      assertEquals(1L, it.next().get("ts"), "the row as it was");
      assertFalse(it.hasNext());
    }
  }

  /** id → "ts tip" of every row, through the engine's scan. */
  private static Map<String, String> rows(Table t) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().open()) {
      it.forEachRemaining(r -> out.put(r.get("id").toString(), r.get("ts") + " " + r.get("tip")));
    }
    return out;
  }
}
