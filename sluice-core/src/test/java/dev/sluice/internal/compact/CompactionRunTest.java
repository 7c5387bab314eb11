package dev.sluice.internal.compact;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.internal.compact.CompactFixture.round;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.timeline.avro.AvroContainer;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.internal.timeline.WriteStat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scheduling and running a compaction through the API: plan on disk, rows before and after, the commit. */
class CompactionRunTest {
  @TempDir
  Path dir;

  private Table withLogs(CompactFixture.Model model) {
    return withLogs(model, CompactFixture.spec());
  }

  private Table withLogs(CompactFixture.Model model, TableSpec spec) {
    Table t = TripFixture.create(dir, spec, CompactFixture.BASE);
    List<GenericRecord> first = round(0, 40, 10, "r0");
    t.insert(first.iterator());
    model.upsert(first);
    List<GenericRecord> second = round(0, 10, 20, "r1");
    t.upsert(second.iterator());
    model.upsert(second);
    List<GenericRecord> gone = round(30, 4, 30, null);
    t.delete(gone.iterator());
    model.delete(gone);
    List<GenericRecord> third = round(5, 10, 40, "r2");
    t.upsert(third.iterator());
    model.upsert(third);
    return t;
  }

  @Test
  void scheduledPlanIsHudisAvroAndRunningItKeepsTheSnapshotAndFillsReadOptimized() throws java.io.IOException {
    CompactFixture.Model model = new CompactFixture.Model();
    // version 6: the timeline file names checked below (CompactFixture.timelineFiles) are version 6's
    Table t = withLogs(model, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(6).build());
    Map<String, String> before = CompactFixture.snapshot(t);
    assertEquals(model.expected(), before);
    assertNotEquals(before, CompactFixture.readOptimized(t), "read-optimized lags before compaction");
    Set<String> groupsWithLogs = CompactFixture.latestSlices(t).stream().filter(s -> !s.logFiles().isEmpty())
        .map(FileSlice::fileId).collect(Collectors.toSet());

    String instant = t.compaction().scheduleNow().orElseThrow();
    // .hoodie/timeline on versions 8 and 9 (the default), .hoodie on 6
    Path timeline = Files.isDirectory(dir.resolve(".hoodie/timeline")) ? dir.resolve(".hoodie/timeline")
        : dir.resolve(".hoodie");
    Path requested = timeline.resolve(instant + ".compaction.requested");
    assertTrue(Files.exists(requested));
    GenericRecord plan = AvroContainer.read(readAll(requested), requested.toString()).orElseThrow();
    assertEquals("org.apache.hudi.avro.model.HoodieCompactionPlan", plan.getSchema().getFullName());
    assertEquals(2, plan.get("version"));
    List<?> ops = (List<?>) plan.get("operations");
    assertEquals(groupsWithLogs, ops.stream().map(o -> ((GenericRecord) o).get("fileId").toString())
        .collect(Collectors.toSet()));
    for (Object o : ops) {
      GenericRecord op = (GenericRecord) o;
      assertTrue(op.get("dataFilePath").toString().endsWith(".parquet"), "plan v2 keeps file names: " + op);
      assertFalse(op.get("dataFilePath").toString().contains("/"));
      assertFalse(((List<?>) op.get("deltaFilePaths")).isEmpty());
      assertTrue(((Map<?, ?>) op.get("metrics")).keySet().stream().map(Object::toString).toList()
          .contains("TOTAL_LOG_FILES_SIZE"));
    }
    assertEquals(List.of(instant), t.compaction().pending());
    assertEquals(before, CompactFixture.snapshot(t), "a requested compaction changes no row");

    CompactionResult r = TableInternals.compaction(t).run(instant);
    assertEquals(groupsWithLogs.size(), r.baseFilesWritten());
    assertEquals(before.size(), r.recordsWritten());
    List<String> files = CompactFixture.timelineFiles(dir);
    assertTrue(files.contains(instant + ".compaction.requested"));
    assertTrue(files.contains(instant + ".compaction.inflight"));
    assertTrue(files.contains(instant + ".commit"));
    assertEquals(0, Files.size(timeline.resolve(instant + ".compaction.inflight")));
    assertTrue(t.compaction().pending().isEmpty());
    assertFalse(Files.exists(dir.resolve(".hoodie/.temp/" + instant)), "markers removed");

    CommitMetadata md = CompactFixture.metadata(t, instant);
    assertTrue(md.compacted());
    assertEquals(WriteOperationType.COMPACT, md.operationType());
    assertTrue(md.schema().isPresent());
    long updated = 0;
    long deleted = 0;
    for (WriteStat s : md.allStats()) {
      assertTrue(s.path().orElseThrow().endsWith("_" + instant + ".parquet"));
      assertTrue(s.totalLogFilesCompacted() > 0);
      assertTrue(s.totalLogRecords() > 0);
      assertTrue(s.totalLogBlocks() > 0);
      assertNotEquals(WriteStat.NULL_COMMIT, s.prevCommit());
      updated += s.numUpdateWrites();
      deleted += s.numDeletes();
    }
    assertEquals(15, updated, "ids 0..14 were updated");
    assertEquals(4, deleted);

    assertEquals(before, CompactFixture.snapshot(t), "compaction changes no row");
    assertEquals(before, CompactFixture.readOptimized(t), "read-optimized shows the merged rows");
    for (FileSlice s : CompactFixture.latestSlices(t)) {
      if (groupsWithLogs.contains(s.fileId())) {
        assertEquals(instant, s.baseInstant());
        assertTrue(s.logFiles().isEmpty());
        assertTrue(s.baseFile().orElseThrow().fileName().startsWith(s.fileId() + "_"));
      }
    }
    assertTrue(t.compaction().scheduleNow().isEmpty(), "nothing left to compact");
  }

