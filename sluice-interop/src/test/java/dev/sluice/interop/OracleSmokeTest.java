package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the harness: Hudi writes, upserts and deletes through the oracle and reads back what was written.
 */
class OracleSmokeTest {

  private static final Schema ADDRESS = SchemaBuilder.record("address").namespace("smoke").fields()
      .requiredString("city")
      .requiredInt("zip")
      .endRecord();

  private static final Schema SCHEMA = SchemaBuilder.record("row").namespace("smoke").fields()
      .requiredString("id")
      .requiredLong("ts")
      .requiredString("part")
      .optionalString("name")
      .requiredDouble("score")
      .name("address").type(ADDRESS).noDefault()
      .name("tags").type().array().items().stringType().noDefault()
      .endRecord();

  private static final Map<String, String> NO_METADATA = Map.of("hoodie.metadata.enable", "false");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  @Test
  void insertUpsertDeleteThenReadBack() {
    Path table = dir.resolve("cow");
    oracle.create(table, OracleTableSpec.builder("smoke_cow", SCHEMA).partitionBy("part").build());

    Map<String, GenericRecord> expected = new TreeMap<>();
    List<GenericRecord> inserts = List.of(
        row("k1", 1, "p1", "alpha", 1.5, "Oslo", 1000, "a"),
        row("k2", 1, "p1", null, 2.5, "Rome", 2000),
        row("k3", 1, "p2", "gamma", -3.25, "Lima", 3000, "x", "y"),
        row("k4", 1, "p2", "delta", 0.0, "Baku", 4000));
    inserts.forEach(r -> expected.put(key(r), r));
    String c1 = oracle.write(table, "insert", SCHEMA, inserts, NO_METADATA);

    List<GenericRecord> upserts = List.of(
        row("k1", 2, "p1", "alpha2", 10.5, "Oslo", 1001, "b", "c"),
        row("k5", 2, "p2", "epsilon", 5.5, "Kyiv", 5000));
    upserts.forEach(r -> expected.put(key(r), r));
    String c2 = oracle.write(table, "upsert", SCHEMA, upserts, NO_METADATA);

    List<GenericRecord> deletes = List.of(row("k2", 3, "p1", null, 0, "", 0));
    deletes.forEach(r -> expected.remove(key(r)));
    String c3 = oracle.write(table, "delete", SCHEMA, deletes, NO_METADATA);

    List<GenericRecord> rows = oracle.read(table, "snapshot", Optional.empty());
    assertEquals(List.copyOf(expected.keySet()), rows.stream().map(OracleSmokeTest::key).collect(Collectors.toList()));
    for (GenericRecord row : rows) {
      GenericRecord want = expected.get(key(row));
      for (Schema.Field field : SCHEMA.getFields()) {
        assertEquals(String.valueOf(want.get(field.name())), String.valueOf(row.get(field.name())),
            "field " + field.name() + " of " + key(row));
      }
      assertEquals(want.get("part"), row.get("_hoodie_partition_path").toString());
      assertEquals(key(want), row.get("_hoodie_record_key").toString());
    }
    assertEquals(c2, commitTime(rows, "k1"), "k1 was rewritten by the upsert");
    assertEquals(c1, commitTime(rows, "k3"), "k3 still carries the insert's commit time");

    List<Map<String, String>> timeline = oracle.timeline(table);
    assertEquals(List.of(c1, c2, c3), timeline.stream().map(i -> i.get("time")).collect(Collectors.toList()));
    for (Map<String, String> instant : timeline) {
      assertEquals("commit", instant.get("action"));
      assertEquals("COMPLETED", instant.get("state"));
    }

    List<GenericRecord> first = oracle.read(table, "snapshot", Optional.of(c1));
    assertEquals(List.of("k1", "k2", "k3", "k4"), first.stream().map(OracleSmokeTest::key).collect(Collectors.toList()));
    assertEquals("alpha", first.get(0).get("name").toString(), "time travel sees k1 before the upsert");
  }

