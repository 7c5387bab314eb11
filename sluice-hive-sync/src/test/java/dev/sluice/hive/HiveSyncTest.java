package dev.sluice.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CatalogSync;
import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * The sync against a real Hive 3.1.3 metastore (one child JVM, shared by the test classes): creation, partitions
 * added after writes and kept after a rollback, an added column, a second sync that changes nothing, a failed write
 * left out until the next commit, an unreachable metastore, and the sync after each commit.
 */
class HiveSyncTest {
  static final Schema SCHEMA = SchemaBuilder.record("trip").fields()
      .requiredString("id").requiredString("city").requiredDouble("fare").requiredLong("ts").endRecord();

  static MetastoreServer server;

  @TempDir
  Path dir;

  @BeforeAll
  static void startMetastore() throws java.io.IOException, InterruptedException {
    server = MetastoreServer.shared();
  }

  static Config syncOptions(String db) {
    return Config.of(Map.of("hoodie.datasource.hive_sync.metastore.uris", server.uri(),
        "hoodie.datasource.hive_sync.database", db));
  }

  static Table create(Path location, TableType type, Config options) {
    return create(location, type, options, TableSpec.DEFAULT_TABLE_VERSION);
  }

  /** As {@link #create(Path, TableType, Config)} at table version {@code version}. */
  static Table create(Path location, TableType type, Config options, int version) {
    return Tables.create(location.toString(), TableSpec.builder("trips").type(type).recordKey("id").precombine("ts")
        .partitionBy("city").schema(SCHEMA).tableVersion(version).build(), options);
  }

