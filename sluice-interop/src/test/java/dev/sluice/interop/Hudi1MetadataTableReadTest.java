package dev.sluice.interop;

import static dev.sluice.interop.MergeOnReadInteropTest.SCHEMA;
import static dev.sluice.interop.MergeOnReadInteropTest.byKey;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static dev.sluice.interop.MergeOnReadInteropTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.MetadataFileInfo;
import dev.sluice.api.MetadataTableView;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.mdt.read.MetadataTableReader;
import dev.sluice.internal.service.TableInternals;
import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice reads the metadata table of tables Hudi 1.1.1's Java client wrote at versions 9 and 8 (the metadata table
 * itself a table of timeline layout 2: one log file per deltacommit, slices by completion time) as Hudi 1.1.1 does:
 * its listing equals Hudi's metadata listing ({@code mdt-files}) and a listing of storage, reads through it list no
 * data partition, and record-index lookups give Hudi's locations. The tables have several commits, a failed write
 * rolled back by the next one, a compaction of the metadata table (after 3 deltacommits) and, for Merge-on-Read, of
 * the data table. A metadata table the data table has outgrown is not used: the listing falls back to storage and
 * says why.
 */
class Hudi1MetadataTableReadTest {

  /** The metadata table on, compacted every 3 deltacommits; updates go to logs. */
  private static final Map<String, String> HUDI = Map.of("hoodie.metadata.enable", "true",
      "hoodie.metadata.compact.max.delta.commits", "3", "hoodie.parquet.small.file.limit", "0",
      "hoodie.index.bloom.num_entries", "1000");
  private static final List<String> KEYS = List.of("k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10",
      "absent");

  private static HudiOracle oracle;
  private static Written morV9;
  private static Written cowV8;
  private static Path partitionedIndex;
  /** Hudi 1.1.1's lookup of each key in its own partition: Hudi routes all keys of one call by the first key's hash. */
  private static Map<String, OracleBatch.Pending<Map<String, String>>> partitionedLookups = new TreeMap<>();

  @TempDir
  static Path shared;

  @TempDir
  Path dir;

  /** What one table's batch wrote and what Hudi read back. */
  private record Written(Path path, OracleBatch.Pending<List<GenericRecord>> snapshot,
      OracleBatch.Pending<Map<String, Map<String, Long>>> listing,
      Optional<OracleBatch.Pending<Map<String, String>>> recordIndex) {
  }