  @Test
  void fileViewAndBloomFilterOfAWrittenTable() {
    Path table = dir.resolve("cow_meta");
    List<GenericRecord> inserts = List.of(
        row("a1", 1, "p1", "x", 1, "Oslo", 1),
        row("a2", 1, "p1", "y", 2, "Rome", 2),
        row("b1", 1, "p2", null, 3, "Lima", 3));
    // the same commands batched in one oracle JVM (the first test proves the one-call-per-JVM path)
    OracleBatch batch = oracle.batch();
    batch.create(table, OracleTableSpec.builder("smoke_meta", SCHEMA).partitionBy("part").build(), List.of());
    // Metadata table on: the Hudi default.
    OracleBatch.Pending<String> insert = batch.write(table, "insert", SCHEMA, inserts, Map.of());
    OracleBatch.Pending<List<OracleFileSlice>> fsview = batch.fsview(table);
    OracleBatch.Pending<List<GenericRecord>> read = batch.read(table, "snapshot", Optional.empty(), true);
    OracleBatch.Pending<Schema> schema = batch.schema(table);
    batch.run();
    String c1 = insert.get();
    assertTrue(Files.isDirectory(table.resolve(".hoodie/metadata")), "metadata table written");

    List<OracleFileSlice> slices = fsview.get();
    assertEquals(List.of("p1", "p2"), slices.stream().map(OracleFileSlice::partition).collect(Collectors.toList()));
    for (OracleFileSlice slice : slices) {
      assertEquals(c1, slice.baseInstant());
      assertTrue(slice.baseFile().isPresent());
      assertTrue(slice.logFiles().isEmpty());
      assertTrue(Files.isRegularFile(table.resolve(slice.partition()).resolve(slice.baseFile().get())));
    }

    Path p1File = table.resolve("p1").resolve(slices.get(0).baseFile().get());
    OracleBloom bloom = oracle.bloom(p1File, List.of("a1", "a2", "b1"));
    assertEquals(Optional.of("a1"), bloom.minKey());
    assertEquals(Optional.of("a2"), bloom.maxKey());
    assertTrue(bloom.type().isPresent());
    assertTrue(bloom.contains().get("a1"));
    assertTrue(bloom.contains().get("a2"));

    List<GenericRecord> viaMetadata = read.get();
    assertEquals(List.of("a1", "a2", "b1"), viaMetadata.stream().map(OracleSmokeTest::key).collect(Collectors.toList()));
    Schema tableSchema = schema.get();
    assertEquals("_hoodie_commit_time", tableSchema.getFields().get(0).name());
    assertNotEquals(null, tableSchema.getField("address"));
    assertFalse(tableSchema.getField("tags").schema().isNullable());
  }

  @Test
  void mergeOnReadSnapshotMergesLogUpdatesAndDeletes() {
    Path table = dir.resolve("mor");
    // every step in one oracle JVM
    OracleBatch batch = oracle.batch();
    batch.create(table, OracleTableSpec.builder("smoke_mor", SCHEMA).mergeOnRead().partitionBy("part").build(),
        List.of());
    // Small-file handling off, so updates go to log files instead of rewriting base files.
    Map<String, String> logs = Map.of("hoodie.metadata.enable", "false", "hoodie.parquet.small.file.limit", "0");
    batch.write(table, "insert", SCHEMA, List.of(
        row("m1", 1, "p1", "one", 1, "Oslo", 1),
        row("m2", 1, "p1", "two", 2, "Rome", 2),
        row("m3", 1, "p2", "three", 3, "Lima", 3)), logs);
    batch.write(table, "upsert", SCHEMA, List.of(row("m1", 2, "p1", "uno", 10, "Oslo", 1)), logs);
    Map<String, String> deletes = new TreeMap<>(logs);
    deletes.put("hoodie.datasource.write.payload.class", "org.apache.hudi.common.model.EmptyHoodieRecordPayload");
    batch.write(table, "upsert", SCHEMA, List.of(row("m3", 3, "p2", null, 0, "", 0)), deletes);
    OracleBatch.Pending<List<OracleFileSlice>> fsview = batch.fsview(table);
    OracleBatch.Pending<List<GenericRecord>> snapshotRead = batch.read(table, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> readOptimizedRead = batch.read(table, "read_optimized", Optional.empty(),
        false);
    OracleBatch.Pending<List<Map<String, String>>> timeline = batch.timeline(table);
    batch.run();

    assertTrue(fsview.get().stream().anyMatch(slice -> !slice.logFiles().isEmpty()), "log files written");
    List<GenericRecord> snapshot = snapshotRead.get();
    assertEquals(List.of("m1", "m2"), snapshot.stream().map(OracleSmokeTest::key).collect(Collectors.toList()));
    assertEquals("uno", snapshot.get(0).get("name").toString());
    List<GenericRecord> readOptimized = readOptimizedRead.get();
    assertEquals(List.of("m1", "m2", "m3"), readOptimized.stream().map(OracleSmokeTest::key).collect(Collectors.toList()));
    assertEquals("one", readOptimized.get(0).get("name").toString(), "base files only");
    assertEquals("deltacommit", timeline.get().get(0).get("action"));
  }

  private static String commitTime(List<GenericRecord> rows, String key) {
    return rows.stream().filter(r -> key(r).equals(key)).findFirst().orElseThrow()
        .get("_hoodie_commit_time").toString();
  }

  private static String key(GenericRecord record) {
    return record.get("id").toString();
  }

  private static GenericRecord row(String id, long ts, String part, String name, double score, String city, int zip,
      String... tags) {
    GenericRecord address = new GenericData.Record(ADDRESS);
    address.put("city", city);
    address.put("zip", zip);
    GenericRecord record = new GenericData.Record(SCHEMA);
    record.put("id", id);
    record.put("ts", ts);
    record.put("part", part);
    record.put("name", name);
    record.put("score", score);
    record.put("address", address);
    record.put("tags", new ArrayList<>(List.of(tags)));
    return record;
  }
}
