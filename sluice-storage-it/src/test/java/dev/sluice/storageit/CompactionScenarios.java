package dev.sluice.storageit;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.compact.CompactionResult;
import dev.sluice.api.SluiceException;
import dev.sluice.interop.RemoteHudi;
import dev.sluice.api.QueryType;
import dev.sluice.storage.InterceptedStorage.Op;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.api.CloseableIterator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * Compaction of a Merge-on-Read table on a remote store: the plan is written, every planned slice's base file and
 * logs become a new base file, and the snapshot is unchanged while the read-optimized view catches up, by Sluice
 * and by Hudi 0.15; a compaction killed before it commits is invisible, and running it again from its plan gives the
 * same rows.
 */
interface CompactionScenarios {
  /** A location no table uses yet. */
  String newLocation(String name);

  /** The settings that reach the store. */
  Map<String, String> settings();

  private Map<String, String> morSettings() {
    Map<String, String> s = new HashMap<>(settings());
    s.put("hoodie.parquet.small.file.limit", "0");
    return s;
  }

  private Table morTableWithLogs(String location) {
    Table t = Tables.create(location, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(6).build(),
        RemoteTables.options(morSettings()));
    t.insert(it(trips(0, 20, 2, 10)));
    t.upsert(it(List.of(trip("id-000000", 11, "p0", "upd", 1), trip("id-000003", 11, "p1", "upd3", 3))));
    t.delete(it(List.of(RemoteTables.key(t, "id-000004", "p0"))));
    return t;
  }

  private static Map<String, String> readOptimizedView(Table t) {
    List<GenericRecord> rows = new ArrayList<>();
    try (CloseableIterator<GenericRecord> r = t.newScan().queryType(QueryType.READ_OPTIMIZED).withMetaColumns(true)
        .open()) {
      r.forEachRemaining(rows::add);
    }
    return HudiReadsScenarios.view(rows);
  }

  /** Snapshot rows without the file name (compaction moves rows to new base files). */
  private static Map<String, String> userRows(Table t) {
    Map<String, String> out = new java.util.TreeMap<>();
    rows(t).forEach((k, r) -> out.put(k, r.toString()));
    return out;
  }

  @Test
  default void compactionFoldsTheLogsIntoNewBaseFilesThatSluiceAndHudiRead() {
    String location = newLocation("compaction");
    Table t = morTableWithLogs(location);
    Map<String, String> before = userRows(t);
    assertEquals(20, readOptimizedView(t).size(), "before compaction the read-optimized view has the deleted row");

    String instant = t.compaction().scheduleNow().orElseThrow();
    int groups = t.compaction().plan(instant).operations().size();
    CompactionResult r = TableInternals.compaction(t).run(instant);
    assertEquals(groups, r.baseFilesWritten());

    Table reader = RemoteTables.reopen(location, morSettings());
    assertEquals(before, userRows(reader), "the snapshot is unchanged");
    Map<String, String> snapshot = HudiReadsScenarios.sluiceView(reader, Optional.empty());
    assertEquals(snapshot, readOptimizedView(reader), "after compaction the base files hold the merged rows");
    Optional<Instant> done = TableInternals.timeline(reader).find(instant);
    assertTrue(done.isPresent() && done.get().isCompleted() && done.get().action() == Action.COMMIT, String.valueOf(done));

    RemoteHudi.Reads hudi = RemoteHudi.locate(settings()).reads(location, List.of());
    assertEquals(snapshot, HudiReadsScenarios.view(hudi.latest()));
    assertEquals(snapshot, HudiReadsScenarios.view(hudi.readOptimized()));
    assertTrue(HudiReadsScenarios.completed(hudi.timeline()).contains(instant), hudi.timeline().toString());

    // writes go on after it: a delta commit on the compacted slices
    RemoteTables.reopen(location, morSettings()).upsert(it(List.of(trip("id-000000", 12, "p0", "after", 5))));
    Table last = RemoteTables.reopen(location, morSettings());
    assertEquals("after", rows(last).get("id-000000").get("name").toString());
    assertEquals(HudiReadsScenarios.sluiceView(last, Optional.empty()),
        HudiReadsScenarios.view(RemoteHudi.locate(settings()).read(location)));
  }

  @Test
  default void aCompactionKilledBeforeItsCommitIsInvisibleAndItsRerunGivesTheSameRows() {
    String location = newLocation("compaction-killed");
    Table t = morTableWithLogs(location);
    Map<String, String> before = userRows(t);
    String instant = t.compaction().scheduleNow().orElseThrow();

    RecordingStorage dying = new RecordingStorage(RemoteTables.storage(location, settings()))
        .crashAt(c -> c.op() == Op.CREATE_EXCLUSIVE && c.path().endsWith("/" + instant + ".commit"));
    Table doomed = Tables.open(dying.storage(), location, RemoteTables.options(morSettings()));
    assertThrows(SluiceException.class, () -> doomed.compaction().run(instant));
    assertTrue(dying.crashed());

    Table reader = RemoteTables.reopen(location, morSettings());
    assertEquals(before, userRows(reader), "the killed compaction's base files are not read");
    assertEquals(List.of(instant), reader.compaction().pending());
    RemoteHudi.Reads seen = RemoteHudi.locate(settings()).reads(location, List.of());
    assertEquals(HudiReadsScenarios.sluiceView(reader, Optional.empty()), HudiReadsScenarios.view(seen.latest()));

    reader.compaction().run(instant);
    Table after = RemoteTables.reopen(location, morSettings());
    assertEquals(before, userRows(after), "the re-run from the plan gives the same rows");
    assertEquals(List.of(), after.compaction().pending());
    Map<String, String> snapshot = HudiReadsScenarios.sluiceView(after, Optional.empty());
    assertEquals(snapshot, readOptimizedView(after));
    RemoteHudi.Reads hudi = RemoteHudi.locate(settings()).reads(location, List.of());
    assertEquals(snapshot, HudiReadsScenarios.view(hudi.latest()));
    assertEquals(snapshot, HudiReadsScenarios.view(hudi.readOptimized()));
  }
}
