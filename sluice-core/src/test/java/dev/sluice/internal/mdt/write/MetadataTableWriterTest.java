package dev.sluice.internal.mdt.write;

import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogReader;
import dev.sluice.internal.mdt.FilesRecord;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetadataTableWriterTest {
  private static final Map<String, String> ON = Map.of("hoodie.metadata.enable", "true");

  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();

  private Table create(TableType type, Map<String, String> options) {
    return TripFixture.create(dir, TripFixture.spec().tableVersion(6).type(type).build(), options);
  }

  private Timeline mdtTimeline() {
    return new TimelineStore(storage, dir.resolve(".hoodie/metadata").toString()).load();
  }

  private Timeline dtTimeline() {
    return new TimelineStore(storage, dir.toString()).load();
  }

  /** The files partition as its completed deltacommits merge, partition to live file names. */
  private Map<String, List<String>> mdtListing() {
    Timeline tl = mdtTimeline();
    Map<String, FilesRecord> merged = FilesPartitionState.load(storage, dir.resolve(".hoodie/metadata/files")
        .toString(), tl).merged(storage, tl);
    Map<String, List<String>> out = new TreeMap<>();
    for (String p : merged.get(FilesRecord.ALL_PARTITIONS).live()) {
      FilesRecord files = merged.get(p);
      out.put(FilesRecord.partitionPath(p), files == null ? List.of() : files.live());
    }
    return out;
  }

  /** The data files on storage, partition to names. */
  private Map<String, List<String>> realListing() {
    Map<String, List<String>> out = new TreeMap<>();
    DataFiles.list(storage, dir.toString(), t -> true).forEach((p, files) -> out.put(p, List.copyOf(files.keySet())));
    return out;
  }

  @Test
  void bootstrapOfANewTableThenEveryCommitMirroredAtItsInstant() throws IOException {
    Table t = create(TableType.COPY_ON_WRITE, ON);
    String c1 = t.insert(trips(0, 20, 2, 1).iterator()).instantTime();
    Path mdt = dir.resolve(".hoodie/metadata");
    // the metadata table's config as Hudi 0.15 writes it, checksum CRC32(".trips_metadata")
    Properties p = new Properties();
    try (var in = Files.newInputStream(mdt.resolve(".hoodie/hoodie.properties"))) {
      p.load(in);
    }
    assertEquals("MERGE_ON_READ", p.getProperty("hoodie.table.type"));
    assertEquals("trips_metadata", p.getProperty("hoodie.table.name"));
    assertEquals("HFILE", p.getProperty("hoodie.table.base.file.format"));
    assertEquals("false", p.getProperty("hoodie.populate.meta.fields"));
    assertEquals("key", p.getProperty("hoodie.table.recordkey.fields"));
    assertEquals("org.apache.hudi.metadata.HoodieMetadataPayload", p.getProperty("hoodie.compaction.payload.class"));
    assertEquals("org.apache.hudi.metadata.HoodieTableMetadataKeyGenerator",
        p.getProperty("hoodie.table.keygenerator.class"));
    assertEquals("6", p.getProperty("hoodie.table.version"));
    assertEquals(Long.toString(TableConfigStore.checksum("", "trips_metadata")), p.getProperty("hoodie.table.checksum"));
    String partitionMeta = Files.readString(mdt.resolve("files/.hoodie_partition_metadata"));
    assertTrue(partitionMeta.contains("commitTime=00000000000000010"), partitionMeta);
    assertTrue(partitionMeta.contains("partitionDepth=1"), partitionMeta);
    // the initialization of the empty table, then the commit's mirror at the same instant
    assertEquals(List.of("00000000000000010", c1), mdtTimeline().completed().instants().stream()
        .map(Instant::time).toList());
    assertTrue(Files.exists(mdt.resolve("files/files-0000-0_0-0-0_00000000000000010.hfile")));
    Path firstLog = mdt.resolve("files/.files-0000-0_00000000000000010.log.1_0-0-0");
    try (LogReader r = LogReader.open(storage, firstLog.toString())) {
      LogBlock b = r.next();
      assertTrue(b instanceof DeleteBlock d && d.readAll().isEmpty(), "an empty delete block: " + b);
      assertEquals(Optional.of("00000000000000010"), b.instantTime());
      assertFalse(r.hasNext());
    }
    assertTrue(Files.exists(mdt.resolve("files/.files-0000-0_00000000000000010.log.2_0-0-0")));
    assertEquals(0, Files.size(mdt.resolve(".hoodie/" + c1 + ".deltacommit.requested")));
    assertEquals(0, Files.size(mdt.resolve(".hoodie/" + c1 + ".deltacommit.inflight")));
    CommitMetadata md = CommitMetadata.fromJson(Files.readAllBytes(mdt.resolve(".hoodie/" + c1 + ".deltacommit")));
    assertEquals(WriteOperationType.UPSERT_PREPPED, md.operationType());
    WriteStat s = md.partitionToWriteStats().get("files").get(0);
    assertEquals("files-0000-0", s.fileId());
    assertEquals(Optional.of("files/.files-0000-0_00000000000000010.log.2_0-0-0"), s.path());
    assertEquals("00000000000000010", s.prevCommit());
    assertEquals(2, s.logVersion());
    TableConfig dt = TableConfigStore.read(storage, dir.toString());
    assertEquals(List.of("files"), dt.metadataPartitions());
    assertEquals(Optional.of(""), dt.get(TableConfig.METADATA_PARTITIONS_INFLIGHT));

    t.upsert(trips(10, 20, 2, 2).iterator());
    t.delete(trips(0, 5, 2, 3).iterator());
    assertEquals(realListing(), mdtListing());
    assertEquals(List.of("p0", "p1"), List.copyOf(mdtListing().keySet()));
  }

  @Test
  void bootstrapOfAnExistingTableListsItsFilesAtTheLatestInstant() {
    Table off = create(TableType.MERGE_ON_READ, Map.of("hoodie.metadata.enable", "false"));
    off.insert(trips(0, 30, 3, 1).iterator());
    String last = off.upsert(trips(0, 10, 3, 2).iterator()).instantTime();
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")));

    Table on = Tables.open(dir.toString(), Config.of(withOn(Map.of())));
    String next = on.upsert(trips(5, 10, 3, 3).iterator()).instantTime();
    assertEquals(List.of(last + "010", next), mdtTimeline().completed().instants().stream().map(Instant::time).toList());
    assertTrue(Files.exists(dir.resolve(".hoodie/metadata/files/files-0000-0_0-0-0_" + last + "010.hfile")));
    assertEquals(realListing(), mdtListing());
  }

  @Test
  void noBootstrapWhileAnotherInstantIsPending() throws IOException {
    Table t = create(TableType.COPY_ON_WRITE, Map.of("hoodie.cleaner.policy.failed.writes", "NEVER",
        "hoodie.metadata.enable", "false"));
    t.insert(trips(0, 10, 2, 1).iterator());
    // a write that is still pending (its writer gone, never rolled back with NEVER)
    Files.createFile(dir.resolve(".hoodie/20200101000000000.commit.requested"));
    Table on = Tables.open(dir.toString(), Config.of(withOn(Map.of("hoodie.cleaner.policy.failed.writes", "NEVER"))));
    on.upsert(trips(0, 5, 2, 2).iterator());
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")), "Hudi refuses to initialize while an instant is pending");
    assertTrue(TableConfigStore.read(storage, dir.toString()).metadataPartitions().isEmpty());

    Files.delete(dir.resolve(".hoodie/20200101000000000.commit.requested"));
    on.upsert(trips(0, 5, 2, 3).iterator());
    assertEquals(realListing(), mdtListing());
  }

  @Test
  void partitionsSluiceDoesNotKeepAreDropped() throws IOException {
    Table t = create(TableType.COPY_ON_WRITE, ON);
    t.insert(trips(0, 10, 2, 1).iterator());
    Path mdt = dir.resolve(".hoodie/metadata");
    Files.createDirectories(mdt.resolve("column_stats"));
    Files.write(mdt.resolve("column_stats/.col-stats-0000-0_00000000000000010.log.1_0-0-0"), new byte[5]);
    Files.createDirectories(mdt.resolve("record_index"));
    TableConfigStore.update(storage, dir.toString(), c -> c.with(TableConfig.METADATA_PARTITIONS,
        "column_stats,files,record_index").with(TableConfig.METADATA_PARTITIONS_INFLIGHT, "bloom_filters"));

    t.upsert(trips(0, 5, 2, 2).iterator());
    TableConfig dt = TableConfigStore.read(storage, dir.toString());
    assertEquals(List.of("files"), dt.metadataPartitions());
    assertTrue(dt.metadataPartitionsInflight().isEmpty());
    assertFalse(Files.exists(mdt.resolve("column_stats")));
    assertFalse(Files.exists(mdt.resolve("record_index")));
    assertEquals(realListing(), mdtListing());
  }

  @Test
  void cleanMirrorsItsDeletionsAsTombstones() {
    Table t = create(TableType.COPY_ON_WRITE, withOn(Map.of("hoodie.cleaner.commits.retained", "1",
        "hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3")));
    t.insert(trips(0, 10, 2, 1).iterator());
    for (int i = 2; i < 6; i++) {
      t.upsert(trips(0, 10, 2, i).iterator());
    }
    List<Instant> cleans = dtTimeline().filter(i -> i.action() == Action.CLEAN && i.isCompleted()).instants();
    assertFalse(cleans.isEmpty(), "the cleaner ran");
    for (Instant c : cleans) {
      assertTrue(mdtTimeline().isCompleted(c.time()), "clean " + c.time() + " mirrored");
    }
    assertEquals(realListing(), mdtListing());
    // the archival gate: no metadata compaction yet, so nothing of the data table was archived
    assertTrue(dtTimeline().filter(i -> i.isCompleted() && i.action() == Action.COMMIT).instants().size() >= 5);
  }

  @Test
  void compactionOfAMergeOnReadTableIsMirrored() {
    Table t = create(TableType.MERGE_ON_READ, ON);
    t.insert(trips(0, 20, 2, 1).iterator());
    t.upsert(trips(0, 10, 2, 2).iterator());
    String compaction = t.compaction().scheduleNow().orElseThrow();
    t.compaction().run(compaction);
    assertTrue(mdtTimeline().isCompleted(compaction));
    assertEquals(realListing(), mdtListing());
  }

  @Test
  void aFailureBeforeTheDataTablePublishRollsBackBothTables() {
    Table t = create(TableType.MERGE_ON_READ, ON);
    t.insert(trips(0, 20, 2, 1).iterator());
    t.upsert(trips(0, 10, 2, 2).iterator());
    Map<String, List<String>> before = realListing();
    FailingStorage failing = new FailingStorage(new LocalStorage());
    // the data table's completed deltacommit is the one exclusive create of a .deltacommit outside .hoodie/metadata
    failing.failOn(InterceptedStorage.Op.CREATE_EXCLUSIVE, 1, p -> p.endsWith(".deltacommit")
        && !p.contains("/metadata/"));
    Table failingTable = Tables.open(failing.storage(), dir.toString(), Config.of(withOn(Map.of())));
    SluiceException e = assertThrows(SluiceException.class, () -> failingTable.upsert(trips(0, 10, 2, 3).iterator()));
    assertTrue(e.getMessage().contains("deltacommit"), e.getMessage());
    // the write's instant was rolled back on the data table, and its metadata deltacommit with it (<rollback>006)
    Timeline dt = dtTimeline();
    Instant rollback = dt.filter(i -> i.action() == Action.ROLLBACK && i.isCompleted()).lastInstant().orElseThrow();
    Timeline mdt = mdtTimeline();
    assertTrue(mdt.isCompleted(rollback.time()), "the rollback is mirrored");
    assertTrue(mdt.isCompleted(rollback.time() + "006"), "the failed write's deltacommit is rolled back");
    assertEquals(before.keySet(), realListing().keySet());
    assertEquals(realListing(), mdtListing());
    // and the table goes on
    t.upsert(trips(0, 10, 2, 4).iterator());
    assertEquals(realListing(), mdtListing());
  }

  @Test
  void restoreResyncsTheFilesPartition() {
    Table t = create(TableType.COPY_ON_WRITE, ON);
    String sp = t.insert(trips(0, 10, 2, 1).iterator()).instantTime();
    t.savepoint(Optional.of(sp));
    t.upsert(trips(0, 10, 3, 2).iterator());
    t.insert(trips(100, 10, 4, 3).iterator());
    String restore = t.restore(sp).startRestoreTime();
    assertTrue(mdtTimeline().isCompleted(restore), "the restore is mirrored at its instant");
    assertEquals(realListing(), mdtListing());
  }

  @Test
  void metadataCompactionAfterMaxDeltaCommitsThenTheDataTableArchivesUpToIt() throws IOException {
    // no cleaning: every metadata deltacommit is a write's
    Table t = create(TableType.COPY_ON_WRITE, withOn(Map.of("hoodie.metadata.compact.max.delta.commits", "5",
        "hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3", "hoodie.clean.automatic", "false",
        "hoodie.cleaner.commits.retained", "1")));
    List<String> commits = new java.util.ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      commits.add(t.upsert(trips(0, 6, 2, i).iterator()).instantTime());
    }
    // init + 4 mirrors: the next write compacts first, at the latest deltacommit + 001
    Timeline before = mdtTimeline();
    String latest = before.filter(i -> i.action() == Action.DELTACOMMIT && i.isCompleted()).lastInstant().orElseThrow()
        .time();
    assertTrue(dtTimeline().isCompleted(commits.get(0)), "nothing archived before the metadata compaction");
    String fifth = t.upsert(trips(0, 6, 2, 9).iterator()).instantTime();
    Timeline after = mdtTimeline();
    assertTrue(after.isCompleted(latest + "001"), after.toString());
    Path base = dir.resolve(".hoodie/metadata/files/files-0000-0_0-0-0_" + latest + "001.hfile");
    assertTrue(Files.exists(base));
    CommitMetadata md = CommitMetadata.fromJson(Files.readAllBytes(dir.resolve(".hoodie/metadata/.hoodie/" + latest
        + "001.commit")));
    assertTrue(md.compacted());
    assertEquals(WriteOperationType.COMPACT, md.operationType());
    // the next deltacommit went to the new slice, and the merged view is unchanged by the compaction
    assertTrue(Files.exists(dir.resolve(".hoodie/metadata/files/.files-0000-0_" + latest + "001.log.1_0-0-0")));
    assertEquals(realListing(), mdtListing());
    // the archival gate opened up to the compaction, not past it
    Timeline dt = dtTimeline();
    assertFalse(dt.isCompleted(commits.get(0)), "archived once the metadata table was compacted: " + dt);
    assertTrue(dt.completed().instants().stream().allMatch(i -> i.time().compareTo(latest) >= 0
        || i.action() != Action.COMMIT), "nothing at or after the compaction archived: " + dt);

    // rolling back the commit after the compaction rolls its deltacommit back; the one before it is in the compacted
    // base file, so its rollback's deleted files become tombstones instead
    t.rollback(fifth);
    assertEquals(realListing(), mdtListing());
    String fourth = commits.get(3);
    t.rollback(fourth);
    Instant rollback = dtTimeline().filter(i -> i.action() == Action.ROLLBACK && i.isCompleted()).lastInstant()
        .orElseThrow();
    assertTrue(mdtTimeline().isCompleted(rollback.time()));
    assertFalse(mdtTimeline().contains(rollback.time() + "006"), "a compacted deltacommit is not rolled back");
    assertEquals(realListing(), mdtListing());
  }

  @Test
  void unsetKeepsTheMetadataTableATableHasAndOffRemovesIt() {
    Table t = create(TableType.COPY_ON_WRITE, ON);
    t.insert(trips(0, 10, 2, 1).iterator());
    assertTrue(Files.exists(dir.resolve(".hoodie/metadata")));
    String kept = Tables.open(dir.toString()).upsert(trips(0, 3, 2, 2).iterator()).instantTime();
    assertTrue(Files.exists(dir.resolve(".hoodie/metadata/.hoodie/" + kept + ".deltacommit")),
        "unset: the table's metadata table is kept, mirrored at the write's instant");
    assertEquals(List.of("files"), TableConfigStore.read(storage, dir.toString()).metadataPartitions());
    Tables.open(dir.toString(), Config.of(Map.of("hoodie.metadata.enable", "false")))
        .upsert(trips(0, 5, 2, 3).iterator());
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")));
    assertTrue(TableConfigStore.read(storage, dir.toString()).metadataPartitions().isEmpty());
  }

  private static Map<String, String> withOn(Map<String, String> more) {
    Map<String, String> m = new HashMap<>(ON);
    m.putAll(more);
    return m;
  }
}
