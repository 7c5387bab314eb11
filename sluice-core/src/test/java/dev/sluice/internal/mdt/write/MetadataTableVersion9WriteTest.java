package dev.sluice.internal.mdt.write;

import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CommitResult;
import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.mdt.read.ListingCheck;
import dev.sluice.internal.mdt.read.MetadataTableVersion9Test;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The metadata table of table versions 8 and 9 kept in Hudi 1.x's form: itself a Merge-on-Read table of the data
 * table's version with timeline layout 2, initialized at {@code 00000000000000000}, one log file per deltacommit
 * named after it, Avro commit metadata, compaction and clean at new instant times, a data-table rollback mirrored by
 * a metadata rollback at the same instant that deletes the rolled-back deltacommit's log file. After every action its
 * {@code files} partition lists what storage holds, and Sluice's reader of 1.x metadata tables trusts it.
 */
class MetadataTableVersion9WriteTest {
  private static final String TL = ".hoodie/metadata/.hoodie/timeline";

  @TempDir
  Path dir;

  private final Storage storage = new LocalStorage();

  private Table create(TableType type, int version, Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(Map.of("hoodie.metadata.enable", "true",
        "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000"));
    options.putAll(extra);
    return TripFixture.create(dir, TripFixture.spec().type(type).tableVersion(version).build(), options);
  }

  /** The files partition equals storage, and the 1.x reader finds the metadata table valid and equal to storage. */
  private void assertMirrors(String after) {
    assertEquals(List.of(), MetadataTableChecks.problems(storage, dir.toString()), after);
    Timeline data = new TimelineStore(storage, dir.toString()).load();
    MetadataTables.Availability a = MetadataTables.check(storage, dir.toString(), data,
        TableConfigStore.read(storage, dir.toString()), true);
    assertTrue(a.available(), after + ": " + a.reason());
    assertEquals(List.of(), ListingCheck.compare(a.reader().orElseThrow(), storage, dir.toString(), data)
        .differences(), after + ": the reader's listing");
  }

