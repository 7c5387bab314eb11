package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.WriteModel.Version;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.read.ScanPlan;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Incremental queries: bad ranges, projection, filters and partition pruning, which files are opened, records
 * only in logs, and ranges over cleaned or archived commits (error, or the full-table-scan fallback). On version 6
 * tables (ranges of instant times, deleted keys), except where a test names version 9 (ranges of completion times).
 */
class IncrementalOptionsTest {
  private static final String FALLBACK = "hoodie.datasource.read.incr.fallback.fulltablescan.enable";

  @TempDir
  Path dir;

  private Table cow() {
    return TripFixture.create(dir, TripFixture.spec().tableVersion(6).build(), Map.of());
  }

  /** Version 9's completion times are checked as version 6's instant times: 17 digits that are a date and time. */
  @Test
  void badCompletionTimesAreClearErrorsOnVersion9() {
    Table t = TripFixture.create(dir, TripFixture.spec().tableVersion(9).build(), Map.of());
    String c1 = t.insert(it(trips(0, 4, 2, 10))).instantTime();
    for (String bad : List.of("2026", "abc", c1 + "0", "20261399000000000")) {
      SluiceException e = assertThrows(SluiceException.class, () -> t.newScan().incremental(bad).open().close());
      assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
      assertTrue(e.getMessage().contains(bad) && e.getMessage().contains("17 digits"), e.getMessage());
      SluiceException to = assertThrows(SluiceException.class, () -> t.newScan().incremental(c1, bad).open().close());
      assertTrue(to.getMessage().contains("--to '" + bad + "'"), to.getMessage());
    }
    assertEquals(4, TripFixture.rows(t.newScan().incremental("earliest").open()).size());
  }

