package dev.sluice.interop;

import static dev.sluice.interop.MergeOnReadInteropTest.byKey;
import static dev.sluice.interop.MergeOnReadInteropTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.testing.TwoWriterRace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two Sluice writers update the same Merge-on-Read file groups under optimistic concurrency control, the race forced
 * ({@link TwoWriterRace}): A commits, B fails the conflict check and is rolled back. Hudi 0.15's reader, which stops
 * at the first log block after its query instant, then returns the same rows as Sluice for the snapshot and for time
 * travel to every completed instant, with none of A's keys hidden, and so does Hudi 1.1.1's file-group reader; Hudi's
 * Java client writes on and all three still agree.
 */
class ConcurrentLogWritersInteropTest {
  private static final int KEYS = 40;
  private static final Map<String, String> HUDI_WRITE = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000",
      "hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.SimpleAvroKeyGenerator");

  private static HudiOracle oracle;
  private static HudiOracle hudi1;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
    hudi1 = HudiOracle.locateHudi1();
  }

  private static List<GenericRecord> version(String prefix, long ts, java.util.function.IntPredicate which) {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      if (which.test(i)) {
        out.add(TripFixture.trip(String.format("id-%06d", i), ts, "p" + (i % 2), prefix + i, i));
      }
    }
    return out;
  }

  /** A record's name as {@code byKey} holds it (Avro's JSON text of a string). */
  private static String quoted(GenericRecord r) {
    return "\"" + r.get("name") + "\"";
  }

  @ParameterizedTest
  @EnumSource(TwoWriterRace.Order.class)
  void hudiSeesTheSameRowsAsSluiceAfterARolledBackConcurrentWriter(TwoWriterRace.Order order) throws InterruptedException {
    Path path = dir.resolve("race");
    Map<String, String> o = new HashMap<>(Map.of("hoodie.index.bloom.num_entries", "1000",
        "hoodie.parquet.small.file.limit", "0", "sluice.write.parallelism", "1", "hoodie.metadata.enable", "false",
        "hoodie.write.concurrency.mode", "optimistic_concurrency_control",
        "hoodie.write.lock.provider", "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider",
        "hoodie.write.lock.wait_time_ms_between_retry", "5"));
    Table t = Tables.create(path.toString(), TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(6).build(), Config.of(o));
    List<String> instants = new ArrayList<>();
    instants.add(t.insert(version("seed-", 1, i -> true).iterator()).instantTime());
    instants.add(t.upsert(version("c1-", 2, i -> true).iterator()).instantTime());
    List<GenericRecord> byA = version("A-", 3, i -> i % 4 < 2);
    List<GenericRecord> byB = version("B-", 3, i -> i % 4 == 3);
    TwoWriterRace.Outcome out = TwoWriterRace.run(path.toString(), o, order, true, "p1",
        ta -> ta.upsert(byA.iterator()).instantTime(), tb -> tb.upsert(byB.iterator()).instantTime());
    assertTrue(out.failureB().isPresent(), "B loses the conflict check");
    instants.add(out.instantA().orElseThrow(() -> new AssertionError("A commits: " + out.failureA())));

    Table fresh = Tables.open(path.toString(), Config.of(o));
    OracleBatch batch = oracle.batch();
    var hudiLatest = batch.read(path, "snapshot", Optional.empty(), false);
    Map<String, OracleBatch.Pending<List<GenericRecord>>> hudiAsOf = new LinkedHashMap<>();
    for (String i : instants) {
      hudiAsOf.put(i, batch.read(path, "snapshot", Optional.of(i), false));
    }
    batch.run();
    Map<String, Map<String, String>> sluice = byKey(rows(fresh.newScan()));
    int hidden = 0;
    for (GenericRecord r : byA) {
      Map<String, String> hudiRow = byKey(hudiLatest.get()).get(r.get("id").toString());
      if (hudiRow == null || !quoted(r).equals(hudiRow.get("name"))) {
        hidden++;
      }
    }
    System.out.println("ConcurrentLogWritersInteropTest " + order + ": Hudi 0.15 hides " + hidden + " of " + byA.size()
        + " keys the committed writer updated");
    assertEquals(0, hidden, "keys whose committed update Hudi's reader does not return");
    assertEquals(byKey(hudiLatest.get()), sluice, "Hudi's snapshot is Sluice's");
    for (Map.Entry<String, OracleBatch.Pending<List<GenericRecord>>> e : hudiAsOf.entrySet()) {
      assertEquals(byKey(e.getValue().get()), byKey(rows(fresh.newScan().asOf(e.getKey()))), "time travel to " + e.getKey());
    }
    // Hudi 1.x's file-group reader (the one its engines share) on the same table: the same rows, now and at every
    // completed instant
    assertEquals(sluice, byKey(hudi1.read(path, "snapshot", Optional.empty())), "Hudi 1.1.1's snapshot is Sluice's");
    for (String i : instants) {
      assertEquals(byKey(rows(fresh.newScan().asOf(i))), byKey(hudi1.read(path, "snapshot", Optional.of(i))),
          "Hudi 1.1.1's time travel to " + i);
    }

    // Hudi writes on: its next delta commit lands after everything above, and both engines agree again
    List<GenericRecord> byHudi = version("H-", 4, i -> i % 4 == 1 || i % 4 == 3);
    oracle.write(path, "upsert", TripFixture.SCHEMA, byHudi, HUDI_WRITE);
    Map<String, Map<String, String>> after = byKey(rows(Tables.open(path.toString(), Config.of(o)).newScan()));
    assertEquals(byKey(oracle.read(path, "snapshot", Optional.empty())), after, "after Hudi's write");
    assertEquals(byKey(hudi1.read(path, "snapshot", Optional.empty())), after, "Hudi 1.1.1 after Hudi 0.15's write");
    for (GenericRecord r : byHudi) {
      assertEquals(quoted(r), after.get(r.get("id").toString()).get("name"));
    }
    for (GenericRecord r : byA) {
      if (byHudi.stream().noneMatch(h -> h.get("id").toString().equals(r.get("id").toString()))) {
        assertEquals(quoted(r), after.get(r.get("id").toString()).get("name"));
      }
    }
  }
}
