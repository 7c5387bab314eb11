package dev.sluice.interop;

import dev.sluice.internal.service.TableInternals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.api.Config;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.storage.LocalStorage;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.Action;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rollback, savepoint, restore and schema evolution against Apache Hudi 0.15: Hudi's own model classes decode the
 * Avro metadata Sluice writes, Hudi reads the tables afterwards (and writes on), and a write Hudi left pending is
 * rolled back by Sluice so Hudi's next writer proceeds.
 */
class ReliabilityInteropTest {
  // the metadata table off on both sides, as Hudi's writer below has it: Hudi 0.15's writer with it off fails its
  // archival on a table that has one (the metadata setting of a table stays the same across its writers)
  private static final Map<String, String> OPTIONS = Map.of("hoodie.index.bloom.num_entries", "1000",
      "sluice.write.parallelism", "1", "hoodie.parquet.small.file.limit", "0", "hoodie.metadata.enable", "false");
  private static final Map<String, String> HUDI = Map.of("hoodie.metadata.enable", "false",
      "hoodie.index.bloom.num_entries", "1000", "hoodie.parquet.small.file.limit", "0");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  private static List<GenericRecord> changes(int round) {
    List<GenericRecord> b = new ArrayList<>(TripFixture.trips(100 * round, 5, 2, round));
    b.add(TripFixture.trip("id-000000", 10 + round, "p0", "round-" + round, round));
    return b;
  }

