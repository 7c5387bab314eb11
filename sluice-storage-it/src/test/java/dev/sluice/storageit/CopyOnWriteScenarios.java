package dev.sluice.storageit;

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
import dev.sluice.api.SluiceException;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.storage.InterceptedStorage.Call;
import dev.sluice.storage.InterceptedStorage.Op;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.State;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.api.CommitResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * Copy-on-Write scenarios every store must pass, run by each store's test class against its real server:
 * writes and reads through {@code Tables} with the store's settings, a writer that dies mid-write or just before
 * publishing. A test class supplies fresh table locations and the settings that reach its server.
 */
interface CopyOnWriteScenarios {
  List<String> PARTS = List.of("p0", "p1", "p2");

  /** A location no table uses yet, e.g. {@code hdfs://localhost:1234/tables/name-7}. */
  String newLocation(String name);

  /** The settings that reach the store (passed to Sluice as options). */
  Map<String, String> settings();

  /**
   * True if a file appears on the store only once its writer closed it (object stores: the upload is the close),
   * false if it is listed from its creation on (HDFS: a file under construction).
   */
  boolean filesAppearAtClose();

  @Test
  default void insertUpsertDeleteSnapshotAndTimeTravel() throws IOException {
    String location = newLocation("cow");
    Table writer = RemoteTables.createTrips(location, settings());
    CommitResult c1 = writer.insert(it(trips(0, 60, 3, 1)));
    assertEquals(60, c1.inserted());
    CommitResult c2 = writer.upsert(it(List.of(trip("id-000001", 2, "p1", "changed", 9), trip("id-000002", 2, "p2", "too", 8),
        trip("id-999999", 2, "p0", "fresh", 7))));
    assertEquals(2, c2.updated());
    assertEquals(1, c2.inserted());
    CommitResult c3 = writer.delete(it(List.of(RemoteTables.key(writer, "id-000003", "p0"))));
    assertEquals(1, c3.deleted());

    // a reader in another process: only the location and the settings
    Table reader = RemoteTables.reopen(location, settings());
    Map<String, GenericRecord> now = rows(reader);
    assertEquals(60, now.size());
    assertEquals("changed", now.get("id-000001").get("name").toString());
    assertEquals("too", now.get("id-000002").get("name").toString());
    assertEquals("fresh", now.get("id-999999").get("name").toString());
    assertFalse(now.containsKey("id-000003"));
    assertEquals(List.of(c1.instantTime(), c2.instantTime(), c3.instantTime()), RemoteTables.completedTimes(reader));

    Map<String, GenericRecord> first = rows(reader.newScan().asOf(c1.instantTime()).open());
    assertEquals(60, first.size());
    assertEquals("name-1", first.get("id-000001").get("name").toString());
    assertTrue(first.containsKey("id-000003"));
    Map<String, GenericRecord> second = rows(reader.newScan().asOf(c2.instantTime()).open());
    assertEquals(61, second.size());
    assertEquals("changed", second.get("id-000001").get("name").toString());

    Storage storage = RemoteTables.storage(location, settings());
    for (String p : PARTS) {
      assertTrue(RemoteTables.names(storage, StoragePaths.join(location, p)).contains(".hoodie_partition_metadata"), p);
    }
    assertTrue(RemoteTables.names(storage, location + "/.hoodie").contains(c3.instantTime() + ".commit"));
    assertTrue(storage.list(location + "/.hoodie/.temp/" + c3.instantTime()).isEmpty(), "markers are removed after commit");
  }

  @Test
  default void aWriterKilledMidDataFileIsNeverSeenAndTheNextWriteSucceeds() throws IOException {
    String location = newLocation("killed-mid-file");
    Table first = RemoteTables.createTrips(location, settings());
    CommitResult c1 = first.insert(it(trips(0, 30, 3, 1)));
    Map<String, GenericRecord> before = rows(first);

    // the second writing byte into a data file is the first after its header: the process dies mid-file
    int[] dataWrites = {0};
    RecordingStorage dying = new RecordingStorage(RemoteTables.storage(location, settings()))
        .crashAt(c -> c.op() == Op.WRITE && c.path().endsWith(".parquet") && ++dataWrites[0] == 2);
    Table doomed = Tables.open(dying.storage(), location, RemoteTables.options(settings()));
    List<GenericRecord> batch = new ArrayList<>(trips(30, 30, 3, 2));
    batch.add(trip("id-000001", 5, "p1", "lost", 0));
    assertThrows(SluiceException.class, () -> doomed.upsert(it(batch)));
    assertTrue(dying.crashed());
    String failed = failedInstant(dying);

    Table reader = RemoteTables.reopen(location, settings());
    assertEquals(before, rows(reader), "readers see the table as it was");
    assertEquals(List.of(c1.instantTime()), RemoteTables.completedTimes(reader));
    Set<State> states = statesOf(reader, failed);
    assertTrue(states.contains(State.INFLIGHT) && !states.contains(State.COMPLETED), states.toString());
    Storage storage = RemoteTables.storage(location, settings());
    List<String> leftovers = RemoteTables.dataFilesOf(storage, location, failed, PARTS);
    if (filesAppearAtClose()) {
      assertEquals(List.of(), leftovers, "a file whose upload never completed does not exist");
    } else {
      assertFalse(leftovers.isEmpty(), "the dead writer's file under construction is on the store, yet unseen");
    }

    Table next = RemoteTables.reopen(location, settings());
    CommitResult c2 = next.upsert(it(batch));
    assertEquals(30, c2.inserted());
    assertEquals(1, c2.updated());
    Map<String, GenericRecord> after = rows(RemoteTables.reopen(location, settings()));
    assertEquals(60, after.size());
    assertEquals("lost", after.get("id-000001").get("name").toString(), "the retried batch is what counts now");
    assertEquals(List.of(c1.instantTime(), c2.instantTime()), RemoteTables.completedTimes(next));
    assertRolledBack(location, failed);
  }