  @Test
  void badRangesAreClearErrors() {
    Table t = cow();
    String c1 = t.insert(it(trips(0, 4, 2, 10))).instantTime();
    for (String bad : List.of("2026", "abc", c1 + "0", "20261399000000000")) {
      SluiceException e = assertThrows(SluiceException.class, () -> t.newScan().incremental(bad).open().close());
      assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
      assertTrue(e.getMessage().contains(bad) && e.getMessage().contains("17 digits"), e.getMessage());
      SluiceException to = assertThrows(SluiceException.class, () -> t.newScan().incremental(c1, bad).open().close());
      assertTrue(to.getMessage().contains("--to '" + bad + "'"), to.getMessage());
    }
    SluiceException backwards = assertThrows(SluiceException.class,
        () -> t.newScan().incremental(c1, "20000101000000000").open().close());
    assertEquals(SluiceException.Kind.BAD_INPUT, backwards.kind());
    assertTrue(backwards.getMessage().contains("is before --from " + c1), backwards.getMessage());
    SluiceException noStart = assertThrows(SluiceException.class,
        () -> t.newScan().queryType(QueryType.INCREMENTAL).open().close());
    assertTrue(noStart.getMessage().contains("no start instant"), noStart.getMessage());
    SluiceException asOf = assertThrows(SluiceException.class,
        () -> t.newScan().incremental("00000000000000000").asOf(c1).open().close());
    assertTrue(asOf.getMessage().contains("--to"), asOf.getMessage());
    SluiceException snapshotDeletes = assertThrows(SluiceException.class,
        () -> t.newScan().includeDeletes(true).open().close());
    assertTrue(snapshotDeletes.getMessage().contains("incremental"), snapshotDeletes.getMessage());
    // a start after the last commit, and an empty range, are no error: nothing changed
    assertEquals(0, TripFixture.rows(t.newScan().incremental(c1).open()).size());
    assertEquals(0, TripFixture.rows(t.newScan().incremental(c1, c1).open()).size());
    assertEquals(4, TripFixture.rows(t.newScan().incremental("00000000000000000").open()).size());
  }

  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor"})
  void projectionFiltersAndPartitionPruningWorkAsOnSnapshots(String kind) {
    RecordingStorage storage = new RecordingStorage(dir.toString());
    Table t = Tables.create(storage.storage(), dir.toString(), (kind.equals("cow") ? TripFixture.spec().tableVersion(6)
        : TripFixture.spec().tableVersion(6).type(TableType.MERGE_ON_READ)).build(), Config.of(Map.of(
            "hoodie.index.bloom.num_entries", "1000", "hoodie.parquet.small.file.limit", "0")));
    WriteModel model = new WriteModel();
    List<GenericRecord> first = trips(0, 30, 3, 10);
    model.upsert(first, t.insert(it(first)).instantTime());
    List<GenericRecord> second = new ArrayList<>();
    for (int i = 0; i < 30; i += 2) {
      second.add(trip(String.format("id-%06d", i), 20, "p" + (i % 3), "second", i * 10.0));
    }
    String c2 = t.upsert(it(second)).instantTime();
    model.upsert(second, c2);
    storage.opened.clear();

    List<GenericRecord> rows = new ArrayList<>();
    ScanPlan plan = t.newScan().incremental(model.instants().get(0)).select("id", "amount")
        .filter(ExpressionParser.parse("part = 'p1' and Amount > 50")).plan();
    try (CloseableIterator<GenericRecord> it = plan.open()) {
      it.forEachRemaining(rows::add);
    }
    Map<String, Double> expected = new TreeMap<>();
    model.incremental(model.instants().get(0), c2).values().stream()
        .filter(v -> v.part().equals("p1") && v.amount() > 50)
        .forEach(v -> expected.put(v.id(), v.amount()));
    Map<String, Double> got = new TreeMap<>();
    for (GenericRecord r : rows) {
      assertEquals(List.of("id", "amount"), r.getSchema().getFields().stream().map(Schema.Field::name).toList());
      got.put(r.get("id").toString(), (Double) r.get("amount"));
    }
    assertFalse(expected.isEmpty());
    assertEquals(expected, got);
    assertEquals(kind.equals("mor"), plan.mergesLogs());
    // only p1 is read: partition pruning applies to the touched partitions
    assertFalse(storage.dataFilesOpened().isEmpty());
    assertTrue(storage.dataFilesOpened().stream().allMatch(p -> p.startsWith("p1/")), storage.dataFilesOpened().toString());
    assertTrue(plan.slices().stream().allMatch(s -> s.partitionPath().equals("p1")));

    // a limit, and deleted rows under a filter on a non-key column (the deleted version as of the start must match)
    assertEquals(3, TripFixture.rows(t.newScan().incremental("00000000000000000").limit(3).open()).size());
    GenericRecord k = new GenericData.Record(t.keySchema());
    k.put("id", "id-000004");
    k.put("part", "p1");
    GenericRecord k2 = new GenericData.Record(t.keySchema());
    k2.put("id", "id-000007");
    k2.put("part", "p1");
    String c3 = t.delete(it(List.of(k, k2))).instantTime();
    Map<String, GenericRecord> deleted = TripFixture.rows(t.newScan().incremental(c2, c3).includeDeletes(true)
        .select("id", "amount").filter(ExpressionParser.parse("AMOUNT > 20")).open());
    // id-000004 had amount 40 as of c2, id-000007 had 10.5: only the first matches
    assertEquals(Set.of("id-000004"), deleted.keySet());
    assertEquals(Boolean.TRUE, deleted.get("id-000004").get("_hoodie_is_deleted"));
    assertEquals(40.0, deleted.get("id-000004").get("amount"));
    // the filter's column need not be selected, nor spelled in the schema's case
    Map<String, GenericRecord> idsOnly = TripFixture.rows(t.newScan().incremental(c2, c3).includeDeletes(true)
        .select("id").filter(ExpressionParser.parse("Amount > 20")).open());
    assertEquals(Set.of("id-000004"), idsOnly.keySet());
    assertEquals(List.of("id", "_hoodie_is_deleted"), idsOnly.get("id-000004").getSchema().getFields().stream()
        .map(Schema.Field::name).toList());
    // the scan's schema, read without a plan, is the rows' own
    assertEquals(idsOnly.get("id-000004").getSchema(), t.newScan().incremental(c2, c3).includeDeletes(true)
        .select("id").filter(ExpressionParser.parse("Amount > 20")).schema());
    // the same on snapshots: an unselected filter column spelled in another case
    Map<String, GenericRecord> snapshot = TripFixture.rows(t.newScan().select("id")
        .filter(ExpressionParser.parse("AMOUNT > 200 and PART = 'p2'")).open());
    Map<String, Version> now = model.asOf(c2);
    assertEquals(now.values().stream().filter(v -> v.amount() > 200 && v.part().equals("p2")).map(Version::id)
        .collect(java.util.stream.Collectors.toCollection(TreeSet::new)), snapshot.keySet());
    assertFalse(snapshot.isEmpty());
  }

  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor"})
  void onlyTheFileGroupsTheRangeTouchedAreOpened(String kind) {
    RecordingStorage storage = new RecordingStorage(dir.toString());
    Table t = Tables.create(storage.storage(), dir.toString(), (kind.equals("cow") ? TripFixture.spec().tableVersion(6)
        : TripFixture.spec().tableVersion(6).type(TableType.MERGE_ON_READ)).build(), Config.of(Map.of(
            "hoodie.index.bloom.num_entries", "1000", "hoodie.parquet.small.file.limit", "0")));
    // four inserts, each a new file group in each of 2 partitions: 8 file groups
    List<String> instants = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      instants.add(t.insert(it(trips(c * 10, 10, 2, 10))).instantTime());
    }
    // one update of a key in the second commit's p1 group
    String c5 = t.upsert(it(List.of(trip("id-000011", 20, "p1", "changed", 1)))).instantTime();
    assertEquals(8, t.fileSystemView().fileGroups("p0").size() + t.fileSystemView().fileGroups("p1").size());