  private List<String> mdtTimeline() throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve(TL))) {
      return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private List<String> filesPartition() throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve(".hoodie/metadata/files"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".hoodie_partition")).sorted().toList();
    }
  }

  private static Properties properties(Path file) throws IOException {
    Properties p = new Properties();
    try (var in = Files.newInputStream(file)) {
      p.load(in);
    }
    return p;
  }

  @ParameterizedTest
  @CsvSource({"9, MERGE_ON_READ", "9, COPY_ON_WRITE", "8, MERGE_ON_READ"})
  void bootstrapThenEveryWriteMirroredInHudi1xForm(int version, TableType type) throws IOException {
    Table t = create(type, version, Map.of());
    CommitResult c1 = t.insert(trips(0, 20, 2, 1).iterator());
    Properties p = properties(dir.resolve(".hoodie/metadata/.hoodie/hoodie.properties"));
    // as Hudi 1.1.1 writes it (golden mor_v9_with_metadata_table), at the data table's version
    assertEquals(Integer.toString(version), p.getProperty("hoodie.table.version"));
    assertEquals(Integer.toString(version), p.getProperty("hoodie.table.initial.version"));
    assertEquals("2", p.getProperty("hoodie.timeline.layout.version"));
    assertEquals("timeline", p.getProperty("hoodie.timeline.path"));
    assertEquals("CUSTOM", p.getProperty("hoodie.record.merge.mode"));
    assertEquals("HOODIE_TABLE_METADATA", p.getProperty("hoodie.table.keygenerator.type"));
    assertEquals("MERGE_ON_READ", p.getProperty("hoodie.table.type"));
    assertEquals("HFILE", p.getProperty("hoodie.table.base.file.format"));
    assertEquals("trips_metadata", p.getProperty("hoodie.table.name"));
    assertEquals("files", properties(dir.resolve(".hoodie/hoodie.properties"))
        .getProperty("hoodie.table.metadata.partitions"));
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata/.hoodie/00000000000000010.deltacommit")),
        "nothing of layout 1");
    List<String> tl = mdtTimeline();
    assertTrue(tl.stream().anyMatch(n -> n.matches("00000000000000000_\\d{17}\\.deltacommit")), tl.toString());
    assertTrue(tl.stream().anyMatch(n -> n.matches(c1.instantTime() + "_\\d{17}\\.deltacommit")), tl.toString());
    // the initialization's base file and log, then the write's own log file named after its instant
    assertEquals(List.of(".files-0000-0_00000000000000000.log.1_0-0-0",
        ".files-0000-0_" + c1.instantTime() + ".log.1_0-0-0", "files-0000-0_0-0-0_00000000000000000.hfile"),
        filesPartition());
    // the deltacommit's metadata is an Avro container, its write stat names its own log only
    String completed = tl.stream().filter(n -> n.startsWith(c1.instantTime() + "_")).findFirst().orElseThrow();
    byte[] bytes = Files.readAllBytes(dir.resolve(TL).resolve(completed));
    assertEquals("Obj", new String(bytes, 0, 3, StandardCharsets.ISO_8859_1), "an Avro container");
    assertMirrors("after the insert");

    CommitResult c2 = t.upsert(List.of(trip("id-000002", 5, "p0", "x", 1), trip("new", 5, "p9", "n", 1)).iterator());
    assertMirrors("after an upsert into a new partition");
    t.delete(trips(0, 3, 2, 9).iterator());
    assertMirrors("after a delete");
    assertTrue(filesPartition().contains(".files-0000-0_" + c2.instantTime() + ".log.1_0-0-0"), filesPartition()
        .toString());
    assertEquals(0, filesPartition().stream().filter(n -> n.contains(".log.2_")).count(), "no log appended to");
  }

  /**
   * The metadata table's compaction at a new instant time after {@code hoodie.metadata.compact.max.delta.commits}
   * deltacommits, its clean, the data table's compaction and clean mirrored; deltacommits after it join its slice.
   */
  @Test
  void compactionAndCleanOfBothTables() throws IOException {
    Table t = create(TableType.MERGE_ON_READ, 9, Map.of("hoodie.metadata.compact.max.delta.commits", "3",
        "hoodie.compact.inline", "true", "hoodie.compact.inline.max.delta.commits", "2",
        "hoodie.cleaner.commits.retained", "1"));
    t.insert(trips(0, 10, 2, 1).iterator());
    for (int i = 2; i < 9; i++) {
      t.upsert(trips(0, 4, 2, i).iterator());
      assertMirrors("after upsert " + i);
    }
    List<String> tl = mdtTimeline();
    List<String> compactions = tl.stream().filter(n -> n.matches("\\d{17}_\\d{17}\\.commit")).toList();
    assertFalse(compactions.isEmpty(), "the metadata table compacted: " + tl);
    String first = compactions.get(0).substring(0, 17);
    assertFalse(first.startsWith("0000000000"), "a new instant time, no suffix: " + first);
    assertTrue(filesPartition().contains("files-0000-0_0-0-0_" + first + ".hfile"), filesPartition().toString());
    // every deltacommit that completed before the compaction's instant is folded in; those after join its slice
    Timeline mdt = new TimelineStore(storage, dir.resolve(".hoodie/metadata").toString()).load();
    for (Instant i : mdt.completed().filter(x -> x.action() == dev.sluice.internal.timeline.Action.DELTACOMMIT)
        .instants()) {
      assertTrue(i.time().compareTo(first) < 0 || mdt.completionTime(i).orElseThrow().compareTo(first) > 0,
          i + " completed at " + mdt.completionTime(i));
    }
    assertTrue(Files.list(dir.resolve(".hoodie/timeline")).anyMatch(f -> f.getFileName().toString()
        .matches("\\d{17}_\\d{17}\\.commit")), "the data table compacted too");
    assertTrue(Files.list(dir.resolve(".hoodie/timeline")).anyMatch(f -> f.getFileName().toString()
        .matches("\\d{17}_\\d{17}\\.clean")), "and cleaned");
    Map<String, GenericRecord> rows = TripFixture.rows(t);
    assertEquals(10, rows.size());
    assertEquals(8L, rows.get("id-000000").get("ts"), "the last upsert's version");
  }

  /**
   * A write that fails as its data-table instant completes, after its metadata deltacommit completed: rolled back at
   * once, the metadata rollback at the same instant deletes the deltacommit's log file; then rolling back a completed
   * write does the same. The files partition lists storage after each.
   */
  @ParameterizedTest
  @CsvSource({"MERGE_ON_READ, deltacommit", "COPY_ON_WRITE, commit"})
  void rollbacksAreMirroredByMetadataRollbacksThatDeleteTheLog(TableType type, String action) throws IOException {
    FailingStorage failing = new FailingStorage(new LocalStorage());
    Table t = Tables.create(failing.storage(), dir.toString(), TripFixture.spec().type(type).tableVersion(9).build(),
        Config.of(Map.of("hoodie.metadata.enable", "true", "hoodie.parquet.small.file.limit", "0",
            "hoodie.index.bloom.num_entries", "1000")));
    t.insert(trips(0, 10, 2, 1).iterator());
    failing.failOn(InterceptedStorage.Op.CREATE_EXCLUSIVE, 1,
        q -> q.matches(".*/\\.hoodie/timeline/\\d+_\\d+\\." + action));
    assertThrows(SluiceException.class, () -> t.upsert(List.of(trip("id-000001", 9, "p1", "never", 1),
        trip("zz", 9, "p7", "never", 1)).iterator()));
    failing.heal();
    List<String> tl = mdtTimeline();
    String rollback = tl.stream().filter(n -> n.matches("\\d{17}_\\d{17}\\.rollback")).findFirst()
        .orElseThrow(() -> new AssertionError("a metadata rollback: " + tl));
    List<String> dataTl = Files.list(dir.resolve(".hoodie/timeline")).map(f -> f.getFileName().toString()).toList();
    assertTrue(dataTl.stream().anyMatch(n -> n.startsWith(rollback.substring(0, 17) + "_") && n.endsWith(".rollback")),
        "at the data-table rollback's instant: " + dataTl + " vs " + rollback);
    assertEquals(2, filesPartition().stream().filter(n -> n.contains(".log.")).count(),
        "the failed write's metadata log is deleted: " + filesPartition());
    assertMirrors("after the failed write");

    CommitResult last = t.upsert(List.of(trip("id-000002", 9, "p0", "y", 1), trip("q", 9, "p8", "q", 1))
        .iterator());
    assertMirrors("after the next write");
    t.rollback(last.instantTime());
    assertFalse(filesPartition().stream().anyMatch(n -> n.contains(last.instantTime())), filesPartition().toString());
    assertFalse(mdtTimeline().stream().anyMatch(n -> n.startsWith(last.instantTime())), mdtTimeline().toString());
    assertMirrors("after rolling back a completed write");
    assertFalse(TripFixture.rows(t).containsKey("q"));
  }

  private static final Schema GOLDEN = SchemaBuilder.record("row").namespace("golden").fields().requiredString("id")
      .requiredLong("ts").requiredString("part").requiredString("name").endRecord();

  private static GenericRecord golden(String id, String part, String name) {
    GenericRecord r = new GenericData.Record(GOLDEN);
    r.put("id", id);
    r.put("ts", 100L);
    r.put("part", part);
    r.put("name", name);
    return r;
  }

  /**
   * A restore to a savepoint re-syncs the files partition with a delta commit at a new time after the restore's
   * (Hudi 1.x's {@code createRestoreInstantTime}), and the files partition lists storage again.
   */
  @Test
  void restoreResyncsAtANewTime() throws IOException {
    Table t = create(TableType.MERGE_ON_READ, 9, Map.of());
    String kept = t.insert(trips(0, 10, 2, 1).iterator()).instantTime();
    t.savepoint(java.util.Optional.of(kept));
    t.upsert(List.of(trip("id-000001", 5, "p1", "x", 1), trip("gone", 5, "p5", "g", 1)).iterator());
    t.insert(List.of(trip("other", 5, "p6", "o", 1)).iterator());
    assertMirrors("before the restore");
    t.restore(kept);
    assertMirrors("after the restore");
    assertFalse(TripFixture.rows(t).containsKey("gone"));
    List<String> restores = Files.list(dir.resolve(".hoodie/timeline")).map(f -> f.getFileName().toString())
        .filter(n -> n.matches("\\d{17}_\\d{17}\\.restore")).toList();
    assertEquals(1, restores.size(), restores.toString());
    String restore = restores.get(0).substring(0, 17);
    assertTrue(mdtTimeline().stream().anyMatch(n -> n.matches("\\d{17}_\\d{17}\\.deltacommit")
        && n.substring(0, 17).compareTo(restore) > 0), "a re-sync after the restore's instant: " + mdtTimeline());
    t.upsert(List.of(trip("id-000002", 7, "p0", "after", 1)).iterator());
    assertMirrors("after the next write");
  }

  /**
   * The metadata table's own timeline is archived into its LSM archived timeline ({@code timeline/history}) once it
   * has more instants than archival keeps, and its files partition still lists storage.
   */
  @Test
  void theMetadataTimelineArchivesIntoItsLsmHistory() throws IOException {
    Table t = create(TableType.COPY_ON_WRITE, 9, Map.of("hoodie.metadata.compact.max.delta.commits", "2",
        "hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3", "hoodie.cleaner.policy",
        "KEEP_LATEST_FILE_VERSIONS", "hoodie.cleaner.fileversions.retained", "1"));
    t.insert(trips(0, 10, 2, 1).iterator());
    for (int i = 2; i < 14; i++) {
      t.upsert(trips(0, 2, 2, i).iterator());
    }
    assertMirrors("after the writes");
    Path history = dir.resolve(TL).resolve("history");
    assertTrue(Files.exists(history.resolve("_version_")), "the metadata timeline archived: " + mdtTimeline());
    assertTrue(Files.list(dir.resolve(".hoodie/timeline/history")).anyMatch(f -> f.getFileName().toString()
        .endsWith(".parquet")), "and the data table's, behind the metadata table's compactions");
  }

  /** {@code sluice metadata delete} and {@code init} work on version 9 as on 6 (they were refused there). */
  @Test
  void deleteAndInitOnVersion9() throws IOException {
    Table t = create(TableType.MERGE_ON_READ, 9, Map.of());
    t.insert(trips(0, 10, 2, 1).iterator());
    assertTrue(t.deleteMetadataTable());
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")));
    assertEquals("", properties(dir.resolve(".hoodie/hoodie.properties"))
        .getProperty("hoodie.table.metadata.partitions"));
    assertTrue(t.initMetadataTable(false).partitionsEnabled().contains("files"));
    assertTrue(mdtTimeline().stream().anyMatch(n -> n.matches("00000000000000000_\\d{17}\\.deltacommit")),
        mdtTimeline().toString());
    assertMirrors("after init");
  }

  /**
   * A rollback of a commit older than the metadata table (its files are in the initialization's base file, which
   * sorts before every data instant on 1.x): tombstones take its files out, the listing stays exact.
   */
  @Test
  void rollbackOfACommitTheInitializationHolds() throws IOException {
    Table off = create(TableType.COPY_ON_WRITE, 9, Map.of("hoodie.metadata.enable", "false"));
    off.insert(trips(0, 10, 2, 1).iterator());
    String old = off.upsert(List.of(trip("id-000001", 5, "p0", "x", 1), trip("only-old", 5, "p7", "o", 1)).iterator())
        .instantTime();
    Table on = Tables.open(dir.toString(), Config.of(Map.of("hoodie.metadata.enable", "true",
        "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000")));
    String next = on.upsert(List.of(trip("id-000002", 6, "p0", "y", 1)).iterator()).instantTime();
    assertMirrors("after the metadata table was built");
    on.rollback(next);
    assertMirrors("after rolling back the write the metadata table mirrored");
    on.rollback(old);
    assertMirrors("after rolling back a write older than the metadata table");
    assertFalse(TripFixture.rows(on).containsKey("only-old"));
  }

  /** Asked for a record index on version 9, the table keeps it beside {@code files}, and the files partition stays exact. */
  @Test
  void theRecordIndexIsKeptOnVersion9() throws IOException {
    Table t = create(TableType.MERGE_ON_READ, 9, Map.of("hoodie.metadata.record.index.enable", "true",
        "hoodie.index.type", "RECORD_INDEX"));
    t.insert(trips(0, 10, 2, 1).iterator());
    t.upsert(trips(0, 5, 2, 2).iterator());
    assertEquals("files,record_index", properties(dir.resolve(".hoodie/hoodie.properties"))
        .getProperty("hoodie.table.metadata.partitions"));
    assertTrue(Files.exists(dir.resolve(".hoodie/metadata/record_index")));
    assertEquals(10, TripFixture.rows(t).size(), "the updates found their file groups");
    assertMirrors("with the record index");
  }

  /**
   * Sluice continues the metadata table Hudi 1.1.1 wrote (golden {@code mor_v9_with_metadata_table}): no rebuild (its
   * initialization and compactions stay), the partitions Sluice does not maintain are dropped (config first), the
   * write's deltacommit joins the slice of Hudi's latest compaction, and the files partition lists storage.
   */
  @Test
  void continuesTheMetadataTableHudi111Wrote() throws IOException {
    MetadataTableVersion9Test.golden(dir);
    List<String> before = mdtTimeline();
    Table t = Tables.open(dir.toString(), Config.of(Map.of("hoodie.index.bloom.num_entries", "1000")));
    CommitResult c = t.upsert(List.of(golden("k1", "p1", "sluice"), golden("k9", "p3", "new")).iterator());
    List<String> after = mdtTimeline();
    assertTrue(after.containsAll(before), "nothing of Hudi's metadata timeline is gone: " + before + " / " + after);
    assertTrue(after.stream().anyMatch(n -> n.matches(c.instantTime() + "_\\d{17}\\.deltacommit")), after.toString());
    assertEquals("files,record_index", properties(dir.resolve(".hoodie/hoodie.properties"))
        .getProperty("hoodie.table.metadata.partitions"));
    for (String gone : List.of("column_stats", "partition_stats")) {
      assertFalse(Files.exists(dir.resolve(".hoodie/metadata/" + gone)), gone + " is dropped");
    }
    assertTrue(filesPartition().contains(".files-0000-0_" + c.instantTime() + ".log.1_0-0-0"));
    assertMirrors("after Sluice's write");
    // Hudi's record index is kept and continued: the new key k9 is indexed where Sluice wrote it
    assertEquals(List.of(), RecordIndexChecks.problems(t, List.of("k1", "k2", "k3", "k4", "k5", "k6", "k9")));
    assertTrue(RecordIndexChecks.indexed(storage, dir.toString(), List.of("k9")).get("k9").startsWith("p3/"));
  }

  /**
   * Sluice tags through the record index Hudi 1.1.1 wrote (golden {@code mor_v9_with_metadata_table}): an update of a
   * key in another partition finds its file group (global, no duplicate), without falling back to a global lookup.
   */
  @Test
  void tagsThroughTheRecordIndexHudi111Wrote() throws IOException {
    MetadataTableVersion9Test.golden(dir);
    List<String> warnings = new java.util.ArrayList<>();
    java.util.logging.Logger jul = java.util.logging.Logger.getLogger("dev.sluice.internal.index.RecordLevelIndex");
    java.util.logging.Handler capture = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord r) {
        warnings.add(r.getMessage());
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    jul.addHandler(capture);
    try {
      Table t = Tables.open(dir.toString(), Config.of(Map.of("hoodie.index.type", "RECORD_INDEX")));
      Map<String, GenericRecord> before = TripFixture.rows(t);
      // k1 lives in p1; arriving in p2 it stays in p1 (update.partition.path off), as Hudi's global index does
      t.upsert(List.of(golden("k1", "p2", "tagged"), golden("k8", "p2", "new")).iterator());
      Map<String, GenericRecord> after = TripFixture.rows(t);
      assertEquals(before.size() + 1, after.size(), "one new key, no duplicate: " + after.keySet());
      assertEquals("tagged", after.get("k1").get("name").toString());
      assertTrue(RecordIndexChecks.truth(t).get("k1").startsWith("p1/"), "updated in its file group in p1");
      assertTrue(warnings.isEmpty(), "no fallback: " + warnings);
      assertEquals(List.of(), RecordIndexChecks.problems(t, List.of("k1", "k2", "k3", "k4", "k5", "k6", "k8")));
    } finally {
      jul.removeHandler(capture);
    }
  }
}