  @Test
  default void aWriterKilledBeforePublishingLeavesNoVisibleInstant() throws IOException {
    String location = newLocation("killed-before-publish");
    Table first = RemoteTables.createTrips(location, settings());
    CommitResult c1 = first.insert(it(trips(0, 30, 3, 1)));
    Map<String, GenericRecord> before = rows(first);

    RecordingStorage dying = new RecordingStorage(RemoteTables.storage(location, settings()))
        .crashAt(c -> c.op() == Op.CREATE_EXCLUSIVE && c.path().endsWith(".commit"));
    Table doomed = Tables.open(dying.storage(), location, RemoteTables.options(settings()));
    List<GenericRecord> batch = new ArrayList<>(trips(30, 30, 3, 2));
    batch.add(trip("id-000001", 5, "p1", "lost", 0));
    assertThrows(SluiceException.class, () -> doomed.upsert(it(batch)));
    assertTrue(dying.crashed());
    String failed = failedInstant(dying);

    // how the write went: data files created at their final names in the partitions, closed, never renamed;
    // then the completed instant, one create, last
    List<Call> calls = dying.callsUntilCrash();
    int publish = calls.size() - 1;
    assertEquals(new Call(Op.CREATE_EXCLUSIVE, location + "/.hoodie/" + failed + ".commit"), calls.get(publish));
    assertEquals(0, dying.count(Op.RENAME), "nothing is renamed");
    List<String> created = dying.paths(Op.CREATE).stream().filter(p -> p.endsWith(".parquet")).toList();
    assertFalse(created.isEmpty());
    for (String path : created) {
      String rel = path.substring(location.length() + 1);
      assertTrue(PARTS.contains(rel.substring(0, rel.indexOf('/'))) && rel.contains("_" + failed + "."), path);
      int closed = calls.indexOf(new Call(Op.CLOSE, path));
      assertTrue(closed >= 0 && closed < publish, "closed before the publish: " + path);
    }

    Table reader = RemoteTables.reopen(location, settings());
    assertEquals(before, rows(reader), "readers see the table as it was");
    assertEquals(List.of(c1.instantTime()), RemoteTables.completedTimes(reader));
    Storage storage = RemoteTables.storage(location, settings());
    assertFalse(RemoteTables.names(storage, location + "/.hoodie").contains(failed + ".commit"));
    Set<String> leftovers = new TreeSet<>(RemoteTables.dataFilesOf(storage, location, failed, PARTS));
    Set<String> written = new TreeSet<>();
    created.forEach(p -> written.add(p.substring(location.length() + 1)));
    assertEquals(written, leftovers, "every data file is complete on the store, and still not seen");

    CommitResult c2 = RemoteTables.reopen(location, settings()).upsert(it(batch));
    assertEquals(30, c2.inserted());
    Map<String, GenericRecord> after = rows(RemoteTables.reopen(location, settings()));
    assertEquals(60, after.size());
    assertEquals("lost", after.get("id-000001").get("name").toString());
    assertRolledBack(location, failed);
  }

  /**
   * The next write rolled the dead one back from its markers, as Hudi does: a completed rollback instant names it, its
   * timeline files, data files and markers are gone.
   */
  private void assertRolledBack(String location, String failed) {
    Storage storage = RemoteTables.storage(location, settings());
    Table t = RemoteTables.reopen(location, settings());
    TimelineStore store = new TimelineStore(storage, location);
    List<String> rolledBack = new ArrayList<>();
    for (Instant i : TableInternals.timeline(t).filter(x -> x.action() == Action.ROLLBACK && x.isCompleted()).instants()) {
      rolledBack.addAll(RollbackMetadata.fromAvroBytes(store.read(i), store.pathOf(i)).commitsRollback());
    }
    assertEquals(List.of(failed), rolledBack, "one rollback, of the dead write");
    assertEquals(Set.of(), statesOf(t, failed), "the dead write's instant files are gone");
    assertEquals(List.of(), RemoteTables.dataFilesOf(storage, location, failed, PARTS), "its data files are deleted");
    assertEquals(List.of(), RemoteTables.names(storage, location + "/.hoodie/.temp/" + failed), "its markers are gone");
  }

  /** The instant a crashed writer started: the one whose requested file it created. */
  private static String failedInstant(RecordingStorage dying) {
    String requested = dying.paths(Op.CREATE_EXCLUSIVE).stream().filter(p -> p.endsWith(".commit.requested"))
        .findFirst().orElseThrow();
    String name = StoragePaths.name(requested);
    return name.substring(0, name.indexOf('.'));
  }

  private static Set<State> statesOf(Table t, String time) {
    Set<State> out = new TreeSet<>();
    for (Instant i : TableInternals.timeline(t).instants()) {
      if (i.time().equals(time)) {
        out.add(i.state());
      }
    }
    return out;
  }
}
