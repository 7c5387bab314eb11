package dev.sluice.internal.schema;

import dev.sluice.internal.service.TableInternals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.TableType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SchemaEvolutionTest {
  static final Schema V1 = SchemaBuilder.record("row").namespace("evo").fields()
      .requiredString("id").requiredLong("ts").requiredString("part").requiredInt("count").requiredFloat("score")
      .endRecord();
  /** V1 plus a nullable field, with count widened to long and score to double. */
  static final Schema V2 = SchemaBuilder.record("row").namespace("evo").fields()
      .requiredString("id").requiredLong("ts").requiredString("part").requiredLong("count").requiredDouble("score")
      .optionalString("note").endRecord();

  @TempDir
  Path dir;

  static TableSpec spec(TableType type) {
    return TableSpec.builder("evo").type(type).recordKey("id").precombine("ts").partitionBy("part").schema(V1).build();
  }

  static GenericRecord v1(String id, long ts, int count, float score) {
    GenericData.Record r = new GenericData.Record(V1);
    r.put("id", id);
    r.put("ts", ts);
    r.put("part", "p" + (id.hashCode() & 1));
    r.put("count", count);
    r.put("score", score);
    return r;
  }

  static GenericRecord v2(String id, long ts, long count, double score, String note) {
    GenericData.Record r = new GenericData.Record(V2);
    r.put("id", id);
    r.put("ts", ts);
    r.put("part", "p" + (id.hashCode() & 1));
    r.put("count", count);
    r.put("score", score);
    r.put("note", note);
    return r;
  }

  private Table create(TableType type) {
    Table t = Tables.create(dir.toString(), spec(type), Config.of(Map.of("hoodie.index.bloom.num_entries", "1000",
        "hoodie.parquet.small.file.limit", "0")));
    List<GenericRecord> rows = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      rows.add(v1("k" + i, 1, i, i + 0.5f));
    }
    t.insert(rows.iterator());
    return t;
  }

  /** V1 plus a nullable field only. */
  static final Schema V1_NOTE = SchemaBuilder.record("row").namespace("evo").fields()
      .requiredString("id").requiredLong("ts").requiredString("part").requiredInt("count").requiredFloat("score")
      .optionalString("note").endRecord();

  @ParameterizedTest
  @EnumSource(TableType.class)
  void aNewNullableFieldIsTakenAndOldRowsReadItAsNull(TableType type) {
    Table t = create(type);
    GenericData.Record r = new GenericData.Record(V1_NOTE);
    r.put("id", "k1");
    r.put("ts", 2L);
    r.put("part", "p" + ("k1".hashCode() & 1));
    r.put("count", 5);
    r.put("score", 1.5f);
    r.put("note", "added");
    t.upsert(List.<GenericRecord>of(r).iterator());
    assertEquals(V1_NOTE, t.schema());
    Map<String, GenericRecord> rows = TripFixture.rows(t);
    assertEquals("added", rows.get("k1").get("note").toString());
    assertNull(rows.get("k2").get("note"));
    assertTrue(GenericData.get().validate(V1_NOTE, rows.get("k2")));
  }

  @org.junit.jupiter.api.Test
  void wideningOnMergeOnReadIsRefusedWhileLogsSitOnBaseFilesOfTheOldType() {
    Table t = create(TableType.MERGE_ON_READ);
    SluiceException e = assertThrows(SluiceException.class,
        () -> t.upsert(List.of(v2("k1", 2, 10_000_000_000L, 2.25, "evolved")).iterator()));
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    assertTrue(e.getMessage().contains("widens a column type") && e.getMessage().contains("compacted"), e.getMessage());
    assertEquals(V1, t.schema());
  }

  @org.junit.jupiter.api.Test
  void widenedTypesRewriteEveryOldBaseFileSoNoFileKeepsTheOldType() {
    Table t = create(TableType.COPY_ON_WRITE);
    TableType type = TableType.COPY_ON_WRITE;
    t.upsert(List.of(v2("k1", 2, 10_000_000_000L, 2.25, "evolved"), v2("new", 2, 7, 1.5, null)).iterator());
    assertEquals(V2, t.schema(), "the table schema is the evolved one");
    Map<String, GenericRecord> rows = TripFixture.rows(t);
    assertEquals(21, rows.size());
    GenericRecord updated = rows.get("k1");
    assertEquals(10_000_000_000L, updated.get("count"));
    assertEquals("evolved", updated.get("note").toString());
    GenericRecord old = rows.get("k2");
    assertEquals(2L, old.get("count"), "an int written before is read as a long");
    assertEquals(2.5d, old.get("score"), "a float written before is read as a double");
    assertNull(old.get("note"));
    assertTrue(GenericData.get().validate(V2, old), "every row is a valid V2 record: " + old);
    for (var p : List.of("p0", "p1")) {
      for (var f : TableInternals.fileSystemView(t).latestBaseFiles(p)) {
        try (var reader = dev.sluice.internal.basefile.BaseFileReader.open(t.storage(), f.path())) {
          assertEquals(Schema.Type.LONG, reader.footer().schema().getField("count").schema().getType(), f.path());
        }
      }
    }
    // writing V1 records again would narrow count back to an int
    SluiceException e = assertThrows(SluiceException.class, () -> t.upsert(List.of(v1("k3", 3, 1, 1f)).iterator()));
    assertTrue(e.getMessage().contains("'count' changed from \"long\" to \"int\""), e.getMessage());
  }

  @ParameterizedTest
  @EnumSource(Change.class)
  void incompatibleChangesAreRefusedAndTheTableStaysAsItWas(Change change) throws java.io.IOException {
    Table t = create(TableType.COPY_ON_WRITE);
    List<String> files = listing();
    String timeline = TableInternals.timeline(t).toString();
    Schema bad = change.schema();
    GenericData.Record r = new GenericData.Record(bad);
    for (Schema.Field f : bad.getFields()) {
      r.put(f.pos(), switch (f.schema().getType()) {
        case STRING -> "k1";
        case LONG -> 5L;
        case INT -> 5;
        case FLOAT -> 5f;
        case DOUBLE -> 5d;
        default -> null;
      });
    }
    SluiceException e = assertThrows(SluiceException.class, () -> t.upsert(List.of((GenericRecord) r).iterator()));
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    assertTrue(e.getMessage().contains("'" + change.field + "'") && e.getMessage().contains(change.says), e.getMessage());
    assertEquals(files, listing());
    assertEquals(timeline, TableInternals.timeline(t).toString());
    assertEquals(V1, t.schema());
  }

  enum Change {
    DROPPED_FIELD("score", "missing from the records") {
      @Override
      Schema schema() {
        return SchemaBuilder.record("row").namespace("evo").fields().requiredString("id").requiredLong("ts")
            .requiredString("part").requiredInt("count").endRecord();
      }
    },
    NARROWED_TYPE("score", "changed from \"float\" to \"int\"") {
      @Override
      Schema schema() {
        return SchemaBuilder.record("row").namespace("evo").fields().requiredString("id").requiredLong("ts")
            .requiredString("part").requiredInt("count").requiredInt("score").endRecord();
      }
    },
    CHANGED_KEY_TYPE("id", "record key field") {
      @Override
      Schema schema() {
        return SchemaBuilder.record("row").namespace("evo").fields().requiredLong("id").requiredLong("ts")
            .requiredString("part").requiredInt("count").requiredFloat("score").endRecord();
      }
    },
    REQUIRED_NEW_FIELD("extra", "has no default") {
      @Override
      Schema schema() {
        return SchemaBuilder.record("row").namespace("evo").fields().requiredString("id").requiredLong("ts")
            .requiredString("part").requiredInt("count").requiredFloat("score").requiredString("extra").endRecord();
      }
    };

    final String field;
    final String says;

    Change(String field, String says) {
      this.field = field;
      this.says = says;
    }

    abstract Schema schema();
  }

  /** What a Spark writer leaves: every column nullable, the record key included. */
  static final Schema NULLABLE = SchemaBuilder.record("row").namespace("evo").fields()
      .optionalString("id").requiredLong("ts").requiredString("part").optionalInt("count").requiredFloat("score")
      .endRecord();

  @ParameterizedTest
  @EnumSource(TableType.class)
  void recordsDeclaringANullableColumnRequiredWriteOnAndTheColumnStaysNullable(TableType type) {
    Table t = Tables.create(dir.toString(), TableSpec.builder("evo").type(type).recordKey("id").precombine("ts")
        .partitionBy("part").schema(NULLABLE).build(), Config.of(Map.of("hoodie.index.bloom.num_entries", "1000")));
    GenericData.Record first = new GenericData.Record(NULLABLE);
    first.put("id", "k1");
    first.put("ts", 1L);
    first.put("part", "p" + ("k1".hashCode() & 1));
    first.put("count", null);
    first.put("score", 1f);
    t.insert(List.<GenericRecord>of(first).iterator());
    // V1 declares id and count required: the table keeps them nullable instead of refusing the narrowing
    t.upsert(List.of(v1("k1", 2, 7, 2f), v1("k2", 2, 8, 3f)).iterator());
    assertEquals(NULLABLE, t.schema(), "the table schema keeps its nullable columns");
    Map<String, GenericRecord> rows = TripFixture.rows(t);
    assertEquals(2, rows.size());
    assertEquals(7, rows.get("k1").get("count"));
    assertEquals(2f, rows.get("k1").get("score"));
    assertEquals(8, rows.get("k2").get("count"));
    // and a later write with nulls in the nullable column is still taken
    GenericData.Record again = new GenericData.Record(NULLABLE);
    again.put("id", "k2");
    again.put("ts", 3L);
    again.put("part", "p" + ("k2".hashCode() & 1));
    again.put("count", null);
    again.put("score", 4f);
    t.upsert(List.<GenericRecord>of(again).iterator());
    assertNull(TripFixture.rows(t).get("k2").get("count"));
  }

  private List<String> listing() throws java.io.IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.map(p -> dir.relativize(p).toString()).sorted().toList();
    }
  }
}
