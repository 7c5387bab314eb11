package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.SluiceException;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
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
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Decimal and map columns through Sluice-on-Spark on {@code local[2]}: a Dataset written (insert, then an upsert
 * that on Merge-on-Read goes to log files) reads back through {@code format("sluice")} as the rows the writes
 * leave, values and Spark types alike; the table's schema has the decimal as Hudi's Spark writer makes it (a fixed
 * of the precision's size with the decimal logical type, named after its column) and the map with string keys; the
 * engine's own scan reads the same values; a filter on the decimal column is exact; a map with non-string keys and
 * a value that does not fit the column's decimal type are refused by name.
 */
class SparkColumnTypesTest {
  static final StructType SCHEMA = new StructType()
      .add("id", DataTypes.StringType, true)
      .add("part", DataTypes.StringType, true)
      .add("ts", DataTypes.LongType, true)
      .add("fare", DataTypes.createDecimalType(10, 2), true)
      .add("attrs", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType, true), true);
  private static SparkSession spark;
  @TempDir
  static Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.builder("sluice-column-types-test").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  /**
   * {@code n} rows from key {@code from}: a fare with cents that grow with the key (negative for every fifth key),
   * a map of two to three entries (one null value on every fourth key), a null fare and a null map on every seventh.
   */
  static List<Row> rows(int from, int n, long ts) {
    List<Row> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      BigDecimal fare = i % 7 == 0 ? null : new BigDecimal((i % 5 == 0 ? "-" : "") + (i * 3 + ts) + "." + (10 + i % 90));
      Map<String, Long> attrs = null;
      if (i % 7 != 0) {
        attrs = new LinkedHashMap<>();
        attrs.put("seats", (long) i % 4 + 1);
        attrs.put("ts", ts);
        if (i % 4 == 0) {
          attrs.put("none", null);
        }
      }
      out.add(RowFactory.create(String.format("k%06d", i), "p" + (i % 3), ts, fare, attrs));
    }
    return out;
  }

  /** A row's line: part/ts/fare (plain, at its scale)/the map's entries in key order. */
  static String line(Object part, Object ts, BigDecimal fare, Map<String, ?> attrs) {
    return part + "/" + ts + "/" + (fare == null ? "null" : fare.toPlainString()) + "/"
        + (attrs == null ? "null" : new TreeMap<>(attrs));
  }

  /** Records {@code rows} as upserts into {@code model}; returns them. */
  @SuppressWarnings("unchecked")
  static List<Row> upsert(Map<String, String> model, List<Row> rows) {
    rows.forEach(r -> model.put(r.getString(0), line(r.get(1), r.get(2), (BigDecimal) r.get(3),
        (Map<String, ?>) r.get(4))));
    return rows;
  }

  private static Map<String, String> sparkRead(String path) {
    Map<String, String> out = new TreeMap<>();
    for (Row r : spark.read().format("sluice").load(path).select("id", "part", "ts", "fare", "attrs")
        .collectAsList()) {
      Map<String, Object> attrs = r.isNullAt(4) ? null : new HashMap<>(r.getJavaMap(4));
      out.put(r.getString(0), line(r.get(1), r.get(2), r.getDecimal(3), attrs));
    }
    return out;
  }

  static Map<String, String> engineRead(String path) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = Tables.open(path).newScan().open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        Object fare = r.get("fare");
        BigDecimal d = fare == null ? null : fare instanceof BigDecimal b ? b
            : new BigDecimal(new java.math.BigInteger(((GenericFixed) fare).bytes()), 2);
        Map<String, Object> attrs = null;
        if (r.get("attrs") != null) {
          attrs = new HashMap<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) r.get("attrs")).entrySet()) {
            attrs.put(e.getKey().toString(), e.getValue());
          }
        }
        out.put(r.get("id").toString(), line(r.get("part"), r.get("ts"), d, attrs));
      }
    }
    return out;
  }

  static Map<String, String> options(TableType type) {
    Map<String, String> o = new HashMap<>(InteropRows.options(type));
    o.put("hoodie.parquet.small.file.limit", "0");
    return o;
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void decimalAndMapColumnsReadBackAsWritten(TableType type) {
    String path = dir.resolve("types-" + type.name()).toString();
    Map<String, String> model = new TreeMap<>();
    SluiceSpark.insert(spark.createDataFrame(upsert(model, rows(0, 80, 1)), SCHEMA), path, options(type));
    SluiceSpark.upsert(spark.createDataFrame(upsert(model, rows(50, 20, 2)), SCHEMA), path, options(type));
    if (type == TableType.MERGE_ON_READ) {
      assertTrue(Tables.open(path).newScan().slices().stream().anyMatch(s -> !s.logFiles().isEmpty()),
          "the upsert is in log files");
    }
    assertEquals(model, engineRead(path), "the engine reads the values written");
    assertEquals(model, sparkRead(path), "Dataset -> table -> Dataset");
    assertEquals("p1/2/158.62/{none=null, seats=1, ts=2}", model.get("k000052"));
    assertEquals("p1/2/-167.65/{seats=4, ts=2}", model.get("k000055"));

    StructType read = spark.read().format("sluice").load(path).schema();
    assertEquals(DataTypes.createDecimalType(10, 2), read.apply("fare").dataType());
    assertEquals(DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType, true), read.apply("attrs").dataType());

    Schema fare = Tables.open(path).schema().getField("fare").schema().getTypes().get(1);
    assertEquals(Schema.Type.FIXED, fare.getType());
    assertEquals("hoodie.trips.trips_record.fare.fixed", fare.getFullName(), "named as Spark's Avro converter names it");
    assertEquals(5, fare.getFixedSize(), "the fewest bytes for 10 digits");
    assertEquals(LogicalTypes.decimal(10, 2), fare.getLogicalType());
    Schema attrs = Tables.open(path).schema().getField("attrs").schema().getTypes().get(1);
    assertEquals(Schema.Type.MAP, attrs.getType());

    long over = model.values().stream().filter(l -> !l.split("/")[2].equals("null"))
        .filter(l -> new BigDecimal(l.split("/")[2]).compareTo(new BigDecimal("100.50")) > 0).count();
    assertTrue(over > 10 && over < model.size(), "the filter selects some: " + over);
    assertEquals(over, spark.read().format("sluice").load(path).where("fare > 100.50").count());
  }

  @Test
  void mapsWithOtherKeysAndDecimalsThatDoNotFitAreRefusedByName() {
    StructType intKeys = new StructType().add("id", DataTypes.StringType, true)
        .add("m", DataTypes.createMapType(DataTypes.IntegerType, DataTypes.StringType), true);
    SluiceException e = assertThrows(SluiceException.class, () -> SluiceSpark.insert(spark.createDataFrame(
        List.of(RowFactory.create("a", Map.of(1, "x"))), intKeys), dir.resolve("bad-map").toString(),
        Map.of("hoodie.table.name", "t", "hoodie.datasource.write.recordkey.field", "id")));
    assertTrue(e.getMessage().contains("'m'") && e.getMessage().contains("map<int,string>"), e.getMessage());

    String path = dir.resolve("narrow").toString();
    SluiceSpark.insert(spark.createDataFrame(rows(1, 3, 1), SCHEMA), path, options(TableType.COPY_ON_WRITE));
    StructType wider = new StructType().add("id", DataTypes.StringType, true).add("part", DataTypes.StringType, true)
        .add("ts", DataTypes.LongType, true).add("fare", DataTypes.createDecimalType(12, 3), true);
    Exception refused = assertThrows(Exception.class, () -> SluiceSpark.upsert(spark.createDataFrame(List.of(
        RowFactory.create("k000001", "p1", 2L, new BigDecimal("1.125"))), wider), path,
        options(TableType.COPY_ON_WRITE)));
    Throwable root = refused;
    while (!(root instanceof SluiceException) && root.getCause() != null) {
      root = root.getCause();
    }
    assertTrue(root.getMessage().contains("'fare'") && root.getMessage().contains("decimal(10,2)"),
        String.valueOf(root.getMessage()));
    assertEquals(3, engineRead(path).size(), "the table is as it was");
    assertEquals("p1/1/4.11/{seats=2, ts=1}", engineRead(path).get("k000001"));
  }
}
