package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.interop.HudiSpark;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Struct, array, decimal and map columns between Sluice-on-Spark and Hudi on Spark (1.1.1 at version 9, 0.15.0 at
 * version 6; Merge-on-Read, partitioned; the decimal a fixed with the decimal logical type, as Hudi's Spark writer
 * makes it, the map with string keys): Hudi reads the nested values of a table Sluice-on-Spark wrote and upserts into it (its writer schema
 * from Spark's types, Sluice's table schema from the same Spark types: the nested record's name must agree), Sluice
 * reads Hudi's upsert; Sluice-on-Spark upserts into a table Hudi wrote, and Hudi reads the result.
 */
class Hudi1SparkNestedColumnsInteropTest {
  private static final StructType LOC = new StructType()
      .add("lat", DataTypes.DoubleType, true)
      .add("lon", DataTypes.DoubleType, true);
  private static final StructType SCHEMA = new StructType()
      .add("id", DataTypes.StringType, true)
      .add("part", DataTypes.StringType, true)
      .add("ts", DataTypes.LongType, true)
      .add("loc", LOC, true)
      .add("tags", DataTypes.createArrayType(DataTypes.StringType, true), true)
      .add("fare", DataTypes.createDecimalType(10, 2), true)
      .add("attrs", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType, true), true);
  private static final String DDL = "id STRING, part STRING, ts BIGINT, loc STRUCT<lat: DOUBLE, lon: DOUBLE>, "
      + "tags ARRAY<STRING>, fare DECIMAL(10,2), attrs MAP<STRING, BIGINT>";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private static Map<String, String> options(int version) {
    Map<String, String> o = new HashMap<>(InteropRows.options(TableType.MERGE_ON_READ));
    o.put("hoodie.write.table.version", String.valueOf(version));
    return o;
  }

  /**
   * {@code n} rows from key {@code from}: a struct of two doubles, an array of two tags, a decimal (negative on
   * every fifth key) and a map of two or three entries (one null value on every fourth key), by {@code ts}.
   */
  private static List<Row> rows(int from, int n, long ts) {
    List<Row> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      Map<String, Long> attrs = new LinkedHashMap<>();
      attrs.put("seats", (long) i % 4 + 1);
      attrs.put("ts", ts);
      if (i % 4 == 0) {
        attrs.put("none", null);
      }
      out.add(RowFactory.create(String.format("k%06d", i), "p" + (i % 3), ts,
          RowFactory.create(i + 0.5, ts + 0.25), List.of("t" + i, "w" + ts),
          new BigDecimal((i % 5 == 0 ? "-" : "") + (i * 3 + ts) + "." + (10 + i % 90)), attrs));
    }
    return out;
  }

  /**
   * The model's line of a row: part/ts/loc as JSON/tags as JSON, as Spark's {@code toJSON} writes them, then the
   * decimal at scale 2 and the map's entries in key order.
   */
  private static String line(Object part, Object ts, double lat, double lon, List<String> tags, BigDecimal fare,
      Map<String, ?> attrs) {
    StringBuilder t = new StringBuilder("[");
    for (int i = 0; i < tags.size(); i++) {
      t.append(i == 0 ? "" : ",").append('"').append(tags.get(i)).append('"');
    }
    return part + "/" + ts + "/{\"lat\":" + lat + ",\"lon\":" + lon + "}/" + t.append(']') + "/"
        + fare.setScale(2, RoundingMode.UNNECESSARY).toPlainString() + "/" + new TreeMap<>(attrs);
  }

  @SuppressWarnings("unchecked")
  private static List<Row> upsert(Map<String, String> model, List<Row> rows) {
    for (Row r : rows) {
      Row loc = r.getStruct(3);
      model.put(r.getString(0), line(r.getString(1), r.getLong(2), loc.getDouble(0), loc.getDouble(1),
          tags(r), (BigDecimal) r.get(5), (Map<String, ?>) r.get(6)));
    }
    return rows;
  }

  /** The tags of a row this test made (a Java list: Spark converts it when the Dataset is made). */
  @SuppressWarnings("unchecked")
  private static List<String> tags(Row r) {
    return (List<String>) r.get(4);
  }

  private static List<Map<String, Object>> json(List<Row> rows) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Row r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", r.getString(0));
      m.put("part", r.getString(1));
      m.put("ts", r.getLong(2));
      m.put("loc", Map.of("lat", r.getStruct(3).getDouble(0), "lon", r.getStruct(3).getDouble(1)));
      m.put("tags", tags(r));
      m.put("fare", r.get(5));
      m.put("attrs", r.get(6));
      out.add(m);
    }
    return out;
  }

  private static Map<String, String> sluiceRead(Path table) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = Tables.open(table.toString()).newScan().open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        GenericRecord loc = (GenericRecord) r.get("loc");
        List<String> tags = new ArrayList<>();
        ((List<?>) r.get("tags")).forEach(t -> tags.add(t.toString()));
        Object fare = r.get("fare");
        Map<String, Object> attrs = new TreeMap<>();
        ((Map<?, ?>) r.get("attrs")).forEach((k, v) -> attrs.put(k.toString(), v));
        out.put(r.get("id").toString(), line(r.get("part"), r.get("ts"), (Double) loc.get("lat"),
            (Double) loc.get("lon"), tags, fare instanceof BigDecimal d ? d
                : new BigDecimal(new BigInteger(((GenericFixed) fare).bytes()), 2), attrs));
      }
    }
    return out;
  }

  private static Map<String, String> byKey(List<Map<String, Object>> rows) {
    Map<String, String> out = new TreeMap<>();
    for (Map<String, Object> r : rows) {
      // Spark's toJSON writes the decimal as a number (read back as a double) and the map as an object
      try {
        Map<String, Object> attrs = JSON.readValue(r.get("attrs").toString(), new TypeReference<TreeMap<String, Object>>() {
        });
        out.put(r.get("id").toString(), r.get("part") + "/" + r.get("ts") + "/" + r.get("loc") + "/" + r.get("tags")
            + "/" + new BigDecimal(r.get("fare").toString()).setScale(2, RoundingMode.UNNECESSARY).toPlainString()
            + "/" + attrs);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return out;
  }

  // Hudi 0.15 at version 6 checks an upsert's schema against the table's by full names: it upserts into
  // Sluice-on-Spark's table because the nested record is named in its enclosing record's namespace, as Spark's Avro
  // converter names it (it failed with MISSING_UNION_BRANCH when RowRecords named it without one)
  @ParameterizedTest
  @CsvSource({"1.1.1, 9", "0.15.0, 6"})
  void nestedColumnsBothWays(String hudiVersion, int version) {
    SparkSession spark = LocalSpark.builder("sluice-hudi1-nested-test").getOrCreate();
    try {
      Path mine = dir.resolve("sluice");
      Map<String, String> options = options(version);
      Map<String, String> ours = new TreeMap<>();
      SluiceSpark.insert(spark.createDataFrame(upsert(ours, rows(0, 60, 1)), SCHEMA), mine.toString(), options);
      SluiceSpark.upsert(spark.createDataFrame(upsert(ours, rows(40, 40, 2)), SCHEMA), mine.toString(), options);
      assertEquals(ours, sluiceRead(mine));

      HudiSpark hudi = HudiSpark.locate(hudiVersion);
      Path theirs = dir.resolve("hudi");
      Map<String, String> hudiModel = new TreeMap<>();
      Map<String, String> afterHudi = new TreeMap<>(ours);
      List<List<Map<String, Object>>> out = hudi.batch(List.of(
          new HudiSpark.Read(mine, "snapshot", Map.of()).args(),
          hudi.writeCommand(mine, "upsert", json(upsert(afterHudi, rows(70, 20, 3))), DDL, options, dir),
          new HudiSpark.Read(mine, "snapshot", Map.of()).args(),
          hudi.writeCommand(theirs, "insert", json(upsert(hudiModel, rows(0, 50, 1))), DDL, options, dir)), dir);
      assertEquals(ours, byKey(out.get(0)), "Hudi " + hudiVersion + " reads Sluice-on-Spark's nested values");
      assertEquals(afterHudi, byKey(out.get(2)), "Hudi reads its upsert into Sluice-on-Spark's table");
      assertEquals(afterHudi, sluiceRead(mine), "Sluice reads Hudi's upsert");

      assertEquals(hudiModel, sluiceRead(theirs), "Sluice reads Hudi's nested values");
      SluiceSpark.upsert(spark.createDataFrame(upsert(hudiModel, rows(30, 40, 2)), SCHEMA), theirs.toString(), options);
      assertEquals(hudiModel, sluiceRead(theirs), "Sluice-on-Spark continues Hudi's table");
      assertEquals(hudiModel, byKey(hudi.read(List.of(new HudiSpark.Read(theirs, "snapshot", Map.of())), dir)
          .get(0)), "Hudi reads Sluice-on-Spark's upsert");
    } finally {
      spark.stop();
    }
  }
}
