package dev.sluice.internal.mdt.write;

import static dev.sluice.api.TripFixture.trip;
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
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The record index on table versions 8 and 9, kept in Hudi 1.x's form: initialized at its own instant of the
 * {@code 0000000000000000n} series, one log file per deltacommit named after it in each shard a write touches (no log
 * appended to), Avro commit metadata whose stats name the deltacommit's own files, compaction at a new instant, a
 * rolled-back write's shard logs deleted. After every action Sluice's reader finds each live key at its partition
 * and file group, and no deleted key.
 */
class RecordIndexVersion9WriteTest {
  private static final Map<String, String> RI = Map.of("hoodie.metadata.enable", "true",
      "hoodie.metadata.record.index.enable", "true", "hoodie.index.type", "RECORD_INDEX",
      "hoodie.parquet.small.file.limit", "0");

  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();

  private Table create(TableType type, int version, Map<String, String> more) {
    Map<String, String> o = new HashMap<>(RI);
    o.putAll(more);
    return TripFixture.create(dir, TripFixture.spec().type(type).tableVersion(version).build(), o);
  }

  private Table open(Map<String, String> options) {
    return Tables.open(dir.toString(), Config.of(options));
  }

  private static List<String> allKeys() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      out.add(String.format("id-%06d", i));
    }
    return out;
  }

  private void assertIndexMatches(Table t, String step) {
    assertEquals(List.of(), RecordIndexChecks.problems(t, allKeys()), step);
    assertEquals(List.of(), MetadataTableChecks.problems(storage, dir.toString()), step);
  }

  private TimelineStore mdtStore() {
    return new TimelineStore(storage, dir.resolve(".hoodie/metadata").toString());
  }

  private Timeline mdtTimeline() {
    return mdtStore().load();
  }

  private Path ri() {
    return dir.resolve(".hoodie/metadata/record_index");
  }

  private List<String> riFiles() throws IOException {
    try (Stream<Path> s = Files.list(ri())) {
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".hoodie_partition")).sorted().toList();
    }
  }

  @ParameterizedTest
  @CsvSource({"9, COPY_ON_WRITE", "9, MERGE_ON_READ", "8, MERGE_ON_READ"})
  void newTableIndexesInsertsUpsertsAndDeletesInHudi1xForm(int version, TableType type) throws IOException {
    Table t = create(type, version, Map.of("hoodie.compact.inline", "false"));
    String c1 = t.insert(trips(0, 40, 3, 1).iterator()).instantTime();
    assertEquals(List.of("files", "record_index"), TableConfigStore.read(storage, dir.toString()).metadataPartitions());
    // files at 00000000000000000, the record index at the next initialization instant, then the write's mirror
    assertEquals(List.of("00000000000000000", "00000000000000001", c1), mdtTimeline().completed().instants().stream()
        .map(Instant::time).toList());
    List<String> files = riFiles();
    for (int i = 0; i < 10; i++) {
      String first = String.format(".record-index-%04d-0_00000000000000001.log.1_0-0-0", i);
      assertTrue(files.contains(first), files.toString());
      try (LogReader r = LogReader.open(storage, ri().resolve(first).toString())) {
        LogBlock b = r.next();
        assertTrue(b instanceof DeleteBlock d && d.readAll().isEmpty(), "an empty delete block: " + b);
      }
    }
    // the write's entries: one log file of its own instant in each shard it touched, named in the stats alone
    CommitMetadata md = mdtStore().readCommitMetadata(mdtTimeline().find(c1).orElseThrow()).orElseThrow();
    List<WriteStat> stats = md.partitionToWriteStats().get("record_index");
    assertEquals(40, stats.stream().mapToLong(WriteStat::numWrites).sum());
    for (WriteStat s : stats) {
      String own = "." + s.fileId() + "_" + c1 + ".log.1_0-0-0";
      assertEquals(Optional.of("record_index/" + own), s.path());
      assertEquals(List.of(own), s.logFiles());
      assertEquals(c1, s.prevCommit());
      assertTrue(files.contains(own), own + " in " + files);
    }
    assertIndexMatches(t, "after the insert");

    String c2 = t.upsert(trips(30, 20, 3, 2).iterator()).instantTime();
    assertIndexMatches(t, "after an upsert with new keys");
    assertEquals(50, TripFixture.rows(t).size(), "tagged through the record index: no key duplicated");
    t.delete(trips(0, 10, 3, 3).iterator());
    assertIndexMatches(t, "after a delete");
    assertFalse(RecordIndexChecks.indexed(storage, dir.toString(), allKeys()).containsKey("id-000003"));
    assertTrue(riFiles().stream().anyMatch(n -> n.contains("_" + c2 + ".log.1_")), riFiles().toString());
    assertEquals(0, riFiles().stream().filter(n -> n.contains(".log.2_")).count(), "no log appended to");
  }

  @Test
  void existingTableGetsItsIndexAtTheNextInitializationInstant() throws IOException {
    Table off = create(TableType.COPY_ON_WRITE, 9, Map.of("hoodie.metadata.record.index.enable", "false",
        "hoodie.index.type", "BLOOM", "hoodie.index.bloom.num_entries", "1000"));
    off.insert(trips(0, 50, 5, 1).iterator());
    off.upsert(trips(40, 20, 5, 2).iterator());
    assertFalse(Files.exists(ri()));
    Table on = open(Map.of("hoodie.metadata.enable", "true", "hoodie.metadata.record.index.enable", "true",
        "hoodie.metadata.record.index.min.filegroup.count", "4", "hoodie.index.type", "RECORD_INDEX"));
    on.upsert(trips(55, 10, 5, 3).iterator());
    assertTrue(mdtTimeline().isCompleted("00000000000000001"), "the record index is built at the next init instant");
    assertEquals(4, riFiles().stream().filter(n -> n.endsWith("_00000000000000001.hfile")).count(),
        "one base HFile per shard (4 configured): " + riFiles());
    assertIndexMatches(on, "after the bootstrap and an upsert");
    assertEquals(65, TripFixture.rows(on).size());
  }

  @Test
  void mergeOnReadWithCompactionAndMetadataCompaction() throws IOException {
    Table t = create(TableType.MERGE_ON_READ, 9, Map.of("hoodie.compact.inline", "false",
        "hoodie.metadata.compact.max.delta.commits", "3"));
    t.insert(trips(0, 40, 2, 1).iterator());
    t.upsert(trips(20, 30, 2, 2).iterator());
    t.delete(trips(0, 5, 2, 3).iterator());
    assertIndexMatches(t, "after deltacommits with log blocks");
    String compaction = t.compaction().scheduleNow().orElseThrow();
    t.compaction().run(compaction);
    t.upsert(trips(60, 10, 2, 4).iterator());
    assertIndexMatches(t, "after a data compaction");
    List<Instant> mdtCompactions = mdtTimeline().filter(i -> i.action() == Action.COMMIT && i.isCompleted())
        .instants();
    assertFalse(mdtCompactions.isEmpty(), "the metadata table was compacted");
    Instant at = mdtCompactions.get(mdtCompactions.size() - 1);
    assertFalse(at.time().startsWith("0000000000"), "a new instant time: " + at);
    CommitMetadata md = mdtStore().readCommitMetadata(at).orElseThrow();
    assertEquals(10, md.partitionToWriteStats().get("record_index").size(), "every shard compacted");
    assertEquals(10, riFiles().stream().filter(n -> n.endsWith("_" + at.time() + ".hfile")).count(), riFiles()
        .toString());
    t.upsert(trips(70, 5, 2, 5).iterator());
    assertIndexMatches(t, "after a metadata compaction");
    assertEquals(60, TripFixture.rows(t).size());
  }

  @Test
  void failedAndRolledBackWritesLoseTheirShardLogs() throws IOException {
    Table t = create(TableType.MERGE_ON_READ, 9, Map.of("hoodie.compact.inline", "false"));
    t.insert(trips(0, 30, 3, 1).iterator());
    FailingStorage failing = new FailingStorage(new LocalStorage());
    failing.failOn(InterceptedStorage.Op.CREATE_EXCLUSIVE, 1, p -> p.matches(".*/\\.hoodie/timeline/\\d+_\\d+\\."
        + "deltacommit"));
    Table broken = Tables.open(failing.storage(), dir.toString(), Config.of(RI));
    assertThrows(SluiceException.class, () -> broken.upsert(trips(25, 30, 3, 2).iterator()));
    assertIndexMatches(t, "after the failed write's rollback");
    assertTrue(RecordIndexChecks.indexed(storage, dir.toString(), List.of("id-000050")).isEmpty(),
        "an insert of the failed write is not indexed");
    Timeline data = new TimelineStore(storage, dir.toString()).load();
    List<String> instants = data.instants().stream().map(Instant::time).toList();
    assertTrue(riFiles().stream().filter(n -> n.contains(".log.")).allMatch(n -> n.contains("00000000000000001")
        || instants.stream().anyMatch(i -> n.contains("_" + i + ".log."))), "no shard log of the failed write: "
        + riFiles());
    String last = t.upsert(trips(40, 10, 3, 3).iterator()).instantTime();
    assertIndexMatches(t, "after the next write");
    t.rollback(last);
    assertFalse(riFiles().stream().anyMatch(n -> n.contains(last)), riFiles().toString());
    assertEquals(List.of("files", "record_index"), TableConfigStore.read(storage, dir.toString()).metadataPartitions(),
        "a rollback of an instant in the shards' logs keeps the index");
    assertIndexMatches(t, "after rolling back a completed write");
    assertEquals(30, TripFixture.rows(t).size());
  }

  @Test
  void rollbackOfAnInstantInTheIndexBaseFilesDropsItAndTheNextWriteRebuildsIt() {
    Table t = create(TableType.COPY_ON_WRITE, 9, Map.of("hoodie.metadata.record.index.enable", "false",
        "hoodie.index.type", "BLOOM", "hoodie.index.bloom.num_entries", "1000"));
    t.insert(trips(0, 30, 3, 1).iterator());
    String last = t.upsert(trips(25, 20, 3, 2).iterator()).instantTime();
    Table on = open(RI);
    on.upsert(trips(0, 3, 3, 3).iterator());
    on.rollback(new TimelineStore(storage, dir.toString()).load().commitsTimeline().completed().lastInstant()
        .orElseThrow().time());
    on.rollback(last);
    assertEquals(List.of("files"), TableConfigStore.read(storage, dir.toString()).metadataPartitions(),
        "the rollback of an instant the index's base files hold drops the index");
    assertFalse(Files.exists(ri()));
    on.upsert(trips(100, 5, 3, 5).iterator());
    assertEquals(List.of("files", "record_index"), TableConfigStore.read(storage, dir.toString()).metadataPartitions());
    assertIndexMatches(on, "rebuilt after the rollback");
    assertTrue(RecordIndexChecks.indexed(storage, dir.toString(), List.of("id-000040")).isEmpty(),
        "a key only the rolled-back instant wrote is not indexed");
  }

  @Test
  void restoreRebuildsTheIndex() {
    Table t = create(TableType.COPY_ON_WRITE, 9, Map.of());
    String first = t.insert(trips(0, 30, 3, 1).iterator()).instantTime();
    t.savepoint(Optional.of(first));
    t.upsert(trips(20, 30, 3, 2).iterator());
    t.delete(trips(0, 5, 3, 3).iterator());
    t.restore(first);
    assertEquals(List.of("files", "record_index"), TableConfigStore.read(storage, dir.toString()).metadataPartitions());
    assertIndexMatches(t, "after the restore");
    assertEquals(30, RecordIndexChecks.indexed(storage, dir.toString(), allKeys()).size());
  }

  @Test
  void partitionMoveMovesTheEntry() {
    Table t = create(TableType.COPY_ON_WRITE, 9, Map.of("hoodie.record.index.update.partition.path", "true"));
    t.insert(trips(0, 30, 3, 1).iterator());
    t.upsert(List.of(trip("id-000001", 5, "p2", "moved", 1.0)).iterator());
    assertTrue(RecordIndexChecks.indexed(storage, dir.toString(), List.of("id-000001")).get("id-000001")
        .startsWith("p2/"));
    assertIndexMatches(t, "after a partition move");
    assertEquals(30, TripFixture.rows(t).size());
  }

  @Test
  void metadataInitWithRecordIndexBuildsItOnVersion8() throws IOException {
    Table t = create(TableType.MERGE_ON_READ, 8, Map.of("hoodie.metadata.enable", "false", "hoodie.index.type",
        "BLOOM", "hoodie.index.bloom.num_entries", "1000", "hoodie.compact.inline", "false"));
    t.insert(trips(0, 30, 3, 1).iterator());
    t.upsert(trips(20, 20, 3, 2).iterator());
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")));
    Table on = open(Map.of("hoodie.metadata.enable", "true", "hoodie.metadata.record.index.enable", "true"));
    assertTrue(on.initMetadataTable(true).partitionsEnabled().contains("record_index"));
    assertEquals(List.of("00000000000000000", "00000000000000001"), mdtTimeline().completed().instants().stream()
        .map(Instant::time).toList());
    assertIndexMatches(on, "after sluice metadata init --record-index");
    Table tagging = open(RI);
    tagging.upsert(trips(35, 10, 3, 3).iterator());
    assertIndexMatches(tagging, "after an upsert tagged through it");
    assertEquals(45, TripFixture.rows(tagging).size());
  }
}
