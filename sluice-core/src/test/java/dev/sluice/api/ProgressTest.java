package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ProgressListener}: every long step of a write (input, tagging, file groups), a compaction, a clean and a scan
 * reports its start, counts that never go back, and one last report at the step's total; in memory and spilled, on
 * Copy-on-Write and Merge-on-Read.
 */
class ProgressTest {
  @TempDir
  Path dir;

  /** The reports of one operation, in arrival order (the listener is called one report at a time). */
  private static final class Recorder implements ProgressListener {
    final List<Progress> reports = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void onProgress(Progress p) {
      reports.add(p);
    }

    /** The steps in the order they started. */
    List<Progress.Step> steps() {
      return List.copyOf(byStep().keySet());
    }

    Map<Progress.Step, List<Progress>> byStep() {
      Map<Progress.Step, List<Progress>> out = new LinkedHashMap<>();
      synchronized (reports) {
        reports.forEach(p -> out.computeIfAbsent(p.step(), s -> new ArrayList<>()).add(p));
      }
      return out;
    }

    /**
     * Checks the reports of {@code step}: they come as one run (no other step's in between), start at 0, never go back,
     * end with the only finished report; returns the last.
     */
    Progress checked(Progress.Step step) {
      List<Progress> of = byStep().get(step);
      assertTrue(of != null && !of.isEmpty(), step + " reported nothing: " + reports);
      int first = reports.indexOf(of.get(0));
      assertEquals(of, reports.subList(first, first + of.size()), step + "'s reports are not one run: " + reports);
      assertEquals(0, of.get(0).done(), "a step reports its start");
      for (int i = 1; i < of.size(); i++) {
        assertTrue(of.get(i).done() >= of.get(i - 1).done(), "counts go back: " + of);
        assertEquals(of.get(0).total(), of.get(i).total(), "the total changed: " + of);
      }
      for (int i = 0; i < of.size() - 1; i++) {
        assertFalse(of.get(i).finished(), "a report after the finished one: " + of);
      }
      Progress last = of.get(of.size() - 1);
      assertTrue(last.finished(), "the step did not finish: " + of);
      return last;
    }
  }

  private Table table(TableType type, Map<String, String> options) {
    return TripFixture.create(dir.resolve("t"), TripFixture.spec().type(type).build(), options);
  }

  @ParameterizedTest
  @CsvSource({"COPY_ON_WRITE,false", "MERGE_ON_READ,false", "COPY_ON_WRITE,true", "MERGE_ON_READ,true"})
  void aWriteReportsItsInputTaggingAndFileGroupsEndingAtTheirTotals(TableType type, boolean spill) {
    Table t = table(type, spill ? Map.of("hoodie.memory.merge.max.size", "1") : Map.of());
    t.insert(it(trips(0, 3000, 4, 5)));
    // 2000 updates of stored keys, 2000 new keys: 4000 records read and tagged
    Recorder r = new Recorder();
    CommitResult result = t.write(WriteOperation.UPSERT, it(trips(1000, 4000, 4, 9)), r);
    assertEquals(List.of(Progress.Step.READ_INPUT, Progress.Step.TAG, Progress.Step.WRITE_FILE_GROUPS), r.steps());
    Progress read = r.checked(Progress.Step.READ_INPUT);
    assertEquals(4000, read.done());
    assertEquals(OptionalLong.empty(), read.total(), "the input is a stream of unknown length");
    assertEquals("records", read.unit());
    Progress tag = r.checked(Progress.Step.TAG);
    assertEquals(4000, tag.done());
    // a spilled batch is combined as it is tagged: its count is known only at the end
    assertEquals(spill ? OptionalLong.empty() : OptionalLong.of(4000), tag.total());
    // the file groups' records: every update and insert planned, as the handles took them
    Progress written = r.checked(Progress.Step.WRITE_FILE_GROUPS);
    assertEquals(2000, result.updated());
    assertEquals(2000, result.inserted());
    assertEquals(OptionalLong.of(4000), written.total());
    assertEquals(4000, written.done());
    assertEquals("records", written.unit());
  }

