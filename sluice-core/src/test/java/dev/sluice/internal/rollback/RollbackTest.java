package dev.sluice.internal.rollback;

import dev.sluice.internal.timeline.avro.PartitionRollback;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.timeline.avro.RollbackPlan;
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
import dev.sluice.storage.CrashingStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RollbackTest {
  private static final Map<String, String> OPTIONS = Map.of("hoodie.index.bloom.num_entries", "1000",
      "sluice.write.parallelism", "1", "hoodie.parquet.small.file.limit", "0");

  @TempDir
  Path dir;

  private final CrashingStorage storage = new CrashingStorage(new LocalStorage());

  private Table table() {
    return Tables.open(storage.storage(), dir.toString(), Config.of(OPTIONS));
  }

  private Table create() {
    return Tables.create(storage.storage(), dir.toString(), TripFixture.spec().build(), Config.of(OPTIONS));
  }

  /** An upsert that updates 3 keys of p0/p1 and inserts 20 new ones. */
  private static List<GenericRecord> batch(int round) {
    List<GenericRecord> b = new ArrayList<>(trips(1000 * round, 20, 2, round));
    b.add(trip("id-000000", 100 + round, "p0", "r" + round, round));
    b.add(trip("id-000001", 100 + round, "p1", "r" + round, round));
    return b;
  }

  /** Matches storage calls {@code OP path} of one kind on paths ending with {@code suffix}. */
  private static java.util.function.Predicate<String> call(String op, String suffix) {
    return c -> c.startsWith(op + " ") && c.endsWith(suffix);
  }

  /** Runs an upsert that dies at the {@code nth} call matching {@code call}; returns the failed instant. */
  private String crashedUpsert(List<GenericRecord> batch, java.util.function.Predicate<String> call, int nth) {
    return crashedUpsert(batch, call, nth, "EAGER");
  }

  private String crashedUpsert(List<GenericRecord> batch, java.util.function.Predicate<String> call, int nth,
      String policy) {
    storage.crashAt(call, nth);
    Table writer = Tables.open(storage.storage(), dir.toString(), Config.of(OPTIONS).with("hoodie.cleaner.policy.failed.writes", policy));
    assertThrows(CrashingStorage.Crash.class, () -> writer.upsert(it(batch)));
    storage.restart();
    List<Instant> pending = new TimelineStore(storage.storage(), dir.toString()).load().inflightWrites();
    assertFalse(pending.isEmpty(), "the crash left a pending instant");
    return pending.get(pending.size() - 1).time();
  }

  private List<Instant> rollbacks() {
    return TableInternals.timeline(table()).filter(i -> i.action() == Action.ROLLBACK).instants();
  }

  private RollbackMetadata metadata(Instant rollback) {
    TimelineStore store = new TimelineStore(storage.storage(), dir.toString());
    return RollbackMetadata.fromAvroBytes(store.read(rollback), store.pathOf(rollback));
  }

  @Test
  void theNextWriteRollsBackAWriteThatDiedMidwayFromItsMarkers() throws IOException {
    Table t = create();
    t.insert(it(trips(0, 40, 2, 1)));
    Map<String, GenericRecord> before = rows(t);
    var filesBefore = TableChecks.dataFiles(dir);
    // dies while writing base files: what it wrote so far is behind markers
    String failed = crashedUpsert(batch(1), call("WRITE", ".parquet"), 3);
    assertEquals(before, rows(table()), "readers see the table as it was");
    assertTrue(Files.isDirectory(dir.resolve(".hoodie/.temp/" + failed)), "markers of the failed write are there");

    table().upsert(it(batch(2)));
    List<Instant> rb = rollbacks();
    assertEquals(1, rb.size());
    RollbackMetadata md = metadata(rb.get(0));
    assertEquals(List.of(failed), md.commitsRollback());
    assertEquals(Action.COMMIT.id(), md.instantsRollback().get(0).action());
    assertTrue(md.totalFilesDeleted() >= 1, md.toString());
    for (PartitionRollback p : md.partitionMetadata().values()) {
      for (String f : p.successDeleteFiles()) {
        assertTrue(f.contains(failed) && !Files.exists(Path.of(f)), f);
      }
    }
    RollbackPlan plan = RollbackPlan.fromAvroBytes(new TimelineStore(storage.storage(), dir.toString())
        .read(Instant.requested(rb.get(0).time(), Action.ROLLBACK)), "plan");
    assertEquals(failed, plan.instantToRollback().commitTime());
    assertEquals(md.totalFilesDeleted() + failedDeletes(md), plan.requests().size(), "one delete per marker");
    assertFalse(Files.exists(dir.resolve(".hoodie/.temp/" + failed)), "markers are gone");
    assertFalse(Files.exists(dir.resolve(".hoodie/" + failed + ".inflight")));
    assertFalse(Files.exists(dir.resolve(".hoodie/" + failed + ".commit.requested")));
    assertTrue(TableChecks.dataFiles(dir).stream().noneMatch(f -> f.contains(failed)), "no file of the failed write is left");
    assertTrue(TableChecks.dataFiles(dir).containsAll(filesBefore));
    assertEquals(List.of(), TableChecks.unreferenced(dir, false));
    Map<String, GenericRecord> after = rows(table());
    assertEquals(60, after.size(), "the 40 rows and batch 2's 20 inserts; none of the failed batch");
    assertEquals("r2", after.get("id-000000").get("name").toString());
  }

  private static int failedDeletes(RollbackMetadata md) {
    return md.partitionMetadata().values().stream().mapToInt(p -> p.failedDeleteFiles().size()).sum();
  }

  @Test
  void severalFailedWritesAreAllRolledBackNewestFirstByTheNextWrite() {
    Table t = create();
    t.insert(it(trips(0, 40, 2, 1)));
    Map<String, GenericRecord> before = rows(t);
    List<String> failed = new ArrayList<>();
    // the crashed writers leave failed writes alone (NEVER), so they pile up; a failed write never blocks the next
    storage.crashAt(call("CREATE_EXCLUSIVE", ".commit.requested"), 1);
    assertThrows(CrashingStorage.Crash.class, () -> table().upsert(it(batch(1))));
    storage.restart();
    assertTrue(TableInternals.timeline(table()).inflightWrites().isEmpty(), "died before its instant existed: nothing to undo");
    failed.add(crashedUpsert(batch(2), call("CREATE", ".parquet"), 2, "NEVER"));
    failed.add(crashedUpsert(batch(3), call("CREATE", ".marker.CREATE"), 2, "NEVER"));
    failed.add(crashedUpsert(batch(4), call("CREATE_EXCLUSIVE", ".commit"), 1, "NEVER"));
    assertEquals(before, rows(table()));
    Table next = Tables.open(storage.storage(), dir.toString(), Config.of(OPTIONS).with("hoodie.cleaner.policy.failed.writes", "NEVER"));
    assertEquals(3, TableInternals.timeline(next).inflightWrites().size(),
        "NEVER leaves failed writes alone: " + TableInternals.timeline(next));
    table().upsert(it(batch(5)));
    List<String> rolledBack = rollbacks().stream().map(this::metadata).map(m -> m.commitsRollback().get(0)).toList();
    List<String> newestFirst = new ArrayList<>(failed);
    newestFirst.sort(java.util.Comparator.reverseOrder());
    assertEquals(newestFirst, rolledBack);
    assertTrue(TableInternals.timeline(table()).inflightWrites().isEmpty());
    assertEquals(List.of(), TableChecks.unreferenced(dir, false));
    assertEquals(60, rows(table()).size());
  }

  @Test
  void aWriteThatDiedBeforeItsRequestedFileLeavesNothingAndOneThatDiedAfterItIsRolledBackAsRequested() {
    Table t = create();
    t.insert(it(trips(0, 10, 2, 1)));
    String failed = crashedUpsert(batch(1), call("CREATE_EXCLUSIVE", ".inflight"), 1);
    Instant pending = TableInternals.timeline(table()).inflightWrites().get(0);
    assertTrue(pending.isRequested(), pending.toString());
    RollbackMetadata md = TableInternals.actions(table()).rollback(failed);
    assertEquals(List.of(failed), md.commitsRollback());
    assertTrue(md.partitionMetadata().isEmpty(), "a requested instant wrote nothing");
    assertTrue(TableInternals.timeline(table()).inflightWrites().isEmpty());
  }

  @Test
  void aRollbackThatDiedIsFinishedFromItsPlanByTheNextWrite() {
    Table t = create();
    t.insert(it(trips(0, 40, 2, 1)));
    Map<String, GenericRecord> before = rows(t);
    String failed = crashedUpsert(batch(1), call("CREATE_EXCLUSIVE", ".commit"), 1);
    // the rollback dies after deleting the first file of the failed write
    storage.crashAt(call("DELETE", failed + ".parquet"), 2);
    assertThrows(CrashingStorage.Crash.class, () -> table().rollback(failed));
    storage.restart();
    List<Instant> pendingRollbacks = TableInternals.timeline(table()).filter(i -> i.action() == Action.ROLLBACK && !i.isCompleted())
        .instants();
    assertEquals(1, pendingRollbacks.size());
    assertEquals(before, rows(table()), "a half-done rollback of a never-completed write changes nothing readers see");
    table().upsert(it(batch(2)));
    List<Instant> rb = rollbacks();
    assertEquals(1, rb.size(), "the interrupted rollback was finished, not planned again: " + rb);
    assertEquals(pendingRollbacks.get(0).time(), rb.get(0).time());
    assertTrue(rb.get(0).isCompleted());
    assertEquals(List.of(failed), metadata(rb.get(0)).commitsRollback());
    assertEquals(List.of(), TableChecks.unreferenced(dir, false));
  }

  @Test
  void explicitRollbackOfTheLatestCommitRestoresThePreviousStateAndRefusesOlderOnes() {
    Table t = create();
    t.insert(it(trips(0, 20, 2, 1)));
    Map<String, GenericRecord> first = rows(t);
    String c2 = t.upsert(it(batch(1))).instantTime();
    Map<String, GenericRecord> second = rows(t);
    String c3 = t.upsert(it(batch(2))).instantTime();
    SluiceException older = assertThrows(SluiceException.class, () -> table().rollback(c2));
    assertTrue(older.getMessage().contains(c3) && older.getMessage().contains("later"), older.getMessage());
    SluiceException none = assertThrows(SluiceException.class, () -> table().rollback("20000101000000000"));
    assertTrue(none.getMessage().contains("no write at that instant"), none.getMessage());

    RollbackMetadata md = TableInternals.actions(table()).rollback(c3);
    assertEquals(List.of(c3), md.commitsRollback());
    assertEquals(second, rows(table()));
    table().rollback(c2);
    assertEquals(first, rows(table()));
    assertEquals(List.of(), TableChecks.unreferenced(dir, false));
    assertFalse(Files.exists(dir.resolve(".hoodie/" + c3 + ".commit")));
    assertEquals(2, rollbacks().size());
  }

  @Test
  void aSavepointedCommitIsNotRolledBack() {
    Table t = create();
    String c1 = t.insert(it(trips(0, 20, 2, 1))).instantTime();
    t.savepoint(Optional.empty());
    SluiceException e = assertThrows(SluiceException.class, () -> table().rollback(c1));
    assertEquals(SluiceException.Kind.BAD_CONFIG, e.kind());
    assertTrue(e.getMessage().contains("savepointed"), e.getMessage());
  }

  @Test
  void rollbackFailedWritesInLazyModeSkipsWritersWithAFreshHeartbeat() throws IOException {
    Table t = create();
    t.insert(it(trips(0, 20, 2, 1)));
    Map<String, String> lazy = new java.util.HashMap<>(OPTIONS);
    lazy.put("hoodie.cleaner.policy.failed.writes", "LAZY");
    storage.crashAt(call("CREATE", ".parquet"), 1);
    assertThrows(CrashingStorage.Crash.class, () -> Tables.open(storage.storage(), dir.toString(), Config.of(lazy)).upsert(it(batch(1))));
    storage.restart();
    List<Instant> pendingNow = TableInternals.timeline(table()).inflightWrites();
    String failed = pendingNow.get(pendingNow.size() - 1).time();
    assertTrue(Files.exists(dir.resolve(".hoodie/.heartbeat/" + failed)), "a lazy writer keeps a heartbeat");
    // the crash was in this JVM, whose write ended: its heartbeat counts as expired here at once. A writer on
    // another host is only known by its heartbeat's age: this one beat just now
    Files.writeString(dir.resolve(".hoodie/.heartbeat/" + failed), "{\"host\":\"another-host\",\"pid\":1}");
    Table lazyTable = Tables.open(storage.storage(), dir.toString(), Config.of(lazy));
    assertEquals(List.of(), lazyTable.rollbackFailedWrites(), "its heartbeat is fresh: the writer may be alive");
    Files.setLastModifiedTime(dir.resolve(".hoodie/.heartbeat/" + failed),
        java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 600_000));
    List<RollbackMetadata> done = TableInternals.actions(lazyTable).rollbackFailedWrites();
    assertEquals(List.of(failed), done.stream().flatMap(m -> m.commitsRollback().stream()).collect(Collectors.toList()));
    assertFalse(Files.exists(dir.resolve(".hoodie/.heartbeat/" + failed)));
  }
}