  static List<GenericRecord> rows(Schema schema, String city, int from, int n) {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      GenericRecord r = new GenericData.Record(schema);
      r.put("id", "k" + i);
      r.put("city", city);
      r.put("fare", i * 1.5);
      r.put("ts", (long) i);
      out.add(r);
    }
    return out;
  }

  static List<String> sync(Table t, Config options) {
    return HiveSync.run(t, HiveSyncSettings.of(options, t.inspect()));
  }

  static org.apache.hadoop.hive.metastore.api.Table hiveTable(String db, String name) {
    try (Metastore ms = Metastore.connect(List.of(server.uri()))) {
      return ms.table(db, name).orElseThrow(() -> new AssertionError("no table " + db + "." + name));
    }
  }

  /** Partition values → location. */
  static Map<String, String> partitions(String db, String name) {
    try (Metastore ms = Metastore.connect(List.of(server.uri()))) {
      return ms.partitions(db, name).stream().collect(Collectors.toMap(p -> String.join("/", p.getValues()),
          p -> p.getSd().getLocation(), (a, b) -> a, TreeMap::new));
    }
  }

  static List<String> columns(org.apache.hadoop.hive.metastore.api.Table t) {
    return t.getSd().getCols().stream().map(c -> c.getName() + ":" + c.getType()).toList();
  }

  @Test
  void copyOnWriteBecomesOneExternalTableWithItsPartitions() {
    Config options = syncOptions("cow1");
    Table t = create(dir.resolve("t"), TableType.COPY_ON_WRITE, options);
    t.insert(rows(t.schema(), "sf", 0, 5).iterator());
    String last = t.insert(rows(t.schema(), "nyc", 5, 5).iterator()).instantTime();

    List<String> changes = sync(t, options);
    assertTrue(changes.contains("created database cow1"), changes.toString());
    assertTrue(changes.contains("added partition sf to cow1.trips"), changes.toString());

    var h = hiveTable("cow1", "trips");
    assertEquals("EXTERNAL_TABLE", h.getTableType());
    assertEquals("TRUE", h.getParameters().get("EXTERNAL"));
    assertEquals(HiveSync.PARQUET_INPUT, h.getSd().getInputFormat());
    assertEquals(HiveSync.PARQUET_OUTPUT, h.getSd().getOutputFormat());
    assertEquals(HiveSync.PARQUET_SERDE, h.getSd().getSerdeInfo().getSerializationLib());
    assertEquals("false", h.getSd().getSerdeInfo().getParameters().get("hoodie.query.as.ro.table"));
    assertEquals(t.location(), h.getSd().getSerdeInfo().getParameters().get("path"));
    assertEquals(List.of("_hoodie_commit_time:string", "_hoodie_commit_seqno:string", "_hoodie_record_key:string",
        "_hoodie_partition_path:string", "_hoodie_file_name:string", "id:string", "fare:double", "ts:bigint"),
        columns(h));
    assertEquals(List.of("city:string"), h.getPartitionKeys().stream().map(c -> c.getName() + ":" + c.getType())
        .toList());
    assertEquals(last, h.getParameters().get(HiveSync.LAST_COMMIT));
    assertEquals("hudi", h.getParameters().get("spark.sql.sources.provider"));
    assertTrue(h.getParameters().get("spark.sql.sources.schema.part.0").endsWith(
        "{\"name\":\"city\",\"type\":\"string\",\"nullable\":false,\"metadata\":{}}]}"),
        h.getParameters().get("spark.sql.sources.schema.part.0"));
    Map<String, String> parts = partitions("cow1", "trips");
    assertEquals(List.of("nyc", "sf"), List.copyOf(parts.keySet()));
    assertTrue(parts.get("sf").endsWith(dir.resolve("t").resolve("sf").toString()), parts.toString());

    // a second sync finds everything in step and writes nothing
    assertEquals(List.of(), sync(t, options));
    assertEquals(parts, partitions("cow1", "trips"));
  }

  @Test
  void laterCommitsAddPartitionsAndColumnsARollbackDropsNothing() {
    Config options = syncOptions("cow2");
    Table t = create(dir.resolve("t"), TableType.COPY_ON_WRITE, options);
    t.insert(rows(t.schema(), "sf", 0, 5).iterator());
    sync(t, options);

    // a new column (nullable, so the old rows read null) and a new partition
    Schema evolved = SchemaBuilder.record("trip").fields().requiredString("id").requiredString("city")
        .requiredDouble("fare").requiredLong("ts").optionalString("driver").endRecord();
    List<GenericRecord> more = rows(evolved, "la", 10, 3);
    more.forEach(r -> r.put("driver", "d"));
    t.upsert(more.iterator());
    List<String> changes = sync(t, options);
    assertTrue(changes.contains("updated the columns of cow2.trips (added [driver])"), changes.toString());
    assertTrue(changes.contains("added partition la to cow2.trips"), changes.toString());
    var h = hiveTable("cow2", "trips");
    assertEquals("driver:string", columns(h).get(columns(h).size() - 1));
    assertTrue(h.getParameters().get("spark.sql.sources.schema.part.0").contains("\"name\":\"driver\""));
    assertEquals(List.of("la", "sf"), List.copyOf(partitions("cow2", "trips").keySet()));

    // the commit that made partition 'ba' is rolled back after it was synced: as Hudi's sync, Sluice's drops no
    // partition for a rollback (only a delete_partition/insert_overwrite or a clean that deleted it drops one), and
    // last_commit_time_sync moves back to the last completed commit
    String before = t.inspect().lastCompletedCommit().orElseThrow();
    String ba = t.insert(rows(t.schema(), "ba", 20, 2).iterator()).instantTime();
    sync(t, options);
    assertTrue(partitions("cow2", "trips").containsKey("ba"));
    t.rollback(ba);
    changes = sync(t, options);
    assertEquals(List.of("marked cow2.trips synced to commit " + before), changes);
    assertEquals(List.of("ba", "la", "sf"), List.copyOf(partitions("cow2", "trips").keySet()));
  }

  @Test
  void mergeOnReadGetsReadOptimizedRealtimeAndSnapshotTables() {
    Config options = syncOptions("mor1");
    Table t = create(dir.resolve("t"), TableType.MERGE_ON_READ, options);
    t.insert(rows(t.schema(), "sf", 0, 5).iterator());
    t.upsert(rows(t.schema(), "sf", 0, 2).iterator());
    sync(t, options);
    var ro = hiveTable("mor1", "trips_ro");
    var rt = hiveTable("mor1", "trips_rt");
    var plain = hiveTable("mor1", "trips");
    assertEquals(HiveSync.PARQUET_INPUT, ro.getSd().getInputFormat());
    assertEquals("true", ro.getSd().getSerdeInfo().getParameters().get("hoodie.query.as.ro.table"));
    assertEquals(HiveSync.REALTIME_INPUT, rt.getSd().getInputFormat());
    assertEquals("false", rt.getSd().getSerdeInfo().getParameters().get("hoodie.query.as.ro.table"));
    assertEquals(HiveSync.REALTIME_INPUT, plain.getSd().getInputFormat());
    for (String name : List.of("trips_ro", "trips_rt", "trips")) {
      assertEquals(List.of("sf"), List.copyOf(partitions("mor1", name).keySet()), name);
    }
  }

  @Test
  void aFailedWriteLeavesTheMetastoreAsItWasAndTheNextCommitSyncs() throws java.io.IOException {
    Config options = syncOptions("failed1");
    Table t = create(dir.resolve("t"), TableType.COPY_ON_WRITE, options);
    String good = t.insert(rows(t.schema(), "sf", 0, 5).iterator()).instantTime();
    sync(t, options);
    var synced = hiveTable("failed1", "trips");

    // a writer that died after writing into a new partition: requested and inflight, never completed
    String failed = String.valueOf(Long.parseLong(good) + 1);
    Path hoodie = dir.resolve("t").resolve(".hoodie");
    Files.writeString(hoodie.resolve(failed + ".commit.requested"), "");
    Files.writeString(hoodie.resolve(failed + ".inflight"), "");
    Path orphan = Files.createDirectories(dir.resolve("t").resolve("oak"));
    Files.copy(dir.resolve("t").resolve("sf").resolve(".hoodie_partition_metadata"),
        orphan.resolve(".hoodie_partition_metadata"));
    Table reopened = Tables.open(dir.resolve("t").toString(), options);
    assertEquals(List.of(), sync(reopened, options));
    var h = hiveTable("failed1", "trips");
    assertEquals(good, h.getParameters().get(HiveSync.LAST_COMMIT));
    assertEquals(synced.getParameters(), h.getParameters());
    assertEquals(List.of("sf"), List.copyOf(partitions("failed1", "trips").keySet()));

    // the next write rolls the failed one back and commits; its sync adds its own partition only
    String next = reopened.insert(rows(reopened.schema(), "nyc", 10, 2).iterator()).instantTime();
    assertTrue(Tables.open(dir.resolve("t").toString()).inspect().find(failed).isEmpty(), "not rolled back");
    List<String> changes = sync(Tables.open(dir.resolve("t").toString(), options), options);
    assertEquals(List.of("added partition nyc to failed1.trips", "marked failed1.trips synced to commit " + next),
        changes);
    assertEquals(List.of("nyc", "sf"), List.copyOf(partitions("failed1", "trips").keySet()));
  }

  @Test
  void anUnreachableMetastoreFailsTheSyncNamingItsUri() throws java.io.IOException {
    String dead = "thrift://127.0.0.1:" + MetastoreServer.freePort();
    Config options = Config.of(Map.of("hoodie.datasource.hive_sync.metastore.uris", dead));
    Table t = create(dir.resolve("t"), TableType.COPY_ON_WRITE, options);
    t.insert(rows(t.schema(), "sf", 0, 1).iterator());
    SluiceException e = assertThrows(SluiceException.class, () -> sync(t, options));
    assertTrue(e.getMessage().contains(dead), e.getMessage());
    assertTrue(e.getMessage().contains("Hive Metastore"), e.getMessage());
  }

  @Test
  void commitsSyncThemselvesAndAFailedSyncNeverFailsTheCommit() throws java.io.IOException {
    assertEquals(List.of("hive"), CatalogSync.installed().stream().map(CatalogSync::name).toList());
    String dead = "thrift://127.0.0.1:" + MetastoreServer.freePort();
    Config down = Config.of(Map.of("hoodie.datasource.meta.sync.enable", "true",
        "hoodie.datasource.hive_sync.metastore.uris", dead, "hoodie.datasource.hive_sync.database", "auto1"));
    Table t = create(dir.resolve("t"), TableType.COPY_ON_WRITE, down);
    // the metastore is down: the write still commits, and stays committed
    String first = t.insert(rows(t.schema(), "sf", 0, 3).iterator()).instantTime();
    assertTrue(Tables.open(dir.resolve("t").toString()).inspect().find(first).orElseThrow().isCompleted());

    // back up: the next commit's sync catches up with both commits
    Config up = syncOptions("auto1").with("hoodie.datasource.meta.sync.enable", "true");
    Table t2 = Tables.open(dir.resolve("t").toString(), up);
    String second = t2.insert(rows(t2.schema(), "nyc", 10, 3).iterator()).instantTime();
    var h = hiveTable("auto1", "trips");
    assertEquals(second, h.getParameters().get(HiveSync.LAST_COMMIT));
    assertEquals(List.of("nyc", "sf"), List.copyOf(partitions("auto1", "trips").keySet()));
    assertFalse(partitions("auto1", "trips").isEmpty());
  }

  @Test
  void tableVersionNineRecordsTheCompletionTimeToo() {
    Config options = syncOptions("v9");
    Table t = Tables.create(dir.resolve("t").toString(), TableSpec.builder("trips").type(TableType.COPY_ON_WRITE)
        .recordKey("id").precombine("ts").partitionBy("city").schema(SCHEMA).tableVersion(9).build(), options);
    String last = t.insert(rows(t.schema(), "sf", 0, 3).iterator()).instantTime();
    sync(t, options);
    var h = hiveTable("v9", "trips");
    assertEquals(last, h.getParameters().get(HiveSync.LAST_COMMIT));
    assertEquals(t.inspect().completionTime(last).orElseThrow(), h.getParameters().get(HiveSync.LAST_COMMIT_COMPLETION));
    assertEquals(List.of("sf"), List.copyOf(partitions("v9", "trips").keySet()));
  }

  @Test
  void theJdbcAndHiveqlModesAreRefusedNamingTheKey() {
    Table t = create(dir.resolve("t"), TableType.COPY_ON_WRITE, syncOptions("modes"));
    for (String mode : List.of("jdbc", "hiveql")) {
      Config options = syncOptions("modes").with("hoodie.datasource.hive_sync.mode", mode);
      SluiceException e = assertThrows(SluiceException.class, () -> HiveSyncSettings.of(options, t.inspect()));
      assertTrue(e.getMessage().contains("hoodie.datasource.hive_sync.mode=" + mode), e.getMessage());
      assertTrue(e.getMessage().contains("hms"), e.getMessage());
    }
    assertEquals("modes", HiveSyncSettings.of(syncOptions("modes").with("hoodie.datasource.hive_sync.mode", "hms"),
        t.inspect()).database());
  }

  @Test
  void typesMapAsHudiMapsThem() {
    Schema s = SchemaBuilder.record("r").fields()
        .name("d").type(org.apache.avro.LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT))).noDefault()
        .name("t").type(org.apache.avro.LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG)))
        .noDefault()
        .name("m").type(org.apache.avro.LogicalTypes.decimal(10, 2).addToSchema(Schema.create(Schema.Type.BYTES)))
        .noDefault()
        .name("a").type().array().items().stringType().noDefault()
        .name("mp").type().map().values().longType().noDefault()
        .name("st").type().record("inner").fields().requiredInt("x").optionalFloat("y").endRecord().noDefault()
        .name("b").type().bytesType().noDefault()
        .name("e").type().enumeration("E").symbols("A", "B").noDefault()
        .endRecord();
    Map<String, String> cols = HiveTypes.columns(s, false);
    assertEquals("date", cols.get("d"));
    assertEquals("bigint", cols.get("t"));
    assertEquals("timestamp", HiveTypes.columns(s, true).get("t"));
    assertEquals("decimal(10,2)", cols.get("m"));
    assertEquals("array<string>", cols.get("a"));
    assertEquals("map<string,bigint>", cols.get("mp"));
    assertEquals("struct<x:int,y:float>", cols.get("st"));
    assertEquals("binary", cols.get("b"));
    assertEquals("string", cols.get("e"));
  }
}