    storage.opened.clear();
    ScanPlan plan = t.newScan().incremental(instants.get(3)).withMetaColumns(true).plan();
    List<GenericRecord> rows = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = plan.open()) {
      it.forEachRemaining(rows::add);
    }
    assertEquals(1, rows.size());
    assertEquals("changed", rows.get(0).get("name").toString());
    assertEquals(c5, rows.get(0).get("_hoodie_commit_time").toString());
    assertEquals(1, plan.slices().size());
    FileSlice s = plan.slices().get(0);
    Set<String> sliceFiles = new TreeSet<>();
    s.baseFile().ifPresent(b -> sliceFiles.add("p1/" + b.fileName()));
    s.logFiles().forEach(l -> sliceFiles.add("p1/" + l.fileName()));
    assertEquals(sliceFiles, storage.dataFilesOpened());
    // on MoR the update is only in the log file, and is still returned
    assertEquals(kind.equals("mor"), !s.logFiles().isEmpty());

    // two commits: the two groups of the 4th insert and the updated one
    storage.opened.clear();
    ScanPlan two = t.newScan().incremental(instants.get(2)).plan();
    assertEquals(11, TripFixture.rows(two.open()).size());
    assertEquals(3, two.slices().size());
    Set<String> files = new TreeSet<>();
    for (FileSlice f : two.slices()) {
      f.baseFile().ifPresent(b -> files.add(f.partitionPath() + "/" + b.fileName()));
      f.logFiles().forEach(l -> files.add(f.partitionPath() + "/" + l.fileName()));
    }
    assertEquals(files, storage.dataFilesOpened());
  }

  @Test
  void aRangeWhoseFilesWereCleanedFailsOrFallsBackToAFullTableScan() {
    Table t = TripFixture.create(dir, TripFixture.spec().tableVersion(6).build(), Map.of("hoodie.cleaner.commits.retained", "1",
        "hoodie.keep.min.commits", "20", "hoodie.keep.max.commits", "30"));
    WriteModel model = new WriteModel();
    List<GenericRecord> base = trips(0, 6, 1, 10);
    model.upsert(base, t.insert(it(base)).instantTime());
    for (int c = 1; c <= 4; c++) {
      List<GenericRecord> u = List.of(trip("id-00000" + c, 10 + c, "p0", "u" + c, c));
      model.upsert(u, t.upsert(it(u)).instantTime());
    }
    List<String> in = model.instants();
    // the single file group's versions of commits 2 and 3 are cleaned (1 commit retained)
    SluiceException e = assertThrows(SluiceException.class,
        () -> t.newScan().incremental(in.get(1), in.get(2)).open().close());
    assertTrue(e.getMessage().contains("cleaned") && e.getMessage().contains(FALLBACK), e.getMessage());
    Table fallback = Tables.open(dir.toString(), Config.of(Map.of(FALLBACK, "true")));
    // the latest snapshot's rows written in the range: id-000002 (written by commit 3) is still at that version
    Map<String, GenericRecord> rows = TripFixture.rows(fallback.newScan().incremental(in.get(1), in.get(2)).open());
    Map<String, Version> expected = model.incremental(in.get(1), in.get(in.size() - 1));
    expected.values().removeIf(v -> v.commitTime().compareTo(in.get(2)) > 0);
    assertEquals(expected.values().stream().map(Version::id).toList(), List.copyOf(rows.keySet()));
    assertEquals(List.of("id-000002"), List.copyOf(rows.keySet()));
    SluiceException deletes = assertThrows(SluiceException.class,
        () -> fallback.newScan().incremental(in.get(1), in.get(2)).includeDeletes(true).open().close());
    assertTrue(deletes.getMessage().contains("deleted"), deletes.getMessage());
    // the range ending at the latest commit reads the latest slice, which is never cleaned
    assertEquals(Set.of("id-000004"), TripFixture.rows(t.newScan().incremental(in.get(3)).open()).keySet());
  }

  @Test
  void aRangeReachingArchivedCommitsFailsOrFallsBackToAFullTableScan() {
    // the data table's archival never passes the metadata table's latest compaction (on by default): compacted
    // every second delta commit here, so that archival can reach the early commits within six writes
    Table t = TripFixture.create(dir, TripFixture.spec().tableVersion(6).build(), Map.of("hoodie.cleaner.commits.retained", "1",
        "hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3", "hoodie.metadata.compact.max.delta.commits",
        "2"));
    WriteModel model = new WriteModel();
    for (int c = 0; c < 6; c++) {
      List<GenericRecord> b = trips(c * 3, 3, 2, 10);
      model.upsert(b, (c == 0 ? t.insert(it(b)) : t.upsert(it(b))).instantTime());
    }
    List<String> in = model.instants();
    String firstActive = t.timeline().commitsTimeline().completed().firstInstant().orElseThrow().time();
    assertTrue(firstActive.compareTo(in.get(1)) > 0, "early commits are archived");
    SluiceException e = assertThrows(SluiceException.class,
        () -> t.newScan().incremental(in.get(0)).open().close());
    assertTrue(e.getMessage().contains("archived") && e.getMessage().contains(FALLBACK), e.getMessage());
    Table fallback = Tables.open(dir.toString(), Config.of(Map.of(FALLBACK, "true")));
    Map<String, GenericRecord> all = TripFixture.rows(fallback.newScan().incremental(in.get(0)).open());
    assertEquals(model.incremental(in.get(0), in.get(5)).values().stream().map(Version::id).sorted().toList(),
        List.copyOf(all.keySet()));
    // a range within the active timeline needs no fallback
    int from = in.indexOf(firstActive);
    assertEquals(model.incremental(firstActive, in.get(5)).values().stream().map(Version::id).sorted().toList(),
        List.copyOf(TripFixture.rows(t.newScan().incremental(firstActive).open()).keySet()));
    assertTrue(from > 0);
  }

  /** Local storage that records the paths it opens for reading. */
  static final class RecordingStorage implements InterceptedStorage.Interceptor {
    final ConcurrentLinkedQueue<String> opened = new ConcurrentLinkedQueue<>();
    private final String base;
    private final Storage storage = new InterceptedStorage(new LocalStorage(), this);

    RecordingStorage(String base) {
      this.base = base;
    }

    /** The storage whose opens are recorded. */
    Storage storage() {
      return storage;
    }

    /** The base and log files opened, relative to the table. */
    Set<String> dataFilesOpened() {
      Set<String> out = new TreeSet<>();
      for (String p : opened) {
        String rel = p.startsWith(base + "/") ? p.substring(base.length() + 1) : p;
        String name = Path.of(rel).getFileName().toString();
        if (!rel.startsWith(".hoodie") && (name.endsWith(".parquet") || name.contains(".log."))) {
          out.add(rel);
        }
      }
      return out;
    }

    @Override
    public void before(InterceptedStorage.Call call) {
      if (call.op() == InterceptedStorage.Op.OPEN) {
        opened.add(call.path());
      }
    }
  }
}