  /**
   * Both tables in one oracle JVM: a version-9 Merge-on-Read table with the record index (4 file groups), and a
   * version-8 Copy-on-Write table.
   */
  @BeforeAll
  static void writeTables() {
    oracle = HudiOracle.locateHudi1();
    OracleBatch batch = oracle.batch();
    morV9 = write(batch, shared.resolve("mor_v9_rli"), "MERGE_ON_READ", List.of(),
        Map.of("hoodie.metadata.record.index.enable", "true", "hoodie.metadata.record.index.min.filegroup.count", "4"),
        true);
    cowV8 = write(batch, shared.resolve("cow_v8"), "COPY_ON_WRITE", List.of("--table-version", "8"), Map.of(), false);
    // Hudi 1.1's partitioned record index: file groups record-index-<partition>-NNNN-0, two per data partition
    partitionedIndex = shared.resolve("cow_v9_partitioned_rli");
    Map<String, String> conf = new HashMap<>(HUDI);
    conf.put("hoodie.metadata.record.level.index.enable", "true");
    conf.put("hoodie.metadata.record.level.index.min.filegroup.count", "2");
    batch.create(partitionedIndex, OracleTableSpec.builder("cow_v9_partitioned_rli", SCHEMA).recordKey("id")
        .precombine("ts").partitionBy("part").copyOnWrite().build(), List.of());
    batch.write(partitionedIndex, "insert", SCHEMA, List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p1", "b"),
        row("k3", 1, "p2", "c"), row("k4", 1, "p2", "d")), conf);
    batch.write(partitionedIndex, "upsert", SCHEMA, List.of(row("k1", 2, "p1", "a2"), row("k5", 1, "p2", "e")), conf);
    for (String key : List.of("k1 p1", "k2 p1", "k3 p2", "k4 p2", "k5 p2", "absent p1", "k3 p1")) {
      String[] kp = key.split(" ");
      partitionedLookups.put(key, batch.metadataRecordIndex(partitionedIndex, List.of(kp[0]), Optional.of(kp[1])));
    }
    batch.run();
  }

  private static Written write(OracleBatch batch, Path path, String type, List<String> createOptions,
      Map<String, String> extraConf, boolean recordIndex) {
    Map<String, String> conf = new HashMap<>(HUDI);
    conf.putAll(extraConf);
    String name = path.getFileName().toString();
    OracleTableSpec.Builder spec = OracleTableSpec.builder(name, SCHEMA).recordKey("id").precombine("ts")
        .partitionBy("part");
    spec = type.equals("MERGE_ON_READ") ? spec.mergeOnRead() : spec.copyOnWrite();
    batch.create(path, spec.build(), createOptions);
    batch.write(path, "insert", SCHEMA, List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p1", "b"),
        row("k3", 1, "p1", "c"), row("k4", 1, "p2", "d"), row("k5", 1, "p2", "e"), row("k6", 1, "p2", "f")), conf);
    batch.write(path, "upsert", SCHEMA, List.of(row("k1", 5, "p1", "a5"), row("k4", 5, "p2", "d5"),
        row("k7", 2, "p1", "g")), conf);
    batch.write(path, "delete", SCHEMA, List.of(row("k3", 0, "p1", null)), conf);
    // a write that fails before it commits; the next write rolls it back (its files deleted, as 1.x does)
    batch.write(path, "upsert", SCHEMA, List.of(row("k2", 99, "p1", "never"), row("k9", 99, "p2", "never")), conf,
        List.of("--uncommitted"));
    batch.write(path, "upsert", SCHEMA, List.of(row("k6", 7, "p2", "f7"), row("k8", 3, "p2", "h")), conf);
    if (type.equals("MERGE_ON_READ")) {
      batch.write(path, "compact", SCHEMA, List.of(), conf);
    }
    batch.write(path, "upsert", SCHEMA, List.of(row("k1", 8, "p1", "a8"), row("k10", 3, "p3", "j")), conf);
    batch.write(path, "upsert", SCHEMA, List.of(row("k4", 9, "p2", "d9")), conf);
    OracleBatch.Pending<List<GenericRecord>> snapshot = batch.read(path, "snapshot", Optional.empty(), true);
    OracleBatch.Pending<Map<String, Map<String, Long>>> listing = batch.metadataListing(path);
    Optional<OracleBatch.Pending<Map<String, String>>> index = recordIndex
        ? Optional.of(batch.metadataRecordIndex(path, KEYS, Optional.empty())) : Optional.empty();
    return new Written(path, snapshot, listing, index);
  }

  /**
   * Sluice's listing through the metadata table is Hudi's and storage's, a read through it lists no data partition
   * and gives Hudi's rows, and {@code validate} finds no difference.
   */
  private static void assertListsAsHudi(Written w, int version) throws IOException {
    Path path = w.path();
    assertTrue(hasMetadataCompaction(path), "Hudi compacted the metadata table: " + timelineFiles(path));
    Map<String, Map<String, Long>> onDisk = MetadataListingOracleTest.listing(path);
    assertEquals(onDisk, w.listing().get(), "Hudi 1.1.1's metadata listing is the storage listing");

    Table table = Tables.open(path.toString());
    assertEquals(version, table.tableVersion());
    MetadataTableView mdt = table.metadataTable();
    assertTrue(mdt.usedForListings(), mdt.status());
    assertEquals(w.listing().get(), sizes(mdt.files()), "Sluice's metadata listing vs Hudi 1.1.1's");
    assertEquals(List.of(), mdt.validate().differences(), "validate: the metadata table matches storage");

    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table viaMetadata = Tables.open(counting.storage(), path.toString(), Config.of(Map.of()));
    Map<String, Map<String, String>> rows = byKey(rows(viaMetadata.newScan()));
    String base = path.toString();
    for (String listed : counting.listed()) {
      String rel = listed.equals(base) ? "" : listed.substring(base.length() + 1);
      assertTrue(rel.startsWith(".hoodie"), "a data folder was listed: '" + rel + "' in " + counting.listed());
    }
    assertTrue(counting.listed().contains(path.resolve(".hoodie/metadata/files").toString()),
        "the metadata table's files partition was listed: " + counting.listed());
    assertEquals(byKey(w.snapshot().get()), rows, "rows read through the metadata table vs Hudi 1.1.1's");
    Table viaStorage = Tables.open(path.toString(), Config.of(Map.of("hoodie.metadata.enable", "false")));
    assertEquals(rows, byKey(rows(viaStorage.newScan())), "rows read through a storage listing");
    assertFalse(rows.containsKey("k3") || rows.containsKey("k9"), rows.keySet().toString());
  }

  @Test
  void mergeOnReadVersion9WithRecordIndexListsAndLooksUpAsHudi() throws IOException {
    assertListsAsHudi(morV9, 9);
    Table table = Tables.open(morV9.path().toString());
    MetadataTableReader reader = MetadataTableReader.open(new LocalStorage(), morV9.path().toString(),
        TableInternals.timeline(table)).orElseThrow();
    assertFalse(reader.recordIndexPartitioned());
    Map<String, String> sluice = new TreeMap<>();
    for (Map.Entry<String, RecordLocation> e : reader.recordLocations(KEYS).entrySet()) {
      sluice.put(e.getKey(), e.getValue().partition() + "/" + e.getValue().fileId());
    }
    Map<String, String> hudi = morV9.recordIndex().orElseThrow().get();
    assertEquals(8, hudi.size(), "the live keys k1, k2, k4..k8, k10: " + hudi);
    assertEquals(hudi, sluice, "record-index lookups: Sluice vs Hudi 1.1.1");
  }

  @Test
  void copyOnWriteVersion8ListsAsHudi() throws IOException {
    assertListsAsHudi(cowV8, 8);
  }

  /**
   * Hudi 1.1's partitioned record index: a key is looked up among its data partition's file groups only, as Hudi
   * 1.1.1 does; a lookup across all partitions is refused, as in Hudi 1.1.1 (which cannot prune files for it).
   */
  @Test
  void aPartitionedRecordIndexIsLookedUpPerPartitionAsHudi() {
    Table table = Tables.open(partitionedIndex.toString());
    MetadataTableReader reader = MetadataTableReader.open(new LocalStorage(), partitionedIndex.toString(),
        TableInternals.timeline(table)).orElseThrow();
    assertTrue(reader.recordIndexPartitioned());
    Map<String, String> all = new TreeMap<>();
    for (Map.Entry<String, OracleBatch.Pending<Map<String, String>>> e : partitionedLookups.entrySet()) {
      String[] kp = e.getKey().split(" ");
      Map<String, String> sluice = new TreeMap<>();
      reader.recordLocations(kp[1], List.of(kp[0])).forEach((k, l) -> sluice.put(k, l.partition() + "/" + l.fileId()));
      assertEquals(e.getValue().get(), sluice, "lookup of " + e.getKey() + ": Sluice vs Hudi 1.1.1");
      all.putAll(sluice);
    }
    assertEquals(List.of("k1", "k2", "k3", "k4", "k5"), List.copyOf(all.keySet()));
    Map<String, String> batched = new TreeMap<>();
    reader.recordLocations("p2", List.of("k3", "k4", "k5", "k1")).forEach((k, l) -> batched.put(k, l.partition() + "/"
        + l.fileId()));
    assertEquals(Map.of("k3", all.get("k3"), "k4", all.get("k4"), "k5", all.get("k5")), batched,
        "several keys of a partition, each routed to its own file group");
    SluiceException e = assertThrows(SluiceException.class, () -> reader.recordLocations(List.of("k1")));
    assertEquals(SluiceException.Kind.UNSUPPORTED, e.kind());
  }

  /**
   * Sluice keeps Hudi 1.1's partitioned record index: upserts, inserts and deletes (Copy-on-Write rewrites and a
   * new data partition, which gets its own file group as Hudi gives it) put each key's entry into a file group of its
   * data partition, compactions of the metadata table included (every second deltacommit here). Hudi 1.1.1's own
   * per-partition lookup then finds exactly the live keys at the file groups that hold their rows, and Hudi 1.1.1
   * upserts on without duplicates, its metadata writer appending to the file groups Sluice made (its Java client
   * cannot tag with {@code RECORD_LEVEL_INDEX}: it tags with its default index).
   */
  @Test
  void aWriteMaintainsAPartitionedRecordIndexThatHudiLooksUpAndWritesOn() throws IOException {
    Path copy = copy(partitionedIndex, dir.resolve("partitioned"));
    Table table = Tables.open(new LocalStorage(), copy.toString(),
        Config.of(Map.of("hoodie.metadata.compact.max.delta.commits", "2")));
    table.upsert(List.of(row("k1", 3, "p1", "a3"), row("k6", 1, "p2", "f"), row("k7", 1, "p3", "g")).iterator());
    table.delete(List.of(row("k2", 9, "p1", null), row("k4", 9, "p2", null)).iterator());
    table.upsert(List.of(row("k7", 2, "p3", "g2"), row("k8", 1, "p3", "h"), row("k3", 4, "p2", "c4")).iterator());
    String props = Files.readString(copy.resolve(".hoodie/hoodie.properties"));
    assertTrue(props.contains("hoodie.table.metadata.partitions=files,record_index\n"), props);
    assertTrue(hasMetadataCompaction(copy), "the metadata table was compacted: " + timelineFiles(copy));
    try (Stream<Path> s = Files.list(copy.resolve(".hoodie/metadata/record_index"))) {
      List<String> names = s.map(p -> p.getFileName().toString()).toList();
      assertTrue(names.stream().anyMatch(n -> n.startsWith("record-index-p3-0000-0_")), names.toString());
      // p3's file group exists only since Sluice's first write: a base file of it is Sluice's compaction of it
      assertTrue(names.stream().anyMatch(n -> n.startsWith("record-index-p3-0000-0_") && n.endsWith(".hfile")),
          "the new partition's file group was compacted: " + names);
      assertFalse(names.stream().anyMatch(n -> n.matches("record-index-\\d{4}-0_.*")), "no global file group: " + names);
    }
    Map<String, Map<String, String>> rows = byKey(rows(Tables.open(copy.toString()).newScan()));
    Map<String, String> expected = new TreeMap<>();
    rows.forEach((k, r) -> expected.put(k, text(r.get("_hoodie_partition_path")) + "/"
        + fileIdOf(text(r.get("_hoodie_file_name")))));
    assertEquals(List.of("k1", "k3", "k5", "k6", "k7", "k8"), List.copyOf(expected.keySet()));

    Map<String, String> conf = new HashMap<>(HUDI);
    conf.put("hoodie.metadata.record.level.index.enable", "true");
    conf.put("hoodie.metadata.record.level.index.min.filegroup.count", "2");
    OracleBatch batch = oracle.batch();
    Map<String, OracleBatch.Pending<Map<String, String>>> lookups = new TreeMap<>();
    for (String p : List.of("p1", "p2", "p3")) {
      for (String k : List.of("k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8")) {
        lookups.put(k + " " + p, batch.metadataRecordIndex(copy, List.of(k), Optional.of(p)));
      }
    }
    batch.write(copy, "upsert", SCHEMA, List.of(row("k7", 5, "p3", "g5"), row("k5", 5, "p2", "e5"),
        row("k9", 1, "p3", "i")), conf);
    OracleBatch.Pending<List<GenericRecord>> after = batch.read(copy, "snapshot", Optional.empty(), true);
    batch.run();
    Map<String, String> hudi = new TreeMap<>();
    lookups.forEach((kp, found) -> found.get().forEach((k, at) -> {
      assertEquals(null, hudi.put(k, at), "key " + k + " found in one partition only (" + kp + ")");
    }));
    assertEquals(expected, hudi, "Hudi 1.1.1's lookups: the live keys at the file groups holding their rows");
    Map<String, Map<String, String>> hudiRows = byKey(after.get());
    assertEquals(List.of("k1", "k3", "k5", "k6", "k7", "k8", "k9"), List.copyOf(hudiRows.keySet()));
    assertEquals("\"g5\"", hudiRows.get("k7").get("name"));
    assertEquals("\"e5\"", hudiRows.get("k5").get("name"));
    assertEquals("\"a3\"", hudiRows.get("k1").get("name"));
  }

  /**
   * A Sluice commit that gave a new data partition its record-index file group, rolled back: the file group goes
   * with the commit's metadata deltacommit, so Hudi 1.1.1 finds none of its keys and, writing into that partition
   * afterwards, makes the partition's file group itself.
   */
  @Test
  void aRolledBackWriteTakesTheNewPartitionsRecordIndexFileGroupWithIt() throws IOException {
    Path copy = copy(partitionedIndex, dir.resolve("rolledback"));
    Table table = Tables.open(copy.toString());
    String instant = table.upsert(List.of(row("k7", 1, "p3", "g"), row("k1", 4, "p1", "a4")).iterator()).instant()
        .orElseThrow();
    assertTrue(recordIndexFiles(copy).stream().anyMatch(n -> n.startsWith("record-index-p3-")));
    table.rollback(instant);
    assertFalse(recordIndexFiles(copy).stream().anyMatch(n -> n.startsWith("record-index-p3-")),
        recordIndexFiles(copy).toString());
    Map<String, String> conf = new HashMap<>(HUDI);
    conf.put("hoodie.metadata.record.level.index.enable", "true");
    conf.put("hoodie.metadata.record.level.index.min.filegroup.count", "2");
    OracleBatch batch = oracle.batch();
    OracleBatch.Pending<Map<String, String>> k7 = batch.metadataRecordIndex(copy, List.of("k7"), Optional.of("p1"));
    OracleBatch.Pending<Map<String, String>> k1 = batch.metadataRecordIndex(copy, List.of("k1"), Optional.of("p1"));
    batch.write(copy, "upsert", SCHEMA, List.of(row("k8", 1, "p3", "h")), conf);
    OracleBatch.Pending<Map<String, String>> k8 = batch.metadataRecordIndex(copy, List.of("k8"), Optional.of("p3"));
    OracleBatch.Pending<List<GenericRecord>> after = batch.read(copy, "snapshot", Optional.empty(), true);
    batch.run();
    assertEquals(Map.of(), k7.get());
    assertEquals(List.of("k1"), List.copyOf(k1.get().keySet()));
    assertEquals(List.of("k8"), List.copyOf(k8.get().keySet()), "Hudi made p3's file groups and indexed k8");
    Map<String, Map<String, String>> rows = byKey(after.get());
    assertEquals(List.of("k1", "k2", "k3", "k4", "k5", "k8"), List.copyOf(rows.keySet()));
    assertEquals("\"a2\"", rows.get("k1").get("name"), "the rolled-back update is gone");
  }

  private static List<String> recordIndexFiles(Path table) throws IOException {
    try (Stream<Path> s = Files.list(table.resolve(".hoodie/metadata/record_index"))) {
      return s.map(p -> p.getFileName().toString().replaceFirst("^\\.", "")).sorted().toList();
    }
  }

  /** A string field as {@code byKey} shows it, without Avro's quotes. */
  private static String text(String shown) {
    return shown.substring(1, shown.length() - 1);
  }

  private static String fileIdOf(String fileName) {
    return fileName.substring(0, fileName.indexOf('_'));
  }

  /**
   * Hudi 1.x's validity rule for metadata deltacommits: one whose data-table instant is pending (a write that failed
   * after the metadata table took its files) is not read; one whose data-table instant is gone from the active
   * timeline (archived, or removed) is read, where Hudi 0.15's rule (only completed data instants) would drop it.
   * Hudi 1.1.1's listing of both tables is the judge.
   */
  @Test
  void aDeltacommitOfAPendingDataInstantIsSkippedAndOneOfAVanishedInstantIsRead() throws IOException {
    Path pending = copy(morV9.path(), dir.resolve("pending"));
    Path vanished = copy(morV9.path(), dir.resolve("vanished"));
    String last = lastCompletedWrite(pending.resolve(".hoodie/timeline"));
    deleteTimelineFiles(pending.resolve(".hoodie/timeline"), n -> n.startsWith(last + "_"));
    deleteTimelineFiles(vanished.resolve(".hoodie/timeline"), n -> n.startsWith(last));
    OracleBatch batch = oracle.batch();
    OracleBatch.Pending<Map<String, Map<String, Long>>> hudiPending = batch.metadataListing(pending);
    OracleBatch.Pending<Map<String, Map<String, Long>>> hudiVanished = batch.metadataListing(vanished);
    batch.run();

    Map<String, Map<String, Long>> sluicePending = sizes(Tables.open(pending.toString()).metadataTable().files());
    assertEquals(hudiPending.get(), sluicePending, "pending data instant: Sluice vs Hudi 1.1.1");
    assertFalse(sluicePending.toString().contains(last), "the pending write's log file is not listed: " + sluicePending);
    MetadataTableView vanishedView = Tables.open(vanished.toString()).metadataTable();
    assertTrue(vanishedView.usedForListings(), vanishedView.status());
    Map<String, Map<String, Long>> sluiceVanished = sizes(vanishedView.files());
    assertEquals(hudiVanished.get(), sluiceVanished, "vanished data instant: Sluice vs Hudi 1.1.1");
    assertTrue(sluiceVanished.toString().contains(last), "the deltacommit is trusted: " + sluiceVanished);
  }

  /**
   * A metadata table that misses a completed data commit (its deltacommit never completed) is not used: Sluice says
   * why, lists storage and reads every row, where Hudi 1.1.1's metadata listing would miss the commit's file.
   */
  @Test
  void aMetadataTableBehindTheDataTableFallsBackToAStorageListing() throws IOException {
    Path stale = copy(cowV8.path(), dir.resolve("stale"));
    String last = lastCompletedWrite(stale.resolve(".hoodie/timeline"));
    deleteTimelineFiles(stale.resolve(".hoodie/metadata/.hoodie/timeline"), n -> n.startsWith(last + "_"));
    MetadataTableView view = Tables.open(stale.toString()).metadataTable();
    assertFalse(view.usedForListings());
    assertEquals("the metadata table is behind the data table: its commit " + last
        + " has no completed metadata deltacommit", view.status());
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table table = Tables.open(counting.storage(), stale.toString(), Config.of(Map.of()));
    assertEquals(byKey(cowV8.snapshot().get()), byKey(rows(table.newScan())), "every row, from a storage listing");
    assertTrue(counting.listed().contains(stale.resolve("p2").toString()), "storage listed: " + counting.listed());
  }

  /** The requested time of the newest completed commit or deltacommit of a layout-2 timeline folder. */
  private static String lastCompletedWrite(Path timeline) throws IOException {
    try (Stream<Path> s = Files.list(timeline)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d+_\\d+\\.(commit|deltacommit)"))
          .map(n -> n.substring(0, n.indexOf('_'))).max(String::compareTo).orElseThrow();
    }
  }

  private static void deleteTimelineFiles(Path timeline, java.util.function.Predicate<String> names)
      throws IOException {
    try (Stream<Path> s = Files.list(timeline)) {
      for (Path p : s.filter(p -> Files.isRegularFile(p) && names.test(p.getFileName().toString())).toList()) {
        Files.delete(p);
      }
    }
  }

  private static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }

  private static boolean hasMetadataCompaction(Path table) throws IOException {
    return timelineFiles(table).stream().anyMatch(n -> n.matches("\\d+_\\d+\\.commit"));
  }

  private static List<String> timelineFiles(Path table) throws IOException {
    try (Stream<Path> s = Files.list(table.resolve(".hoodie/metadata/.hoodie/timeline"))) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static Map<String, Map<String, Long>> sizes(Map<String, List<MetadataFileInfo>> files) {
    Map<String, Map<String, Long>> out = new TreeMap<>();
    files.forEach((p, list) -> {
      Map<String, Long> m = new TreeMap<>();
      list.forEach(f -> m.put(f.name(), f.size()));
      out.put(p, m);
    });
    return out;
  }
}
