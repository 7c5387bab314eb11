package dev.sluice.interop;

import dev.sluice.internal.service.TableInternals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.log.LogBlockType;
import dev.sluice.internal.log.LogDump;
import dev.sluice.api.MergeMode;
import dev.sluice.api.QueryType;
import dev.sluice.api.Scan;
import dev.sluice.api.TableType;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.CommitResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merge-on-Read across engines: Hudi 0.15.0 reads what Sluice's delta commits wrote (its merged log record scanner
 * over Sluice's log files, its file-system view over Sluice's slices), Sluice reads what Hudi's Java client wrote,
 * and both append to one table in turn.
 */
class MergeOnReadInteropTest {
  private static final Schema ADDRESS = SchemaBuilder.record("address").namespace("mor").fields()
      .requiredString("city")
      .optionalInt("zip")
      .endRecord();

  static final Schema SCHEMA = SchemaBuilder.record("row").namespace("mor").fields()
      .requiredString("id")
      .requiredLong("ts")
      .requiredString("part")
      .optionalString("name")
      .requiredDouble("score")
      .name("address").type(ADDRESS).noDefault()
      .name("tags").type().array().items().stringType().noDefault()
      .name("_hoodie_is_deleted").type().booleanType().booleanDefault(false)
      .endRecord();

