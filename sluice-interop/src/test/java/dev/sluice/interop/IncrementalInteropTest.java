package dev.sluice.interop;

import dev.sluice.internal.service.TableInternals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.MergeMode;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.api.CloseableIterator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sluice's incremental query on tables Hudi 0.15's Java client wrote (Copy-on-Write, and Merge-on-Read with updates
 * in log files), for every range of commits: the rows equal Hudi's snapshot as of the range's end filtered by
 * {@code _hoodie_commit_time} in the range, meta columns included; the deleted rows are the keys Hudi's snapshot as
 * of the start holds and as of the end does not.
 */
class IncrementalInteropTest {
  private static final String BEGINNING = "00000000000000000";
  private static final Map<String, String> CONF = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  private static GenericRecord row(String id, long ts, String part, String name) {
    GenericRecord address = new GenericData.Record(MergeOnReadInteropTest.SCHEMA.getField("address").schema());
    address.put("city", "c-" + id);
    address.put("zip", (int) ts);
    GenericRecord r = new GenericData.Record(MergeOnReadInteropTest.SCHEMA);
    r.put("id", id);
    r.put("ts", ts);
    r.put("part", part);
    r.put("name", name);
    r.put("score", ts * 1.5);
    r.put("address", address);
    r.put("tags", List.of("t" + ts));
    r.put("_hoodie_is_deleted", false);
    return r;
  }

  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor"})
  void sluicesIncrementalQueryOfAHudiTableIsHudisSnapshotFilteredByCommitTime(String type) {
    Path path = dir.resolve("hudi_" + type);
    OracleTableSpec.Builder spec = OracleTableSpec.builder("hudi_" + type, MergeOnReadInteropTest.SCHEMA)
        .partitionBy("part").payload(MergeMode.EVENT_TIME_ORDERING.payloadClass());
    // Hudi's create and writes in one oracle JVM
    OracleBatch hudi = oracle.batch();
    hudi.create(path, (type.equals("cow") ? spec.copyOnWrite() : spec.mergeOnRead()).build(), List.of());
    Map<String, String> deletes = new LinkedHashMap<>(CONF);
    deletes.put("hoodie.datasource.write.payload.class", "org.apache.hudi.common.model.EmptyHoodieRecordPayload");
    hudi.write(path, "insert", MergeOnReadInteropTest.SCHEMA, List.of(row("h1", 1, "p1", "a"), row("h2", 1, "p1", "b"),
        row("h3", 1, "p2", "c"), row("h4", 1, "p2", "d"), row("h5", 1, "p1", "e")), CONF);
    // updates (one late: it loses to the stored row), an insert
    hudi.write(path, "upsert", MergeOnReadInteropTest.SCHEMA, List.of(row("h1", 4, "p1", "a4"),
        row("h3", 0, "p2", "late"), row("h6", 4, "p2", "f")), CONF);
    // deletes by an empty payload (Hudi's delete() on MoR drops log-only updates, see the format notes)
    hudi.write(path, "upsert", MergeOnReadInteropTest.SCHEMA, List.of(row("h2", 5, "p1", null),
        row("h6", 5, "p2", null)), deletes);
    hudi.write(path, "upsert", MergeOnReadInteropTest.SCHEMA, List.of(row("h1", 6, "p1", "a6"),
        row("h2", 7, "p1", "back"), row("h4", 6, "p2", "d6")), CONF);
    if (type.equals("mor")) {
      // Hudi compacts: the compaction rewrites records, keeping their commit times, so ranges over it must return
      // them once, with the commit that wrote them
      Map<String, String> compact = new LinkedHashMap<>(CONF);
      compact.put("hoodie.compact.inline.max.delta.commits", "1");
      hudi.write(path, "compact", MergeOnReadInteropTest.SCHEMA, List.of(), compact);
    }
    hudi.write(path, "upsert", MergeOnReadInteropTest.SCHEMA, List.of(row("h5", 8, "p1", "e8"),
        row("h7", 8, "p2", "g")), CONF);
    hudi.run();

    Table t = Tables.open(path.toString());
    List<String> commits = TableInternals.timeline(t).commitsTimeline().completed().instants().stream().map(Instant::time).toList();
    if (type.equals("mor")) {
      assertEquals(6, commits.size(), "4 delta commits, a compaction, a delta commit: " + TableInternals.timeline(t));
      assertTrue(TableInternals.timeline(t).isCompaction(commits.get(4)), TableInternals.timeline(t).toString());
    } else {
      assertEquals(5, commits.size());
    }
    OracleBatch batch = oracle.batch();
    Map<String, OracleBatch.Pending<List<GenericRecord>>> asOf = new TreeMap<>();
    for (String c : commits) {
      asOf.put(c, batch.read(path, "snapshot", Optional.of(c), false));
    }
    batch.run();
    List<String> begins = new ArrayList<>(List.of(BEGINNING));
    begins.addAll(commits);
    int withRows = 0;
    int withDeletes = 0;
    for (int i = 0; i < begins.size(); i++) {
      String begin = begins.get(i);
      for (String end : commits.subList(Math.max(0, i - 1), commits.size())) {
        String range = type + " (" + begin + ", " + end + "]";
        List<GenericRecord> expected = asOf.get(end).get().stream()
            .filter(r -> Rows.text(r, Rows.COMMIT_TIME).compareTo(begin) > 0
                && Rows.text(r, Rows.COMMIT_TIME).compareTo(end) <= 0)
            .toList();
        List<GenericRecord> sluice = read(t, begin, end, false);
        assertEquals(MergeOnReadInteropTest.byKey(expected), MergeOnReadInteropTest.byKey(sluice), range);
        withRows += expected.isEmpty() ? 0 : 1;

        Map<String, Map<String, String>> before = begin.equals(BEGINNING) ? Map.of()
            : MergeOnReadInteropTest.byKey(asOf.get(begin).get());
        Map<String, Map<String, String>> after = MergeOnReadInteropTest.byKey(asOf.get(end).get());
        Map<String, Map<String, String>> gone = new TreeMap<>(before);
        gone.keySet().removeAll(after.keySet());
        // a deleted row is the record as of the start, with the table's own _hoodie_is_deleted column set
        gone.values().forEach(fields -> fields.put("_hoodie_is_deleted", "true"));
        Map<String, Map<String, String>> sluiceGone = new TreeMap<>();
        Map<String, Map<String, String>> sluiceLive = new TreeMap<>();
        MergeOnReadInteropTest.byKey(read(t, begin, end, true)).forEach((k, v) ->
            (v.get("_hoodie_is_deleted").equals("true") ? sluiceGone : sluiceLive).put(k, v));
        assertEquals(gone, sluiceGone, range + " deleted rows");
        assertEquals(MergeOnReadInteropTest.byKey(expected), sluiceLive, range + " with deleted rows");
        withDeletes += gone.isEmpty() ? 0 : 1;
      }
    }
    assertTrue(withRows > 6 && withDeletes > 1, withRows + " ranges with rows, " + withDeletes + " with deletes");
    // the late update of h3: Hudi's CoW table stores no payload class, so the latest write wins there; on MoR
    // event-time ordering keeps the stored row, h3 stays at its first commit and ranges after it do not return it
    Map<String, Map<String, String>> afterFirst = MergeOnReadInteropTest.byKey(read(t, commits.get(0),
        commits.get(commits.size() - 1), false));
    if (type.equals("cow")) {
      assertEquals("\"late\"", afterFirst.get("h3").get("name"));
    } else {
      assertFalse(afterFirst.containsKey("h3"));
    }
  }

  private static List<GenericRecord> read(Table t, String begin, String end, boolean deletes) {
    List<GenericRecord> out = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().incremental(begin, end).includeDeletes(deletes)
        .withMetaColumns(true).open()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }
}
