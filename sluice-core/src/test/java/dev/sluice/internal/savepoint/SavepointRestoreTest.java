package dev.sluice.internal.savepoint;

import dev.sluice.internal.timeline.avro.RestoreMetadata;
import dev.sluice.internal.timeline.avro.RestorePlan;
import dev.sluice.internal.service.TableInternals;
import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.api.Config;
import dev.sluice.crash.TableChecks;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.storage.CrashingStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SavepointRestoreTest {
  private static final Map<String, String> OPTIONS = Map.of("hoodie.index.bloom.num_entries", "1000",
      "sluice.write.parallelism", "1", "hoodie.parquet.small.file.limit", "0");

  @TempDir
  Path dir;

  private final CrashingStorage storage = new CrashingStorage(new LocalStorage());

  private Table table() {
    return Tables.open(storage.storage(), dir.toString(), Config.of(OPTIONS));
  }

  private static List<GenericRecord> changes(int round) {
    List<GenericRecord> b = new ArrayList<>(trips(1000 * round, 10, 2, round));
    b.add(trip("id-000000", 100 + round, "p0", "r" + round, round));
    return b;
  }

  @Test
  void savepointRecordsTheLatestFilesAndRestoreRollsBackEveryLaterWrite() {
    Table t = Tables.create(storage.storage(), dir.toString(), TripFixture.spec().tableVersion(6).build(), Config.of(OPTIONS));
    t.insert(it(trips(0, 30, 2, 1)));
    String c2 = t.upsert(it(changes(1))).instantTime();
    Map<String, GenericRecord> atSavepoint = rows(t);
    Set<String> filesAtSavepoint = TableChecks.dataFiles(dir);
    SavepointMetadata sp = TableInternals.actions(t).savepoint(Optional.empty(), System.getProperty("user.name", ""), "");
    assertTrue(Files.exists(dir.resolve(".hoodie/" + c2 + ".savepoint")));
    assertTrue(Files.exists(dir.resolve(".hoodie/" + c2 + ".savepoint.inflight")));
    Set<String> latest = new TreeSet<>();
    for (String p : List.of("p0", "p1")) {
      TableInternals.fileSystemView(t).latestBaseFiles(p).stream().map(BaseFile::fileName).forEach(latest::add);
    }
    Set<String> recorded = new TreeSet<>();
    sp.partitionFiles().values().forEach(recorded::addAll);
    assertEquals(latest, recorded, "the savepoint lists the latest slice of every file group");
    assertEquals(sp, new Savepoints(storage.storage(), dir.toString()).read(c2).orElseThrow());

    t.upsert(it(changes(2)));
    t.delete(it(List.of(trip("id-000003", 0, "p1", null, 0))));
    // a failed write after the savepoint is rolled back by the restore too
    storage.crashAt(c -> c.startsWith("CREATE_EXCLUSIVE") && c.endsWith(".commit"), 1);
    Table never = Tables.open(storage.storage(), dir.toString(), Config.of(OPTIONS).with("hoodie.cleaner.policy.failed.writes", "NEVER"));
    assertThrows(CrashingStorage.Crash.class, () -> never.upsert(it(changes(3))));
    storage.restart();
    List<Instant> after = TableInternals.timeline(table()).writeTimeline().after(c2).instants();
    assertEquals(3, after.size(), after.toString());

    RestoreMetadata md = TableInternals.actions(table()).restore(c2);
    assertEquals(atSavepoint, rows(table()));
    List<String> newestFirst = new ArrayList<>();
    for (int i = after.size() - 1; i >= 0; i--) {
      newestFirst.add(after.get(i).time());
    }
    assertEquals(newestFirst, md.instantsToRollback());
    assertEquals(Set.copyOf(newestFirst), md.rollbacks().keySet());
    assertTrue(TableInternals.timeline(table()).writeTimeline().after(c2).isEmpty(), "no write after the savepoint is left");
    assertTrue(TableInternals.timeline(table()).filter(i -> i.action() == Action.ROLLBACK).isEmpty(),
        "the restore's rollback instants are removed when it completes");
    Instant restore = TableInternals.timeline(table()).filter(i -> i.action() == Action.RESTORE).lastInstant().orElseThrow();
    assertTrue(restore.isCompleted());
    TimelineStore store = new TimelineStore(storage.storage(), dir.toString());
    assertEquals(md, RestoreMetadata.fromAvroBytes(store.read(restore), "restore"));
    RestorePlan plan = RestorePlan.fromAvroBytes(store.read(Instant.requested(restore.time(), Action.RESTORE)), "plan");
    assertEquals(c2, plan.savepointToRestoreTimestamp());
    assertEquals(filesAtSavepoint, TableChecks.dataFiles(dir), "exactly the files of the savepoint state are left");
    assertTrue(TableInternals.timeline(table()).filter(i -> i.action() == Action.SAVEPOINT).lastInstant().isPresent(), "savepoint kept");

    table().upsert(it(changes(4)));
    assertEquals(atSavepoint.size() + 10, rows(table()).size(), "writes go on after a restore");
  }

  @Test
  void restoreNeedsASavepointAndNoLaterOne() {
    Table t = Tables.create(storage.storage(), dir.toString(), TripFixture.spec().tableVersion(6).build(), Config.of(OPTIONS));
    String c1 = t.insert(it(trips(0, 10, 2, 1))).instantTime();
    SluiceException none = assertThrows(SluiceException.class, () -> t.restore(c1));
    assertTrue(none.getMessage().contains("no savepoint at that instant"), none.getMessage());
    t.savepoint(Optional.of(c1));
    String c2 = t.upsert(it(changes(1))).instantTime();
    t.savepoint(Optional.empty());
    SluiceException later = assertThrows(SluiceException.class, () -> t.restore(c1));
    assertTrue(later.getMessage().contains(c2) && later.getMessage().contains("Delete them first"), later.getMessage());
    SluiceException twice = assertThrows(SluiceException.class, () -> t.savepoint(Optional.of(c2)));
    assertTrue(twice.getMessage().contains("savepointed already"), twice.getMessage());
    t.deleteSavepoint(c2);
    assertFalse(Files.exists(dir.resolve(".hoodie/" + c2 + ".savepoint")));
    assertFalse(Files.exists(dir.resolve(".hoodie/" + c2 + ".savepoint.inflight")));
    t.restore(c1);
    assertEquals(10, rows(t).size());
    SluiceException notCommit = assertThrows(SluiceException.class, () -> t.savepoint(Optional.of("20200101000000000")));
    assertTrue(notCommit.getMessage().contains("not a completed commit"), notCommit.getMessage());
  }

  @Test
  void aRestoreThatDiedBlocksWritesUntilItIsRunAgain() {
    Table t = Tables.create(storage.storage(), dir.toString(), TripFixture.spec().tableVersion(6).build(), Config.of(OPTIONS));
    t.insert(it(trips(0, 20, 2, 1)));
    String sp = t.upsert(it(changes(1))).instantTime();
    Map<String, GenericRecord> atSavepoint = rows(t);
    t.savepoint(Optional.empty());
    t.upsert(it(changes(2)));
    t.upsert(it(changes(3)));
    // dies in the second rollback of the restore
    storage.crashAt(c -> c.startsWith("CREATE_EXCLUSIVE") && c.endsWith(".rollback.inflight"), 2);
    assertThrows(CrashingStorage.Crash.class, () -> table().restore(sp));
    storage.restart();
    SluiceException blocked = assertThrows(SluiceException.class, () -> table().upsert(it(changes(4))));
    assertTrue(blocked.getMessage().contains("restore") && blocked.getMessage().contains("did not finish"),
        blocked.getMessage());
    assertThrows(SluiceException.class, () -> table().rollbackFailedWrites());
    table().restore(sp);
    assertEquals(atSavepoint, rows(table()));
    assertEquals(1, TableInternals.timeline(table()).filter(i -> i.action() == Action.RESTORE).instants().size(),
        "the interrupted restore was finished, not started again");
    assertTrue(TableInternals.timeline(table()).filter(i -> i.action() == Action.ROLLBACK).isEmpty());
    table().upsert(it(changes(4)));
  }
}