  private List<JsonNode> metadata(Path table) {
    List<JsonNode> out = new ArrayList<>();
    for (String line : oracle.run(List.of("metadata", "--table", table.toString()))) {
      try {
        out.add(JSON.readTree(line));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void hudiDecodesSluicesRollbackSavepointAndRestoreMetadataAndReadsAndWritesOn(TableType type) {
    Path location = dir.resolve(type.name().toLowerCase());
    dev.sluice.storage.CrashingStorage crashing = new dev.sluice.storage.CrashingStorage(new LocalStorage());
    Table t = Tables.create(crashing.storage(), location.toString(), TripFixture.spec().type(type).tableVersion(6).build(),
        Config.of(OPTIONS));
    t.insert(TripFixture.trips(0, 20, 2, 1).iterator());
    // a write that dies just before its commit file: base files (CoW) or log blocks (MoR) and markers are left
    crashing.crashAt(c -> c.startsWith("CREATE_EXCLUSIVE ") && (c.endsWith(".commit") || c.endsWith(".deltacommit")), 1);
    assertThrows(dev.sluice.storage.CrashingStorage.Crash.class, () -> t.upsert(changes(1).iterator()));
    crashing.restart();
    String failed = TableInternals.timeline(t).inflightWrites().get(0).time();
    t.upsert(changes(2).iterator());
    String savepoint = TableInternals.timeline(t).commitsTimeline().completed().lastInstant().orElseThrow().time();
    t.savepoint(Optional.empty());
    Map<String, Object> atSavepoint = data(Rows.scan(t, Optional.empty()));
    t.upsert(changes(3).iterator());
    String latest = t.upsert(changes(4).iterator()).instantTime();
    RollbackMetadata rolledBack = TableInternals.actions(t).rollback(latest);
    assertEquals(List.of(latest), rolledBack.commitsRollback());
    t.restore(savepoint);

    List<JsonNode> md = metadata(location);
    List<String> kinds = md.stream().map(n -> n.get("action").asText() + "/" + n.get("kind").asText())
        .collect(Collectors.toList());
    assertTrue(kinds.containsAll(List.of("rollback/plan", "rollback/metadata", "savepoint/metadata", "restore/plan",
        "restore/metadata")), "Hudi decoded: " + kinds);
    JsonNode eager = md.stream().filter(n -> n.get("kind").asText().equals("metadata") && n.get("action").asText()
        .equals("rollback") && n.get("value").get("commitsRollback").get(0).asText().equals(failed)).findFirst()
        .orElseThrow(() -> new AssertionError("no rollback of " + failed + " in " + md));
    assertEquals(type == TableType.MERGE_ON_READ ? "deltacommit" : "commit",
        eager.get("value").get("instantsRollback").get(0).get("action").asText());
    if (type == TableType.MERGE_ON_READ) {
      // the failed write's log file held only its blocks: the rollback deleted it instead of adding a command block
      boolean logDeleted = false;
      boolean block = false;
      for (JsonNode p : eager.get("value").get("partitionMetadata")) {
        block |= p.get("rollbackLogFiles").size() > 0;
        for (JsonNode f : p.get("successDeleteFiles")) {
          logDeleted |= f.asText().contains(".log.");
        }
      }
      assertTrue(logDeleted && !block, "the MoR rollback deleted the failed log file, no rollback block: " + eager);
    }
    JsonNode sp = md.stream().filter(n -> n.get("action").asText().equals("savepoint")).findFirst().orElseThrow();
    assertEquals(savepoint, sp.get("time").asText());
    assertTrue(sp.get("value").get("partitionMetadata").has("p0"), sp.toString());
    JsonNode restore = md.stream().filter(n -> n.get("action").asText().equals("restore")
        && n.get("kind").asText().equals("metadata")).findFirst().orElseThrow();
    assertEquals(1, restore.get("value").get("instantsToRollback").size(), "the one commit left after the savepoint");

    List<GenericRecord> hudi = oracle.read(location, "snapshot", Optional.empty());
    assertEquals(atSavepoint, data(hudi), "Hudi reads the restored table");
    oracle.write(location, "upsert", TripFixture.SCHEMA, changes(5), HUDI);
    Rows.assertSameData(oracle.read(location, "snapshot", Optional.empty()), Rows.scan(Tables.open(location.toString()),
        Optional.empty()), "Hudi and Sluice after Hudi's write on the restored table");
  }

  /**
   * A new nullable field on both table types; widened types on CoW, where Sluice rewrites the base files of the old
   * type in the same commit because Hudi's reader refuses an int32 column read as int64 (on MoR widening waits for
   * compaction, see SchemaEvolutionTest).
   */
  @ParameterizedTest
  @EnumSource(TableType.class)
  void hudiReadsATableWhoseSchemaEvolved(TableType type) {
    boolean widen = type == TableType.COPY_ON_WRITE;
    Schema v1 = SchemaBuilder.record("row").namespace("evo").fields().requiredString("id").requiredLong("ts")
        .requiredString("part").requiredInt("count").requiredFloat("score").endRecord();
    Schema v2 = widen ? SchemaBuilder.record("row").namespace("evo").fields().requiredString("id").requiredLong("ts")
        .requiredString("part").requiredLong("count").requiredDouble("score").optionalString("note").endRecord()
        : SchemaBuilder.record("row").namespace("evo").fields().requiredString("id").requiredLong("ts")
        .requiredString("part").requiredInt("count").requiredFloat("score").optionalString("note").endRecord();
    Path location = dir.resolve("evo-" + type.name().toLowerCase());
    Table t = Tables.create(location.toString(), dev.sluice.api.TableSpec.builder("evo").type(type).recordKey("id")
        .precombine("ts").partitionBy("part").schema(v1).tableVersion(6).build(), Config.of(OPTIONS));
    List<GenericRecord> first = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      GenericData.Record r = new GenericData.Record(v1);
      r.put("id", "k" + i);
      r.put("ts", 1L);
      r.put("part", "p" + (i % 2));
      r.put("count", i);
      r.put("score", i + 0.5f);
      first.add(r);
    }
    t.insert(first.iterator());
    GenericData.Record up = new GenericData.Record(v2);
    up.put("id", "k1");
    up.put("ts", 2L);
    up.put("part", "p1");
    up.put("count", widen ? (Object) 10_000_000_000L : (Object) 10);
    up.put("score", widen ? (Object) 2.25 : (Object) 2.25f);
    up.put("note", "evolved");
    t.upsert(List.<GenericRecord>of(up).iterator());
    List<GenericRecord> hudi = oracle.read(location, "snapshot", Optional.empty());
    Rows.assertSameData(Rows.scan(t, Optional.empty()), hudi, "Sluice and Hudi on the evolved table");
    GenericRecord k1 = hudi.stream().filter(r -> r.get("id").toString().equals("k1")).findFirst().orElseThrow();
    assertEquals("evolved", k1.get("note").toString());
    assertEquals(widen ? 10_000_000_000L : 10L, ((Number) k1.get("count")).longValue());
    Schema resolved = oracle.schema(location);
    assertEquals(widen ? Schema.Type.LONG : Schema.Type.INT, resolved.getField("count").schema().getType(),
        "Hudi resolves the evolved schema");
    assertEquals(widen ? Schema.Type.DOUBLE : Schema.Type.FLOAT, resolved.getField("score").schema().getType());
    assertTrue(resolved.getField("note") != null && resolved.getField("note").schema().isNullable(), resolved.toString());
  }

  @org.junit.jupiter.api.Test
  void sluiceRollsBackAWriteHudiLeftPendingAndHudiWritesOn() throws IOException {
    Path location = dir.resolve("pending_hudi");
    // Hudi's create and writes in one oracle JVM
    OracleBatch hudi = oracle.batch();
    hudi.create(location, OracleTableSpec.builder("pending_hudi", TripFixture.SCHEMA).partitionBy("part").build(),
        List.of());
    hudi.write(location, "insert", TripFixture.SCHEMA, TripFixture.trips(0, 10, 2, 1), HUDI);
    OracleBatch.Pending<String> upsert = hudi.write(location, "upsert", TripFixture.SCHEMA, changes(1), HUDI);
    hudi.run();
    String lost = upsert.get();
    // the Hudi writer "died" before publishing: its commit file never appeared
    Files.delete(location.resolve(".hoodie/" + lost + ".commit"));
    Files.deleteIfExists(location.resolve(".hoodie/." + lost + ".commit.crc"));
    Table t = Tables.open(location.toString(), Config.of(OPTIONS));
    t.upsert(changes(2).iterator());
    assertTrue(TableInternals.timeline(t).inflightWrites().isEmpty(), "Sluice rolled the pending write back first");
    assertTrue(TableInternals.timeline(t).filter(i -> i.action() == Action.ROLLBACK && i.isCompleted()).lastInstant().isPresent());
    try (Stream<Path> files = Files.walk(location)) {
      assertFalse(files.anyMatch(p -> p.getFileName().toString().endsWith("_" + lost + ".parquet")),
          "the pending write's base files are gone");
    }
    // Hudi's next writer (EAGER) has nothing to roll back and commits after Sluice's commit
    oracle.write(location, "upsert", TripFixture.SCHEMA, changes(3), HUDI);
    Rows.assertSameData(oracle.read(location, "snapshot", Optional.empty()), Rows.scan(Tables.open(location.toString()),
        Optional.empty()), "after Sluice's rollback of Hudi's pending write and both engines' writes");
  }

  private static Map<String, Object> data(List<GenericRecord> rows) {
    Map<String, Object> out = new java.util.TreeMap<>();
    rows.forEach(r -> out.put(Rows.text(r, Rows.RECORD_KEY), Rows.data(r)));
    return out;
  }
}
