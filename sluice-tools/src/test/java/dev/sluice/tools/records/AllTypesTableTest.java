package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/** Every Avro type survives a write and a read through a table, on insert and on a merge that rewrites files. */
class AllTypesTableTest {
  @TempDir
  Path dir;

  static final Schema SCHEMA = withKey(AllTypes.PARQUET_SCHEMA);

  private static Schema withKey(Schema s) {
    List<Schema.Field> fields = new ArrayList<>();
    fields.add(new Schema.Field("id", Schema.create(Schema.Type.STRING), null, (Object) null));
    for (Schema.Field f : s.getFields()) {
      fields.add(new Schema.Field(f, f.schema()));
    }
    return Schema.createRecord(s.getName(), s.getDoc(), s.getNamespace(), false, fields);
  }

  private static List<GenericRecord> records(long seed, int n) {
    List<GenericRecord> out = new ArrayList<>();
    List<GenericRecord> src = AllTypes.records(seed, n);
    for (int i = 0; i < n; i++) {
      GenericData.Record r = new GenericData.Record(SCHEMA);
      r.put("id", "k" + i);
      for (Schema.Field f : AllTypes.PARQUET_SCHEMA.getFields()) {
        r.put(f.name(), src.get(i).get(f.name()));
      }
      // Parquet's two-level lists (what Hudi 0.15 writes) cannot hold null elements: such a record is refused
      @SuppressWarnings("unchecked")
      Map<Object, List<Integer>> mapOfArrays = (Map<Object, List<Integer>>) r.get("f_map_of_arrays");
      mapOfArrays.replaceAll((k, v) -> v.stream().map(x -> x == null ? -1 : x).toList());
      out.add(r);
    }
    return out;
  }

  private static Map<String, String> asJson(CloseableIterator<GenericRecord> rows) {
    Map<String, String> out = new TreeMap<>();
    try (rows) {
      rows.forEachRemaining(r -> out.put(r.get("id").toString(), JsonRecordWriter.toJson(r)));
    }
    return out;
  }

  private static Map<String, String> asJson(List<GenericRecord> rows) {
    Map<String, String> out = new TreeMap<>();
    rows.forEach(r -> out.put(r.get("id").toString(), JsonRecordWriter.toJson(r)));
    return out;
  }

  /** Compares row by row and names the first differing key and field (the full maps are too large to print). */
  private static void assertSameRows(Map<String, String> expected, Map<String, String> actual) {
    assertEquals(expected.keySet(), actual.keySet());
    for (String k : expected.keySet()) {
      if (!tree(expected.get(k)).equals(tree(actual.get(k)))) {
        String[] e = expected.get(k).split(",\"f_");
        String[] a = actual.get(k).split(",\"f_");
        for (int i = 0; i < Math.min(e.length, a.length); i++) {
          assertEquals(e[i], a[i], "row " + k + " differs");
        }
        assertEquals(expected.get(k), actual.get(k), "row " + k);
      }
    }
  }

  /** JSON objects compare regardless of key order: Avro maps have no order. */
  private static com.fasterxml.jackson.databind.JsonNode tree(String json) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void everyTypeRoundTripsOnInsertAndMerge(TableType type) {
    Table t = Tables.create(dir.toString(), TableSpec.builder("all_types").type(type).recordKey("id").precombine("f_long")
        .partitionBy("f_enum").schema(SCHEMA).build(), Config.of(Map.of("hoodie.index.bloom.num_entries", "1000")));
    List<GenericRecord> first = records(1, 120);
    t.insert(first.iterator());
    assertSameRows(asJson(first), asJson(t.newScan().open()));

    List<GenericRecord> second = records(2, 120);
    for (GenericRecord r : second) {
      r.put("f_long", Long.MAX_VALUE);
      r.put("f_enum", first.get(Integer.parseInt(r.get("id").toString().substring(1))).get("f_enum"));
    }
    t.upsert(second.iterator());
    assertSameRows(asJson(second), asJson(t.newScan().open()));
  }
}
