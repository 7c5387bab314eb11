package dev.sluice.storageit;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.interop.RemoteHudi;
import dev.sluice.api.TableType;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.CommitResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Incremental queries on a remote store, Copy-on-Write and Merge-on-Read: every range of three writes returns the
 * rows of Hudi 0.15's snapshot as of the range's end whose commit time falls in the range (Hudi's own definition of
 * an incremental pull), read through the store by both.
 */
interface IncrementalScenarios {
  /** A location no table uses yet. */
  String newLocation(String name);

  /** The settings that reach the store. */
  Map<String, String> settings();

  private static Map<String, String> incremental(Table t, String begin, String end) {
    List<GenericRecord> rows = new ArrayList<>();
    try (CloseableIterator<GenericRecord> r = t.newScan().withMetaColumns(true).incremental(begin, end).open()) {
      r.forEachRemaining(rows::add);
    }
    return HudiReadsScenarios.view(rows);
  }

  private static Map<String, String> committedIn(Map<String, String> view, List<GenericRecord> rows, String begin,
      String end) {
    Map<String, String> out = new TreeMap<>();
    for (GenericRecord r : rows) {
      String t = String.valueOf(r.get("_hoodie_commit_time"));
      if (t.compareTo(begin) > 0 && t.compareTo(end) <= 0) {
        String key = String.valueOf(r.get("_hoodie_record_key"));
        out.put(key, view.get(key));
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  default void everyIncrementalRangeIsHudisSnapshotFilteredByCommitTime(TableType type) {
    String location = newLocation("incremental-" + type.name().toLowerCase(java.util.Locale.ROOT));
    Map<String, String> s = new HashMap<>(settings());
    // Merge-on-Read: updates go to log files, so the ranges read logs too
    s.put("hoodie.parquet.small.file.limit", "0");
    Table t = Tables.create(location, TripFixture.spec().type(type).tableVersion(6).build(), RemoteTables.options(s));
    CommitResult c1 = t.insert(it(trips(0, 20, 2, 1)));
    CommitResult c2 = t.upsert(it(List.of(trip("id-000001", 2, "p1", "second", 1), trip("id-000100", 2, "p0", "new", 2))));
    CommitResult c3 = t.upsert(it(List.of(trip("id-000002", 3, "p0", "third", 3), trip("id-000001", 3, "p1", "again", 4))));
    List<String> times = List.of(c1.instantTime(), c2.instantTime(), c3.instantTime());

    RemoteHudi.Reads hudi = RemoteHudi.locate(s).reads(location, times);
    Table reader = RemoteTables.reopen(location, s);
    int ranges = 0;
    // all zeros: from the beginning
    List<String> begins = List.of("00000000000000000", times.get(0), times.get(1));
    for (String begin : begins) {
      for (int e = 0; e < times.size(); e++) {
        String end = times.get(e);
        if (end.compareTo(begin) <= 0) {
          continue;
        }
        List<GenericRecord> asOfEnd = hudi.asOf().get(e);
        Map<String, String> expected = committedIn(HudiReadsScenarios.view(asOfEnd), asOfEnd, begin, end);
        assertEquals(expected, incremental(reader, begin, end), "range (" + begin + ", " + end + "]");
        ranges++;
      }
    }
    assertEquals(6, ranges);
    Map<String, String> last = incremental(reader, c2.instantTime(), c3.instantTime());
    assertEquals(2, last.size(), last.toString());
    assertTrue(last.get("id-000001").contains("|again|"), last.toString());
  }
}
