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
import dev.sluice.internal.log.CommandBlock;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogReader;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteOperationType;
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

/**
 * The record index ({@code record_index}) Sluice keeps in the metadata table: after every kind of action, Sluice's
 * reader of the metadata table finds each live key of the table (a snapshot scan's meta columns) at its partition and
 * file group, and no deleted key.
 */
class RecordIndexWriterTest {
  private static final Map<String, String> RI = Map.of("hoodie.metadata.enable", "true",
      "hoodie.metadata.record.index.enable", "true");

  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();

  private Table create(TableType type, Map<String, String> more) {
    Map<String, String> o = new HashMap<>(RI);
    o.putAll(more);
    return TripFixture.create(dir, TripFixture.spec().tableVersion(6).type(type).build(), o);
  }

  private Table open(Map<String, String> options) {
    return Tables.open(dir.toString(), Config.of(options));
  }

  /** Every key ever written ({@code id-000000} to {@code id-000199}): deleted ones must not be indexed. */
  private static List<String> allKeys() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      out.add(String.format("id-%06d", i));
    }
    return out;
  }

  private void assertIndexMatches(Table t, String step) {
    Map<String, String> truth = RecordIndexChecks.truth(t);
    assertFalse(truth.isEmpty(), step);
    assertEquals(truth, RecordIndexChecks.indexed(storage, dir.toString(), allKeys()), step);
  }

  private Timeline mdtTimeline() {
    return new TimelineStore(storage, dir.resolve(".hoodie/metadata").toString()).load();
  }

  private Path ri() {
    return dir.resolve(".hoodie/metadata/record_index");
  }

  @Test
  void newCopyOnWriteTableIndexesInsertsUpsertsAndDeletes() throws IOException {
    Table t = create(TableType.COPY_ON_WRITE, Map.of());
    String c1 = t.insert(trips(0, 40, 3, 1).iterator()).instantTime();
    TableConfig config = TableConfigStore.read(storage, dir.toString());
    assertEquals(List.of("files", "record_index"), config.metadataPartitions());
    assertEquals(Optional.of(""), config.get(TableConfig.METADATA_PARTITIONS_INFLIGHT));
    // files at ...010, the record index at ...011, then the commit's mirror
    assertEquals(List.of("00000000000000010", "00000000000000011", c1), mdtTimeline().completed().instants().stream()
        .map(Instant::time).toList());
    for (int i = 0; i < 10; i++) {
      Path first = ri().resolve(String.format(".record-index-%04d-0_00000000000000011.log.1_0-0-0", i));
      try (LogReader r = LogReader.open(storage, first.toString())) {
        LogBlock b = r.next();
        assertTrue(b instanceof DeleteBlock d && d.readAll().isEmpty(), "an empty delete block: " + b);
      }
    }
    assertTrue(Files.exists(ri().resolve(".hoodie_partition_metadata")));
    CommitMetadata md = CommitMetadata.fromJson(Files.readAllBytes(dir.resolve(".hoodie/metadata/.hoodie/" + c1
        + ".deltacommit")));
    assertEquals(40, md.partitionToWriteStats().get("record_index").stream().mapToLong(s -> s.numWrites()).sum());
    assertIndexMatches(t, "after the insert");

    t.upsert(trips(30, 20, 3, 2).iterator());
    assertIndexMatches(t, "after an upsert with new keys");
    t.delete(trips(0, 10, 3, 3).iterator());
    Map<String, String> indexed = RecordIndexChecks.indexed(storage, dir.toString(), allKeys());
    assertFalse(indexed.containsKey("id-000003"), "a deleted key leaves the index");
    assertIndexMatches(t, "after a delete");
    // a delete's keys go to delete blocks of the shards, as Hudi writes them
    String deleteInstant = mdtTimeline().completed().lastInstant().orElseThrow().time();
    long deleteBlocks = 0;
    try (Stream<Path> files = Files.list(ri())) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith(".record-index-")).toList()) {
        try (LogReader r = LogReader.open(storage, f.toString())) {
          while (r.hasNext()) {
            LogBlock b = r.next();
            if (b instanceof DeleteBlock d && b.instantTime().orElse("").equals(deleteInstant)) {
              deleteBlocks += d.readAll().size();
              assertTrue(d.readAll().stream().allMatch(x -> x.partitionPath().equals("record_index")));
            }
          }
        }
      }
    }
    assertEquals(10, deleteBlocks);
  }

  @Test
  void existingTableGetsItsIndexFromItsBaseFilesWhenTurnedOn() throws IOException {
    Table off = create(TableType.COPY_ON_WRITE, Map.of("hoodie.metadata.record.index.enable", "false"));
    off.insert(trips(0, 50, 5, 1).iterator());
    String last = off.upsert(trips(40, 20, 5, 2).iterator()).instantTime();
    assertFalse(Files.exists(ri()));
    Table on = open(Map.of("hoodie.metadata.enable", "true", "hoodie.metadata.record.index.enable", "true",
        "hoodie.metadata.record.index.min.filegroup.count", "4"));
    on.upsert(trips(55, 10, 5, 3).iterator());
    // its own initialization instant: the first free <latest instant>010+n (files was built long before)
    assertTrue(mdtTimeline().isCompleted(last + "010"), "the record index is built at <latest instant>010");
    long bases;
    try (Stream<Path> files = Files.list(ri())) {
      bases = files.filter(p -> p.getFileName().toString().endsWith("_" + last + "010.hfile")).count();
    }
    assertEquals(4, bases, "one base HFile per shard (4 configured)");
    assertIndexMatches(on, "after the bootstrap and an upsert");
  }

  @Test
  void globalIndexPartitionMoveMovesTheEntry() {
    Table t = create(TableType.COPY_ON_WRITE, Map.of("hoodie.index.type", "GLOBAL_SIMPLE",
        "hoodie.simple.index.update.partition.path", "true"));
    t.insert(trips(0, 30, 3, 1).iterator());
    // id-000001 lives in p1; it moves to p2
    t.upsert(List.of(trip("id-000001", 5, "p2", "moved", 1.0)).iterator());
    Map<String, String> indexed = RecordIndexChecks.indexed(storage, dir.toString(), List.of("id-000001"));
    assertTrue(indexed.get("id-000001").startsWith("p2/"), indexed.toString());
    assertIndexMatches(t, "after a partition move");
  }

  @Test
  void mergeOnReadWithCompactionAndMetadataCompaction() throws IOException {
    Table t = create(TableType.MERGE_ON_READ, Map.of("hoodie.compact.inline", "false",
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
    String at = mdtCompactions.get(mdtCompactions.size() - 1).time();
    CommitMetadata md = CommitMetadata.fromJson(Files.readAllBytes(dir.resolve(".hoodie/metadata/.hoodie/" + at
        + ".commit")));
    assertEquals(WriteOperationType.COMPACT, md.operationType());
    assertEquals(10, md.partitionToWriteStats().get("record_index").size(), "every shard compacted");
    t.upsert(trips(70, 5, 2, 5).iterator());
    assertIndexMatches(t, "after a metadata compaction");
  }

  @Test
  void metadataCompactionThatDiedIsRolledBackBeforeTheNextDeltacommit() {
    Map<String, String> options = new HashMap<>(RI);
    options.put("hoodie.metadata.compact.max.delta.commits", "4");
    options.put("hoodie.metadata.record.index.min.filegroup.count", "3");
    Table t = create(TableType.COPY_ON_WRITE, options);
    t.insert(trips(0, 30, 2, 1).iterator());
    t.upsert(trips(20, 20, 2, 2).iterator());
    // the next write's metadata compaction dies writing the base file of the second record-index shard
    FailingStorage failing = new FailingStorage(new LocalStorage());
    failing.failOn(InterceptedStorage.Op.CREATE, 1, p -> p.contains("/record_index/record-index-0001-0_")
        && p.endsWith("001.hfile"));
    Table dying = Tables.open(failing.storage(), dir.toString(), Config.of(options));
    assertThrows(SluiceException.class, () -> dying.upsert(trips(40, 10, 2, 3).iterator()));
    assertFalse(mdtTimeline().filter(i -> i.action() == Action.COMPACTION && !i.isCompleted()).isEmpty(),
        "the compaction was left pending");
    // the next write rolls it back first (else its deltacommit would go to the unfinished compaction's slice)
    Table next = open(options);
    next.upsert(trips(40, 10, 2, 3).iterator());
    assertTrue(mdtTimeline().filter(i -> i.action() == Action.COMPACTION && !i.isCompleted()).isEmpty(),
        "no compaction is left pending (one that is would block every later one)");
    assertFalse(mdtTimeline().filter(i -> i.action() == Action.COMMIT && i.isCompleted()).isEmpty(),
        "the compaction was redone");
    assertEquals(List.of(), MetadataTableChecks.problems(storage, dir.toString()));
    assertIndexMatches(next, "after the compaction's retry");
  }

  @Test
  void failedWriteIsRolledBackInTheIndex() {
    Table t = create(TableType.MERGE_ON_READ, Map.of("hoodie.compact.inline", "false"));
    t.insert(trips(0, 30, 3, 1).iterator());
    FailingStorage failing = new FailingStorage(new LocalStorage());
    failing.failOn(InterceptedStorage.Op.CREATE_EXCLUSIVE, 1, p -> p.endsWith(".deltacommit")
        && !p.contains("/metadata/"));
    Table broken = Tables.open(failing.storage(), dir.toString(), Config.of(RI));
    assertThrows(SluiceException.class, () -> broken.upsert(trips(25, 30, 3, 2).iterator()));
    assertIndexMatches(t, "after the failed write's rollback");
    // the failed write's blocks in the record index's shards are rolled back by command blocks there too
    String failed = new TimelineStore(storage, dir.toString()).load().filter(i -> i.action() == Action.ROLLBACK)
        .lastInstant().map(i -> i.time()).orElseThrow();
    long commandBlocks = 0;
    try (Stream<Path> files = Files.list(ri())) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith(".record-index-")).toList()) {
        try (LogReader r = LogReader.open(storage, f.toString())) {
          while (r.hasNext()) {
            if (r.next() instanceof CommandBlock c && c.isRollback()
                && c.instantTime().orElse("").equals(failed + "006")) {
              commandBlocks++;
            }
          }
        }
      }
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    assertTrue(commandBlocks > 0, "rollback command blocks in the record index's shards");
    Map<String, String> indexed = RecordIndexChecks.indexed(storage, dir.toString(), List.of("id-000050"));
    assertTrue(indexed.isEmpty(), "an insert of the rolled-back write is not indexed: " + indexed);
    t.upsert(trips(40, 10, 3, 3).iterator());
    assertIndexMatches(t, "after the next write");
  }

  @Test
  void rollbackOfAnInstantInTheIndexBaseFilesDropsItAndTheNextWriteRebuildsIt() {
    Table t = create(TableType.COPY_ON_WRITE, Map.of("hoodie.metadata.record.index.enable", "false"));
    t.insert(trips(0, 30, 3, 1).iterator());
    String last = t.upsert(trips(25, 20, 3, 2).iterator()).instantTime();
    Table on = open(RI);
    on.upsert(trips(0, 3, 3, 3).iterator());
    // the index was built at <last>010, from base files holding what <last> wrote
    on.rollback(on.upsert(trips(0, 2, 3, 4).iterator()).instantTime());
    assertEquals(List.of("files", "record_index"), TableConfigStore.read(storage, dir.toString()).metadataPartitions(),
        "a rollback of an instant in the shards' logs keeps the index");
    assertIndexMatches(on, "after the rollback of the latest write");
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
    Table t = create(TableType.COPY_ON_WRITE, Map.of());
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
  void leftUnsetItIsKeptTurnedOffItIsDroppedAndFilesStays() {
    Table t = create(TableType.COPY_ON_WRITE, Map.of());
    t.insert(trips(0, 20, 2, 1).iterator());
    assertTrue(Files.exists(ri()));
    // a writer that does not set hoodie.metadata.record.index.enable keeps the index the table has, and keeps it exact
    Table unset = open(Map.of("hoodie.metadata.enable", "true"));
    unset.upsert(trips(15, 10, 2, 2).iterator());
    assertEquals(List.of("files", "record_index"), TableConfigStore.read(storage, dir.toString()).metadataPartitions());
    assertIndexMatches(unset, "after a write that left the setting unset");
    Table off = open(Map.of("hoodie.metadata.enable", "true", "hoodie.metadata.record.index.enable", "false"));
    off.upsert(trips(5, 10, 2, 3).iterator());
    assertEquals(List.of("files"), TableConfigStore.read(storage, dir.toString()).metadataPartitions());
    assertFalse(Files.exists(ri()));
    assertTrue(Files.exists(dir.resolve(".hoodie/metadata/files")));
  }

  @Test
  void spilledChangesOfALargeWriteAreIndexed() {
    // a tiny write budget: the batch and the record-index changes spill to sorted runs
    Table t = create(TableType.COPY_ON_WRITE, Map.of("hoodie.memory.merge.max.size", "65536",
        "hoodie.metadata.record.index.min.filegroup.count", "3"));
    t.insert(trips(0, 200, 4, 1).iterator());
    assertIndexMatches(t, "after a spilled insert");
  }
}
