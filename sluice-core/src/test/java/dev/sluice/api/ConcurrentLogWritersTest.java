package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.crash.TableChecks;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.LogFileName;
import dev.sluice.internal.log.LogDump.BlockSummary;
import dev.sluice.testing.TwoWriterRace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two writers updating the same Merge-on-Read file groups at once, the race forced ({@link TwoWriterRace}): they never
 * share a log file version, a rolled-back writer's log files hide nothing, and the snapshot and time travel to every
 * completed instant equal a model of the completed writes.
 */
class ConcurrentLogWritersTest {
  private static final int KEYS = 400;

  @TempDir
  Path dir;

  private Map<String, String> options() {
    Map<String, String> o = new HashMap<>();
    o.put("hoodie.index.bloom.num_entries", "1000");
    o.put("hoodie.parquet.small.file.limit", "0");
    o.put("sluice.write.parallelism", "1");
    o.put("hoodie.write.concurrency.mode", "optimistic_concurrency_control");
    o.put("hoodie.write.lock.provider", "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider");
    o.put("hoodie.write.lock.wait_time_ms_between_retry", "5");
    return o;
  }

  /** The table's rows after each completed instant, as the writers' records say they must be. */
  private final Map<String, Map<String, String>> model = new LinkedHashMap<>();
  private Map<String, String> current = new TreeMap<>();

  private String apply(String instant, List<GenericRecord> records) {
    current = new TreeMap<>(current);
    records.forEach(r -> current.put(r.get("id").toString(), r.get("name").toString()));
    model.put(instant, current);
    return instant;
  }

  /**
   * Writer A updates keys in both partitions, B only in p1 (so in the old code their write tokens differed); A's
   * instant is the earlier. Under optimistic concurrency control A commits and B fails its conflict check and is
   * rolled back. (In single-writer mode the race cannot happen any more: B refuses to start next to A's live
   * heartbeat, see SingleWriterGuardTest; before issue 18 both committed there and time travel to the first commit
   * mixed the two states. Time travel to every completed instant is checked here, and a later instant's block before
   * an earlier one's in LogScannerTest.)
   */
  @ParameterizedTest(name = "{0}, optimistic concurrency control")
  @EnumSource(TwoWriterRace.Order.class)
  void aRolledBackWritersLogFilesHideNothing(TwoWriterRace.Order order) throws InterruptedException {
    run(order);
  }

  private void run(TwoWriterRace.Order order) throws InterruptedException {
    Map<String, String> o = options();
    Table t = Tables.create(dir.toString(), MorFixture.spec().build(), Config.of(o));
    List<GenericRecord> seed = trips(0, KEYS, 2, 1);
    apply(t.insert(it(seed)).instantTime(), seed);
    List<GenericRecord> first = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      first.add(trip(String.format("id-%06d", i), 2, "p" + (i % 2), "c1-" + i, i));
    }
    // every slice has a log file before the race
    apply(t.upsert(it(first)).instantTime(), first);
    List<GenericRecord> byA = new ArrayList<>();
    List<GenericRecord> byB = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      GenericRecord r = trip(String.format("id-%06d", i), 3, "p" + (i % 2), (i % 4 < 2 ? "A-" : "B-") + i, i);
      if (i % 4 < 2) {
        byA.add(r);
      } else if (i % 4 == 3) {
        byB.add(r);
      }
    }
    TwoWriterRace.Outcome out = TwoWriterRace.run(dir.toString(), o, order, true, "p1",
        ta -> ta.upsert(it(byA)).instantTime(), tb -> tb.upsert(it(byB)).instantTime());
    assertTrue(out.instantA().isPresent(), "A commits: " + out.failureA());
    assertTrue(out.failureB().isPresent(), "B loses the conflict check");
    assertEquals(SluiceException.Kind.CONFLICT, out.failureB().get().kind(), out.failureB().get().getMessage());
    out.instantA().ifPresent(i -> apply(i, byA));
    out.instantB().ifPresent(i -> apply(i, byB));
    List<GenericRecord> committed = byA;

    Table fresh = Tables.open(dir.toString(), Config.of(o));
    Map<String, String> latest = names(rows(fresh));
    int hidden = 0;
    for (GenericRecord r : committed) {
      if (!r.get("name").toString().equals(latest.get(r.get("id").toString()))) {
        hidden++;
      }
    }
    System.out.println("ConcurrentLogWritersTest " + order + ": " + hidden + " of "
        + committed.size() + " keys committed are hidden from the snapshot");
    assertEquals(0, hidden, "keys whose committed update is hidden");
    assertEquals(0, differing(current, latest), "keys of the snapshot that differ from the model");
    for (Map.Entry<String, Map<String, String>> e : model.entrySet()) {
      Map<String, String> asOf = names(rows(fresh.newScan().asOf(e.getKey()).open()));
      int wrong = differing(e.getValue(), asOf);
      System.out.println("ConcurrentLogWritersTest " + order + ": time travel to "
          + e.getKey() + ": " + wrong + " keys differ from the model");
      assertEquals(0, wrong, "keys of the time travel to " + e.getKey() + " that differ from the model");
    }
    assertNoSharedLogVersion();
    String loser = fresh.timeline().filter(i -> i.action() == dev.sluice.internal.timeline.Action.ROLLBACK)
        .instants().isEmpty() ? "" : "rolled back";
    assertEquals("rolled back", loser, "the loser's instant was rolled back");
    for (String log : MorFixture.logFiles(dir)) {
      for (BlockSummary b : MorFixture.blocks(dir, log)) {
        assertTrue(b.instantTime().map(i -> model.containsKey(i)).orElse(true),
            "a block of the rolled-back instant is left in " + log + " (rollback blocks aside: " + b + ")");
      }
    }
    assertEquals(List.of(), TableChecks.unreferenced(dir, false), "files no instant references");
  }

  private static int differing(Map<String, String> expected, Map<String, String> actual) {
    java.util.Set<String> keys = new java.util.TreeSet<>(expected.keySet());
    keys.addAll(actual.keySet());
    int n = 0;
    for (String k : keys) {
      if (!java.util.Objects.equals(expected.get(k), actual.get(k))) {
        n++;
      }
    }
    return n;
  }

  private static Map<String, String> names(Map<String, GenericRecord> rows) {
    Map<String, String> out = new TreeMap<>();
    rows.forEach((k, r) -> out.put(k, r.get("name").toString()));
    return out;
  }

  /** No two log files of one slice have the same version. */
  private void assertNoSharedLogVersion() {
    Map<String, String> seen = new HashMap<>();
    for (String log : MorFixture.logFiles(dir)) {
      LogFileName n = FileNames.parseLog(Path.of(log).getFileName().toString()).orElseThrow();
      String slice = Path.of(log).getParent() + "/" + n.fileId() + "_" + n.baseInstant() + "." + n.version();
      String other = seen.put(slice, log);
      assertTrue(other == null, "two log files share a version: " + other + " and " + log);
    }
  }
}
