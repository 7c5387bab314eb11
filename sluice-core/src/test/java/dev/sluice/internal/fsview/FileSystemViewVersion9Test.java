package dev.sluice.internal.fsview;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file-system view of a version-9 table: logs placed by completion time, logs of a delta commit that did not
 * complete left out, the output of a pending clustering hidden even when it is older than every write.
 */
class FileSystemViewVersion9Test {

  private static final TimelineLayout V9 = TimelineLayout.of(TableConfig.of(Map.of(TableConfig.NAME, "t",
      TableConfig.VERSION, "9")));

  @TempDir
  Path dir;

  @Test
  void slicesFollowCompletionTimes() throws IOException {
    Path p1 = Files.createDirectories(dir.resolve("p1"));
    Files.write(p1.resolve(".hoodie_partition_metadata"), new byte[] {1});
    for (String name : List.of("f1_0-0-0_10000000000000100.parquet", ".f1_10000000000000200.log.1_0-0-0",
        "f1_0-0-0_10000000000000300.parquet", ".f1_10000000000000500.log.1_0-0-0",
        "f2_0-0-0_10000000000000050.parquet")) {
      Files.write(p1.resolve(name), new byte[] {1});
    }
    // clustering requested at 050 (pending); insert 100; delta commit 200 completed at 450, after the compaction
    // requested at 300 completed at 400; delta commit 500 still running
    Timeline timeline = Timeline.of(V9, List.of(
        Instant.requested("10000000000000050", Action.CLUSTERING),
        Instant.completed("10000000000000100", Action.COMMIT),
        Instant.completed("10000000000000200", Action.DELTACOMMIT),
        Instant.requested("10000000000000300", Action.COMPACTION),
        Instant.completed("10000000000000300", Action.COMMIT),
        Instant.inflight("10000000000000500", Action.DELTACOMMIT)),
        Map.of("10000000000000100", "10000000000000101", "10000000000000200", "10000000000000450",
            "10000000000000300", "10000000000000400"));

    FileSystemView view = FileSystemView.of(new LocalStorage(), dir.toString(), timeline);
    List<FileSlice> slices = view.latestSlices("p1");
    assertEquals(1, slices.size(), "only f1: the pending clustering's f2 is not data: " + slices);
    FileSlice f1 = slices.get(0);
    assertEquals("10000000000000300", f1.baseInstant());
    assertEquals(Optional.of("f1_0-0-0_10000000000000300.parquet"), f1.baseFile().map(BaseFile::fileName));
    assertEquals(List.of(".f1_10000000000000200.log.1_0-0-0"), f1.logFiles().stream().map(LogFile::fileName).toList(),
        "the delta commit completed after the compaction joins its slice; the running one is left out");

    // as of the delta commit 200: the slice before the compaction, and the log still joins the compaction's slice
    // (Hudi 1.1.1's view places logs by the completion times of the whole timeline, then cuts the slices at the
    // query instant), so as of 200 its updates are not seen, as in Hudi's time travel
    FileSlice before = view.asOf("10000000000000200").latestSlices("p1").get(0);
    assertEquals("10000000000000100", before.baseInstant());
    assertEquals(List.of(), before.logFiles());
  }

  /**
   * {@code latestMergedSlicesBeforeOrOn} (what Hudi 1.x's incremental query reads): logs are placed by the completion
   * times of the whole timeline, then per group the newest slice at or before the instant is taken, so a log that
   * joined a compaction's slice is not before an instant older than the compaction.
   */
  @Test
  void mergedSlicesBeforeOrOnAnInstantKeepThePlacementOfTheWholeTimeline() throws IOException {
    Path p1 = Files.createDirectories(dir.resolve("p1"));
    Files.write(p1.resolve(".hoodie_partition_metadata"), new byte[] {1});
    for (String name : List.of("f1_0-0-0_10000000000000100.parquet", ".f1_10000000000000200.log.1_0-0-0",
        "f1_0-0-0_10000000000000300.parquet", ".f1_10000000000000350.log.1_0-0-0",
        "f2_0-0-0_10000000000000400.parquet")) {
      Files.write(p1.resolve(name), new byte[] {1});
    }
    // delta commit 200 completed at 450, after the compaction requested at 300 (completed at 320); 350 at 360;
    // f2 written by the commit 400
    Timeline timeline = Timeline.of(V9, List.of(
        Instant.completed("10000000000000100", Action.COMMIT),
        Instant.completed("10000000000000200", Action.DELTACOMMIT),
        Instant.requested("10000000000000300", Action.COMPACTION),
        Instant.completed("10000000000000300", Action.COMMIT),
        Instant.completed("10000000000000350", Action.DELTACOMMIT),
        Instant.completed("10000000000000400", Action.COMMIT)),
        Map.of("10000000000000100", "10000000000000101", "10000000000000200", "10000000000000450",
            "10000000000000300", "10000000000000320", "10000000000000350", "10000000000000360",
            "10000000000000400", "10000000000000401"));
    FileSystemView view = FileSystemView.of(new LocalStorage(), dir.toString(), timeline);
    List<FileSlice> at200 = view.latestMergedSlicesBeforeOrOn("p1", "10000000000000200");
    assertEquals(1, at200.size(), "f2 is newer than 200: " + at200);
    assertEquals("10000000000000100", at200.get(0).baseInstant());
    assertEquals(List.of(), at200.get(0).logFiles(), "the log of 200 joined the compaction's slice, after 200");
    List<FileSlice> at350 = view.latestMergedSlicesBeforeOrOn("p1", "10000000000000350");
    assertEquals("10000000000000300", at350.get(0).baseInstant());
    assertEquals(List.of(".f1_10000000000000200.log.1_0-0-0", ".f1_10000000000000350.log.1_0-0-0"),
        at350.get(0).logFiles().stream().map(LogFile::fileName).toList());
    assertEquals(2, view.latestMergedSlicesBeforeOrOn("p1", "10000000000000400").size());
  }
}