  @Test
  void nothingToCompactWritesNoInstant() {
    Table t = CompactFixture.create(dir, Map.of());
    t.insert(round(0, 10, 1, "a").iterator());
    List<String> before = CompactFixture.timelineFiles(dir);
    assertEquals(Optional.empty(), t.compaction().scheduleNow());
    assertEquals(before, CompactFixture.timelineFiles(dir));
  }

  @Test
  void writesWhileACompactionIsPendingGoToItsNewSliceAndReadsStayRight() {
    CompactFixture.Model model = new CompactFixture.Model();
    Table t = withLogs(model);
    Map<String, String> compactedView = model.expected();
    String instant = t.compaction().scheduleNow().orElseThrow();

    List<GenericRecord> during = round(0, 20, 50, "during");
    t.upsert(during.iterator());
    model.upsert(during);
    List<GenericRecord> gone = round(18, 2, 60, null);
    t.delete(gone.iterator());
    model.delete(gone);
    assertEquals(model.expected(), CompactFixture.snapshot(t), "pending compaction: previous slice ⊕ new logs");
    for (FileSlice s : CompactFixture.latestSlices(t)) {
      if (!s.logFiles().isEmpty() && s.baseInstant().equals(instant)) {
        assertTrue(s.baseFile().isEmpty(), "the new slice has no base file yet");
      }
    }
    long newSliceLogs = CompactFixture.latestSlices(t).stream().filter(s -> s.baseInstant().equals(instant))
        .mapToLong(s -> s.logFiles().size()).sum();
    assertTrue(newSliceLogs > 0, "appends went to the slice at the compaction instant");

    t.compaction().run(instant);
    assertEquals(model.expected(), CompactFixture.snapshot(t));
    assertEquals(compactedView, CompactFixture.readOptimized(t), "base files hold what was planned, not later writes");

    String next = t.compaction().scheduleNow().orElseThrow();
    t.compaction().run(next);
    assertEquals(model.expected(), CompactFixture.snapshot(t));
    assertEquals(model.expected(), CompactFixture.readOptimized(t));
  }

  @Test
  void aLogOnlySliceCompactsIntoAFirstBaseFile() {
    CompactFixture.Model model = new CompactFixture.Model();
    Table t = withLogs(model);
    String first = t.compaction().scheduleNow().orElseThrow();
    // while it is pending, new log-only slices open at its instant; compacting them creates base files
    List<GenericRecord> during = round(0, 6, 70, "during");
    t.upsert(during.iterator());
    model.upsert(during);
    t.compaction().run(first);
    Instant done = TableInternals.timeline(t).find(first).orElseThrow();
    assertTrue(done.isCompleted());
    String second = t.compaction().scheduleNow().orElseThrow();
    CompactionPlan plan = TableInternals.compaction(t).plan(second);
    assertTrue(plan.operations().stream().allMatch(op -> op.baseInstantTime().equals(first)));
    t.compaction().run(second);
    assertEquals(model.expected(), CompactFixture.snapshot(t));
    assertEquals(model.expected(), CompactFixture.readOptimized(t));
  }

  @Test
  void compactedRowsKeepTheirCommitTimeAndSeqnoAndNameTheirNewFile() {
    CompactFixture.Model model = new CompactFixture.Model();
    Table t = withLogs(model);
    Map<String, GenericRecord> before = TripFixture.rows(t.newScan().withMetaColumns(true).open());
    String instant = t.compaction().scheduleNow().orElseThrow();
    t.compaction().run(instant);
    Map<String, GenericRecord> after = TripFixture.rows(t.newScan().withMetaColumns(true).open());
    assertEquals(before.keySet(), after.keySet());
    Map<String, String> fileOf = CompactFixture.latestSlices(t).stream()
        .collect(Collectors.toMap(FileSlice::fileId, s -> s.baseFile().orElseThrow().fileName()));
    int compacted = 0;
    for (Map.Entry<String, GenericRecord> e : after.entrySet()) {
      GenericRecord was = before.get(e.getKey());
      GenericRecord now = e.getValue();
      for (String meta : List.of(MetaFields.COMMIT_TIME, MetaFields.COMMIT_SEQNO, MetaFields.RECORD_KEY,
          MetaFields.PARTITION_PATH)) {
        assertEquals(String.valueOf(was.get(meta)), String.valueOf(now.get(meta)), meta + " of " + e.getKey());
      }
      String file = now.get(MetaFields.FILE_NAME).toString();
      assertEquals(fileOf.get(FileNames.parseBase(file).orElseThrow().fileId()), file, "the row names its file");
      compacted += file.endsWith("_" + instant + ".parquet") ? 1 : 0;
    }
    assertTrue(compacted > before.size() / 2, compacted + " rows in compacted files");
  }

  private static byte[] readAll(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
