package dev.sluice.storageit;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.SluiceException;
import dev.sluice.interop.RemoteHudi;
import dev.sluice.storage.InterceptedStorage.Op;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.CommitResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * Apache Hudi 0.15 (the oracle, in its own JVM, with Hadoop 3.3.4's HDFS client and S3A) reads the tables Sluice
 * wrote on a remote store, through the same Hadoop settings.
 */
interface HudiReadsScenarios {
  /** A location no table uses yet. */
  String newLocation(String name);

  /** The settings that reach the store, for Sluice and for Hudi alike. */
  Map<String, String> settings();

  /** The oracle with the store's settings. */
  default RemoteHudi hudi() {
    return RemoteHudi.locate(settings());
  }

  /** Rows as comparable text, by record key: user columns plus the commit time and file name meta columns. */
  static Map<String, String> view(Iterable<GenericRecord> rows) {
    Map<String, String> out = new TreeMap<>();
    for (GenericRecord r : rows) {
      String text = String.join("|", String.valueOf(r.get("id")), String.valueOf(r.get("ts")), String.valueOf(r.get("part")),
          String.valueOf(r.get("name")), String.valueOf(r.get("amount")), String.valueOf(r.get("_hoodie_commit_time")),
          String.valueOf(r.get("_hoodie_file_name")));
      if (out.put(String.valueOf(r.get("_hoodie_record_key")), text) != null) {
        throw new AssertionError("key twice: " + r);
      }
    }
    return out;
  }

  static Map<String, String> sluiceView(Table t, Optional<String> asOf) {
    List<GenericRecord> rows = new ArrayList<>();
    var scan = t.newScan().withMetaColumns(true);
    try (CloseableIterator<GenericRecord> it = (asOf.isPresent() ? scan.asOf(asOf.get()) : scan).open()) {
      it.forEachRemaining(rows::add);
    }
    return view(rows);
  }

  static List<String> completed(List<Map<String, String>> timeline) {
    return timeline.stream().filter(i -> i.get("state").equals("COMPLETED")).map(i -> i.get("time")).toList();
  }

  @Test
  default void hudiReadsTheSnapshotsSluiceWrote() {
    String location = newLocation("hudi-reads");
    Table t = RemoteTables.createTrips(location, settings());
    CommitResult c1 = t.insert(it(trips(0, 40, 3, 1)));
    t.upsert(it(List.of(trip("id-000001", 2, "p1", "changed", 9), trip("id-999999", 2, "p0", "fresh", 7))));
    CommitResult c3 = t.delete(it(List.of(RemoteTables.key(t, "id-000003", "p0"))));

    RemoteHudi.Reads hudi = hudi().reads(location, List.of(c1.instantTime()));
    Map<String, String> latest = view(hudi.latest());
    assertEquals(40, latest.size());
    assertEquals(sluiceView(t, Optional.empty()), latest);
    assertTrue(latest.get("id-000001").contains("|changed|"), latest.get("id-000001"));
    assertEquals(sluiceView(t, Optional.of(c1.instantTime())), view(hudi.asOf().get(0)), "time travel to the first commit");
    assertEquals(RemoteTables.completedTimes(t), completed(hudi.timeline()));
    assertEquals(c3.instantTime(), RemoteTables.completedTimes(t).get(2));
  }

  @Test
  default void hudiNeverSeesAKilledWrite() {
    String location = newLocation("hudi-killed");
    Table t = RemoteTables.createTrips(location, settings());
    t.insert(it(trips(0, 30, 3, 1)));
    Map<String, String> before = sluiceView(t, Optional.empty());

    RecordingStorage dying = new RecordingStorage(RemoteTables.storage(location, settings()))
        .crashAt(c -> c.op() == Op.CREATE_EXCLUSIVE && c.path().endsWith(".commit"));
    Table doomed = Tables.open(dying.storage(), location, RemoteTables.options(settings()));
    List<GenericRecord> batch = new ArrayList<>(trips(30, 30, 3, 2));
    batch.add(trip("id-000001", 5, "p1", "lost", 0));
    assertThrows(SluiceException.class, () -> doomed.upsert(it(batch)));

    // every data file of the dead write is complete on the store; Hudi's view must still leave them out
    RemoteHudi hudi = hudi();
    RemoteHudi.Reads seen = hudi.reads(location, List.of());
    assertEquals(before, view(seen.latest()));
    assertEquals(RemoteTables.completedTimes(t), completed(seen.timeline()));
    assertTrue(seen.timeline().stream().anyMatch(i -> i.get("state").equals("INFLIGHT")),
        "Hudi sees the dead write as pending: " + seen.timeline());

    Table next = RemoteTables.reopen(location, settings());
    next.upsert(it(batch));
    Map<String, String> after = view(hudi.read(location));
    assertEquals(60, after.size());
    assertEquals(sluiceView(next, Optional.empty()), after);
  }
}