  /** Hudi writes with the metadata table off (Sluice removes it anyway) and updates going to log files. */
  private static final Map<String, String> HUDI_LOGS = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000",
      // Sluice records Spark's key generator class, which the Java client cannot load
      "hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.SimpleAvroKeyGenerator");
  private static final Map<String, String> HUDI_DELETES = with(HUDI_LOGS, "hoodie.datasource.write.payload.class",
      "org.apache.hudi.common.model.EmptyHoodieRecordPayload");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  @Test
  void hudiReadsASluiceTableAfterSeveralDeltaCommits() {
    Path path = dir.resolve("sluice_mor");
    Table t = Tables.create(path.toString(), TableSpec.builder("sluice_mor").type(TableType.MERGE_ON_READ).recordKey("id")
        .precombine("ts").partitionBy("part").schema(SCHEMA).mergeMode(MergeMode.EVENT_TIME_ORDERING).tableVersion(6).build(),
        Config.of(Map.of("hoodie.index.bloom.num_entries", "1000")));
    t.insert(List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p1", "b"), row("k3", 1, "p1", null), row("k4", 1, "p2", "d"),
        row("k5", 1, "p2", "e"), row("k6", 1, "p2", "f")).iterator());
    // updates only: appended to the logs of both file groups
    CommitResult c2 = t.upsert(List.of(row("k1", 5, "p1", "a5"), row("k4", 5, "p2", "d5", "x", "y")).iterator());
    // updates and inserts: the p1 group has logs now, so the inserts open a new file group
    CommitResult c3 = t.upsert(List.of(row("k1", 3, "p1", "a3"), row("k2", 6, "p1", "b6"), row("k7", 6, "p1", "g"),
        row("k8", 6, "p2", "h")).iterator());
    t.delete(List.of(row("k3", 0, "p1", null), row("k4", 0, "p2", null)).iterator());
    GenericRecord softDelete = row("k5", 9, "p2", "gone");
    softDelete.put("_hoodie_is_deleted", true);
    t.upsert(List.of(softDelete, row("k4", 10, "p2", "back"), row("k6", 0, "p2", "late"), row("k7", 8, "p1", "g8"))
        .iterator());
    assertTrue(logFiles(t).size() >= 5, "the delta commits wrote log files");

    Map<String, Map<String, String>> sluice = byKey(rows(t.newScan()));
    assertEquals(Set.of("k1", "k2", "k4", "k6", "k7", "k8"), sluice.keySet());
    // Hudi's reads in one oracle JVM
    OracleBatch hudi = oracle.batch();
    OracleBatch.Pending<List<GenericRecord>> snapshot = hudi.read(path, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> readOptimized = hudi.read(path, "read_optimized", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> timeTravel = hudi.read(path, "snapshot", Optional.of(c3.instantTime()),
        false);
    OracleBatch.Pending<List<OracleFileSlice>> fsview = hudi.fsview(path);
    hudi.run();
    assertEquals(byKey(snapshot.get()), sluice, "Hudi merges Sluice's logs the same way");
    assertEquals(byKey(readOptimized.get()), byKey(rows(t.newScan().queryType(QueryType.READ_OPTIMIZED))));
    assertEquals(byKey(timeTravel.get()), byKey(rows(t.newScan().asOf(c3.instantTime()))), "time travel");
    assertEquals(slices(t), fsview.get(), "Hudi groups Sluice's base and log files into the same slices");
    assertFalse(c2.files().isEmpty());
  }

  @Test
  void hudiReadsDeltaCommitsThatSpilledIntoSeveralBlocksPerFileGroup() {
    Path path = dir.resolve("spilled_mor");
    // the smallest write budget (64 KiB): every write past it spills, and appends cut a block per eighth of it
    Config small = Config.of(Map.of("hoodie.index.bloom.num_entries", "1000", "hoodie.memory.merge.max.size", "1",
        "hoodie.parquet.small.file.limit", "0"));
    Table t = Tables.create(path.toString(), TableSpec.builder("spilled_mor").type(TableType.MERGE_ON_READ).recordKey("id")
        .precombine("ts").partitionBy("part").schema(SCHEMA).mergeMode(MergeMode.EVENT_TIME_ORDERING).tableVersion(6).build(), small);
    List<GenericRecord> inserts = new ArrayList<>();
    List<GenericRecord> updates = new ArrayList<>();
    List<GenericRecord> deletes = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      String id = String.format("s%05d", i);
      String part = i % 2 == 0 ? "p1" : "p2";
      inserts.add(row(id, 1, part, "v1-" + i, "t" + i));
      if (i % 3 != 0) {
        // a duplicate with a lower ordering value loses to the update, in any order
        updates.add(row(id, 2, part, "old-" + i));
        updates.add(row(id, 5, part, "v5-" + i));
      }
      if (i % 7 == 0) {
        deletes.add(row(id, 0, part, null));
      }
    }
    t.insert(inserts.iterator());
    String upsert = t.upsert(updates.iterator()).instantTime();
    t.delete(deletes.iterator());
    Map<String, Integer> blocksPerInstant = new TreeMap<>();
    for (LogFile l : logFiles(t)) {
      LogDump.list(t.storage(), l.path()).forEach(b -> blocksPerInstant.merge(b.type() + "@" + b.instantTime().orElse(""), 1,
          Integer::sum));
    }
    assertTrue(blocksPerInstant.getOrDefault(LogBlockType.AVRO_DATA_BLOCK + "@" + upsert, 0) > 2 * 2,
        "the spilled upsert wrote several data blocks per file group: " + blocksPerInstant);

    Map<String, Map<String, String>> sluice = byKey(rows(t.newScan()));
    assertEquals(1500 - deletes.size(), sluice.size());
    assertEquals("\"v5-1\"", sluice.get("s00001").get("name"));
    assertEquals("\"v1-3\"", sluice.get("s00003").get("name"));
    OracleBatch hudi = oracle.batch();
    OracleBatch.Pending<List<GenericRecord>> snapshot = hudi.read(path, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<OracleFileSlice>> fsview = hudi.fsview(path);
    hudi.run();
    assertEquals(byKey(snapshot.get()), sluice, "Hudi merges the spilled blocks the same way");
    assertEquals(slices(t), fsview.get());
  }

  @Test
  void sluiceReadsAMergeOnReadTableWrittenByHudi() {
    Path path = dir.resolve("hudi_mor");
    // Hudi's create and writes in one oracle JVM
    OracleBatch writes = oracle.batch();
    writes.create(path, OracleTableSpec.builder("hudi_mor", SCHEMA).mergeOnRead().partitionBy("part")
        .payload(MergeMode.EVENT_TIME_ORDERING.payloadClass()).build(), List.of());
    Map<String, String> conf = without(HUDI_LOGS, "hoodie.datasource.write.keygenerator.class");
    Map<String, String> deletes = without(HUDI_DELETES, "hoodie.datasource.write.keygenerator.class");
    writes.write(path, "insert", SCHEMA, List.of(row("h1", 1, "p1", "a"), row("h2", 1, "p1", "b"), row("h3", 1, "p2", "c"),
        row("h4", 1, "p2", "d")), conf);
    OracleBatch.Pending<String> second = writes.write(path, "upsert", SCHEMA, List.of(row("h1", 4, "p1", "a4"),
        row("h3", 0, "p2", "late"), row("h5", 4, "p2", "e")), conf);
    writes.write(path, "upsert", SCHEMA, List.of(row("h2", 5, "p1", null), row("h5", 5, "p2", null)), deletes);
    GenericRecord softDelete = row("h4", 6, "p2", "gone");
    softDelete.put("_hoodie_is_deleted", true);
    writes.write(path, "upsert", SCHEMA, List.of(softDelete, row("h1", 2, "p1", "a2"), row("h2", 7, "p1", "b7")), conf);
    writes.run();
    String c2 = second.get();

    Table t = Tables.open(path.toString());
    Set<LogBlockType> blocks = new HashSet<>();
    for (LogFile l : logFiles(t)) {
      LogDump.list(t.storage(), l.path()).forEach(b -> blocks.add(b.type()));
    }
    assertEquals(Set.of(LogBlockType.AVRO_DATA_BLOCK, LogBlockType.DELETE_BLOCK), blocks);
    Map<String, Map<String, String>> sluice = byKey(rows(t.newScan()));
    OracleBatch reads = oracle.batch();
    OracleBatch.Pending<List<GenericRecord>> snapshot = reads.read(path, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> readOptimized = reads.read(path, "read_optimized", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> timeTravel = reads.read(path, "snapshot", Optional.of(c2), false);
    reads.run();
    assertEquals(byKey(snapshot.get()), sluice);
    assertEquals(Set.of("h1", "h2", "h3"), sluice.keySet());
    assertEquals("\"a4\"", sluice.get("h1").get("name"), "event-time ordering across log blocks");
    assertEquals("\"c\"", sluice.get("h3").get("name"), "event-time ordering against the base row");
    assertEquals(byKey(readOptimized.get()), byKey(rows(t.newScan().queryType(QueryType.READ_OPTIMIZED))));
    assertEquals(byKey(timeTravel.get()), byKey(rows(t.newScan().asOf(c2))));
  }

  @Test
  void hudiAndSluiceAppendToOneTableInTurn() {
    Path path = dir.resolve("both");
    // the metadata table off as for Hudi's writer here (WideRows.NO_METADATA_TABLE says why)
    Config options = Config.of(Map.of("hoodie.index.bloom.num_entries", "1000", "hoodie.parquet.small.file.limit", "0",
        "hoodie.metadata.enable", "false"));
    Table t = Tables.create(path.toString(), TableSpec.builder("both").type(TableType.MERGE_ON_READ).recordKey("id")
        .precombine("ts").partitionBy("part").schema(SCHEMA).mergeMode(MergeMode.COMMIT_TIME_ORDERING).tableVersion(6).build(), options);
    t.insert(List.of(row("b1", 1, "p1", "a"), row("b2", 1, "p1", "b"), row("b3", 1, "p2", "c")).iterator());
    oracle.write(path, "upsert", SCHEMA, List.of(row("b1", 2, "p1", "hudi"), row("b3", 2, "p2", "hudi"),
        row("b4", 2, "p2", "new")), HUDI_LOGS);
    Table again = Tables.open(path.toString(), options);
    again.upsert(List.of(row("b1", 3, "p1", "sluice"), row("b4", 3, "p2", "sluice4")).iterator());
    oracle.write(path, "upsert", SCHEMA, List.of(row("b2", 4, "p1", null)), HUDI_DELETES);
    again.delete(List.of(row("b3", 0, "p2", null)).iterator());

    FileSystemView view = TableInternals.fileSystemView(again);
    List<FileSlice> p1 = view.latestSlices("p1");
    assertEquals(1, p1.size());
    assertEquals(3, p1.get(0).logFiles().size(), "Hudi, Sluice and Hudi appended to the p1 slice: " + p1);
    Map<String, Map<String, String>> sluice = byKey(rows(again.newScan()));
    assertEquals(Set.of("b1", "b4"), sluice.keySet());
    assertEquals("\"sluice\"", sluice.get("b1").get("name"));
    OracleBatch reads = oracle.batch();
    OracleBatch.Pending<List<GenericRecord>> snapshot = reads.read(path, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<OracleFileSlice>> fsview = reads.fsview(path);
    reads.run();
    assertEquals(byKey(snapshot.get()), sluice);
    assertEquals(slices(again), fsview.get());
  }

  @Test
  void theGoldenMergeOnReadTableReadsWithHudiAsItsExpectedFilesSay() throws IOException {
    Path golden = Path.of(System.getProperty("sluice.golden.dir", "../sluice-core/src/test/resources/golden"));
    Path table = dir.resolve("mor_partitioned");
    // files only, as a git checkout has them (no empty folders)
    try (Stream<Path> files = Files.walk(golden.resolve("mor_partitioned"))) {
      for (Path f : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
        Path target = table.resolve(golden.resolve("mor_partitioned").relativize(f).toString());
        Files.createDirectories(target.getParent());
        Files.copy(f, target);
      }
    }
    for (String query : List.of("snapshot", "read_optimized")) {
      String suffix = query.equals("snapshot") ? ".expected.jsonl" : ".read_optimized.jsonl";
      List<String> expected = Files.readAllLines(golden.resolve("mor_partitioned" + suffix), StandardCharsets.UTF_8);
      assertEquals(expected, oracle.run(List.of("read", "--table", table.toString(), "--query", query)), query);
    }
  }

  /** A row of {@link #SCHEMA}; a null name also leaves the address's zip null. */
  static GenericRecord row(String id, long ts, String part, String name, String... tags) {
    GenericRecord address = new GenericData.Record(ADDRESS);
    address.put("city", "c-" + id);
    address.put("zip", name == null ? null : (int) ts);
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("id", id);
    r.put("ts", ts);
    r.put("part", part);
    r.put("name", name);
    r.put("score", ts * 1.25);
    r.put("address", address);
    r.put("tags", new ArrayList<>(List.of(tags)));
    r.put("_hoodie_is_deleted", false);
    return r;
  }

  /** Every row of {@code scan}, meta columns included. */
  static List<GenericRecord> rows(Scan scan) {
    List<GenericRecord> out = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = scan.withMetaColumns(true).open()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  /** Rows by record key: field name → Avro's text of the value, so both engines' Java types compare. */
  static Map<String, Map<String, String>> byKey(List<GenericRecord> rows) {
    Map<String, Map<String, String>> out = new TreeMap<>();
    for (GenericRecord r : rows) {
      Map<String, String> fields = new LinkedHashMap<>();
      for (Schema.Field f : r.getSchema().getFields()) {
        fields.put(f.name(), GenericData.get().toString(r.get(f.pos())));
      }
      Map<String, String> previous = out.put(String.valueOf(r.get("_hoodie_record_key")), fields);
      assertEquals(null, previous, "one row per key");
    }
    return out;
  }

  /** Sluice's latest slices in the oracle's form and order. */
  private static List<OracleFileSlice> slices(Table t) {
    FileSystemView view = TableInternals.fileSystemView(t);
    List<OracleFileSlice> out = new ArrayList<>();
    for (String p : view.partitions()) {
      for (FileSlice s : view.latestSlices(p)) {
        out.add(new OracleFileSlice(p, s.fileId(), s.baseInstant(), s.baseFile().map(b -> b.fileName()),
            s.logFiles().stream().map(LogFile::fileName).collect(Collectors.toList())));
      }
    }
    out.sort(Comparator.comparing(OracleFileSlice::partition).thenComparing(OracleFileSlice::fileId));
    return out;
  }

  private static List<LogFile> logFiles(Table t) {
    FileSystemView view = TableInternals.fileSystemView(t);
    List<LogFile> out = new ArrayList<>();
    for (String p : view.partitions()) {
      view.latestSlices(p).forEach(s -> out.addAll(s.logFiles()));
    }
    return out;
  }

  private static Map<String, String> with(Map<String, String> m, String k, String v) {
    Map<String, String> out = new LinkedHashMap<>(m);
    out.put(k, v);
    return out;
  }

  private static Map<String, String> without(Map<String, String> m, String k) {
    Map<String, String> out = new LinkedHashMap<>(m);
    out.remove(k);
    return out;
  }
}