  /**
   * Tagging counts the batch as its base files are looked up, not all at once at the end: with each base file slow to
   * open (150 ms, past the meter's tick), a 4-partition upsert reports counts between 0 and the batch.
   */
  @Test
  void taggingReportsItsRecordsAsEachBaseFileIsLookedUp() {
    Table t = table(TableType.COPY_ON_WRITE, Map.of("sluice.write.parallelism", "1"));
    t.insert(it(trips(0, 3000, 4, 5)));
    dev.sluice.storage.Storage slow = new dev.sluice.storage.InterceptedStorage(new dev.sluice.storage.LocalStorage(),
        call -> {
          if (call.op() == dev.sluice.storage.InterceptedStorage.Op.OPEN && call.path().endsWith(".parquet")) {
            try {
              Thread.sleep(150);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        });
    Table opened = Tables.open(slow, dir.resolve("t").toString(), Config.of(Map.of("sluice.write.parallelism", "1")));
    Recorder r = new Recorder();
    opened.write(WriteOperation.UPSERT, it(trips(1000, 4000, 4, 9)), r);
    Progress tag = r.checked(Progress.Step.TAG);
    assertEquals(4000, tag.done());
    List<Long> between = r.byStep().get(Progress.Step.TAG).stream().map(Progress::done)
        .filter(d -> d > 0 && d < 4000).toList();
    assertFalse(between.isEmpty(), "tagging reported only its start and end: " + r.byStep().get(Progress.Step.TAG));
  }

  @Test
  void aBulkInsertDoesNotTagAndAnEmptyInputStopsAfterReading() {
    Table t = table(TableType.COPY_ON_WRITE, Map.of());
    Recorder r = new Recorder();
    t.write(WriteOperation.BULK_INSERT, it(trips(0, 500, 2, 5)), r);
    assertEquals(List.of(Progress.Step.READ_INPUT, Progress.Step.WRITE_FILE_GROUPS), r.steps());
    assertEquals(500, r.checked(Progress.Step.READ_INPUT).done());
    Progress w = r.checked(Progress.Step.WRITE_FILE_GROUPS);
    assertEquals(OptionalLong.of(500), w.total());
    assertEquals(500, w.done());
    Recorder empty = new Recorder();
    assertFalse(t.write(WriteOperation.UPSERT, it(List.of()), empty).committed());
    assertEquals(List.of(Progress.Step.READ_INPUT), empty.steps());
    assertEquals(0, empty.checked(Progress.Step.READ_INPUT).done());
  }

  @Test
  void aCompactionReportsTheFileGroupsOfItsPlan() {
    Table t = table(TableType.MERGE_ON_READ, Map.of("hoodie.compact.inline", "false"));
    t.insert(it(trips(0, 400, 4, 5)));
    t.upsert(it(trips(0, 400, 4, 9)));
    String instant = t.compaction().scheduleNow().orElseThrow();
    int planned = t.compaction().plan(instant).operations().size();
    assertTrue(planned >= 4, "one slice per partition at least");
    Recorder r = new Recorder();
    CompactionInfo info = t.compaction().run(instant, r);
    assertEquals(List.of(Progress.Step.COMPACTION), r.steps());
    Progress last = r.checked(Progress.Step.COMPACTION);
    assertEquals(OptionalLong.of(planned), last.total());
    assertEquals(planned, last.done());
    assertEquals(planned, info.baseFilesWritten());
  }

  /**
   * A listener that takes longer than the meter's shortest gap between reports over each one, so every stride of
   * records crossed gets its report (the gap is measured from the previous report's start).
   */
  private static final class SlowRecorder implements ProgressListener {
    final Recorder recorder = new Recorder();

    @Override
    public void onProgress(Progress p) {
      recorder.onProgress(p);
      try {
        Thread.sleep(120);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /** The records counts reported while no unit of the step was done yet (inside its first unit), in order. */
    List<Long> recordsInsideFirstUnit(Progress.Step step) {
      List<Long> out = new ArrayList<>();
      for (Progress p : recorder.byStep().get(step)) {
        if (p.done() == 0 && !p.finished()) {
          out.add(p.records());
        }
      }
      return out;
    }
  }

  /** Checks that records never go back and that some count came strictly between 0 and the end. */
  private static void assertRecordsMovedInside(List<Long> inside, long end, List<Progress> reports) {
    for (int i = 1; i < inside.size(); i++) {
      assertTrue(inside.get(i) >= inside.get(i - 1), "records go back: " + reports);
    }
    assertTrue(inside.stream().anyMatch(n -> n > 0 && n < end),
        "no count of records while the only unit was being done (all at the end?): " + reports);
  }

  @Test
  void aCompactionOfOneLargeFileGroupCountsItsRecordsAsTheyAreMerged() {
    Table t = table(TableType.MERGE_ON_READ, Map.of("hoodie.compact.inline", "false"));
    t.insert(it(trips(0, 6000, 1, 5)));
    t.upsert(it(trips(0, 3000, 1, 9)));
    String instant = t.compaction().scheduleNow().orElseThrow();
    assertEquals(1, t.compaction().plan(instant).operations().size(), "one file group");
    SlowRecorder slow = new SlowRecorder();
    t.compaction().run(instant, slow);
    Progress last = slow.recorder.checked(Progress.Step.COMPACTION);
    assertEquals(1, last.done());
    assertEquals(6000, last.records(), "every stored row merged once (3000 replaced, 3000 kept)");
    assertRecordsMovedInside(slow.recordsInsideFirstUnit(Progress.Step.COMPACTION), 6000, slow.recorder.reports);
  }

  @Test
  void aScanOfOneLargeSliceCountsItsRowsAsTheyAreReturned() {
    Table t = table(TableType.MERGE_ON_READ, Map.of("hoodie.compact.inline", "false"));
    t.insert(it(trips(0, 6000, 1, 5)));
    t.upsert(it(trips(0, 100, 1, 9)));
    assertEquals(1, t.newScan().plan().slices().size(), "one slice");
    SlowRecorder slow = new SlowRecorder();
    long rows = 0;
    try (CloseableIterator<GenericRecord> it = t.newScan().onProgress(slow).open()) {
      while (it.hasNext()) {
        it.next();
        rows++;
      }
    }
    assertEquals(6000, rows);
    Progress last = slow.recorder.checked(Progress.Step.SCAN);
    assertEquals(1, last.done());
    assertEquals(6000, last.records());
    assertRecordsMovedInside(slow.recordsInsideFirstUnit(Progress.Step.SCAN), 6000, slow.recorder.reports);
  }

  @Test
  void aCleanReportsTheFilesOfItsPlan() {
    Table t = table(TableType.COPY_ON_WRITE, Map.of("hoodie.clean.automatic", "false",
        "hoodie.cleaner.commits.retained", "1"));
    t.insert(it(trips(0, 40, 2, 1)));
    for (int c = 2; c <= 4; c++) {
      t.upsert(it(trips(0, 40, 2, c)));
    }
    int planned = t.cleanPreview().fileCount();
    assertTrue(planned >= 2, "older base file versions to delete: " + planned);
    Recorder r = new Recorder();
    List<CleanInfo> cleans = t.clean(r);
    assertEquals(1, cleans.size());
    Progress last = r.checked(Progress.Step.CLEAN);
    assertEquals(OptionalLong.of(planned), last.total());
    assertEquals(planned, last.done());
    assertEquals("files", last.unit());
    assertEquals(planned, cleans.get(0).totalFilesDeleted());
  }

  @ParameterizedTest
  @CsvSource({"COPY_ON_WRITE,1", "MERGE_ON_READ,1", "MERGE_ON_READ,3"})
  void aScanReportsItsFileSlicesUpToTheTotalOrBelowItWhenCutShort(TableType type, int threads) {
    Table t = table(type, Map.of("hoodie.compact.inline", "false"));
    t.insert(it(trips(0, 600, 6, 5)));
    t.upsert(it(List.of(trip("id-000001", 9, "p1", "changed", 1))));
    int slices = t.newScan().plan().slices().size();
    assertTrue(slices >= 6, "a slice per partition: " + slices);
    Recorder r = new Recorder();
    long rows = 0;
    try (CloseableIterator<GenericRecord> it = t.newScan().parallelism(threads).onProgress(r).open()) {
      while (it.hasNext()) {
        it.next();
        rows++;
      }
    }
    assertEquals(600, rows);
    Progress last = r.checked(Progress.Step.SCAN);
    assertEquals(OptionalLong.of(slices), last.total());
    assertEquals(slices, last.done());
    assertEquals(1, r.reports.stream().filter(Progress::finished).count(), "closing after the end adds no report");
    // a limit stops after the first slice's first rows: the scan finishes below its total
    Recorder cut = new Recorder();
    try (CloseableIterator<GenericRecord> it = t.newScan().limit(1).onProgress(cut).open()) {
      it.next();
    }
    Progress stopped = cut.checked(Progress.Step.SCAN);
    assertTrue(stopped.done() < slices, "cut short: " + stopped);
  }

  @Test
  void withoutAListenerNothingIsReportedAndTheResultIsTheSame() {
    Table t = table(TableType.COPY_ON_WRITE, Map.of());
    CommitResult quiet = t.write(WriteOperation.INSERT, it(trips(0, 100, 2, 5)), ProgressListener.NONE);
    assertEquals(100, quiet.inserted());
    assertEquals(100, TripFixture.rows(t.newScan().onProgress(ProgressListener.NONE).open()).size());
  }
}
