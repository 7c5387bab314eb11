package dev.sluice.internal.fsview;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.timeline.TimelineFixture;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSystemViewTest {
  private static final String A = "aaaaaaaa-0000-0000-0000-000000000000-0";
  private static final String B = "bbbbbbbb-0000-0000-0000-000000000000-0";
  private static final String C = "cccccccc-0000-0000-0000-000000000000-0";

  @TempDir
  Path dir;

  private static String base(String fileId, String instant) {
    return FileNames.baseFileName(fileId, "0-0-0", instant);
  }

  private static String log(String fileId, String baseInstant, int version) {
    return FileNames.logFileName(fileId, baseInstant, version, "0-0-0");
  }

  private FileSystemView view(TimelineFixture f) {
    return FileSystemView.of(f.storage(), f.basePath(), f.timeline());
  }

  private static List<String> names(List<BaseFile> files) {
    return files.stream().map(BaseFile::fileName).toList();
  }

  private static List<String> logNames(FileSlice s) {
    return s.logFiles().stream().map(LogFile::fileName).toList();
  }

  @Test
  void onlyFilesOfCompletedInstantsAreVisible() {
    TimelineFixture f = TimelineFixture.at(dir).completedCommit("001").completedCommit("002").inflightCommit("003")
        .partition("p1")
        .dataFile("p1", base(A, "001"), 10).dataFile("p1", base(A, "002"), 20).dataFile("p1", base(A, "003"), 30)
        .dataFile("p1", base(B, "003"), 5);
    FileSystemView v = view(f);
    List<FileGroup> groups = v.fileGroups("p1");
    assertEquals(1, groups.size(), "B only has a file of the inflight commit");
    FileGroup a = groups.get(0);
    assertEquals(new FileGroupId("p1", A), a.id());
    assertEquals(List.of("002", "001"), a.slices().stream().map(FileSlice::baseInstant).toList());
    assertEquals(List.of(base(A, "002")), names(v.latestBaseFiles("p1")));
    assertEquals(20, v.latestBaseFiles("p1").get(0).size());
    assertEquals(dir.resolve("p1").resolve(base(A, "002")).toString(), v.latestBaseFiles("p1").get(0).path());
  }

  @Test
  void timeTravelCutsTheTimeline() {
    TimelineFixture f = TimelineFixture.at(dir).completedCommit("001").completedCommit("002").completedCommit("003")
        .partition("p1")
        .dataFile("p1", base(A, "001"), 1).dataFile("p1", base(A, "003"), 1).dataFile("p1", base(B, "002"), 1);
    FileSystemView v = view(f);
    assertEquals(List.of(base(A, "003"), base(B, "002")), names(v.latestBaseFiles("p1")));
    assertEquals(List.of(base(A, "001"), base(B, "002")), names(v.asOf("002").latestBaseFiles("p1")));
    assertEquals(List.of(base(A, "001")), names(v.asOf("001").latestBaseFiles("p1")));
    assertEquals(List.of(), v.asOf("000").latestBaseFiles("p1"));
  }

  @Test
  void logFilesAreGroupedByBaseInstantInReadOrder() {
    TimelineFixture f = TimelineFixture.at(dir).completedDeltaCommit("001").completedDeltaCommit("002")
        .completedDeltaCommit("003").inflightDeltaCommit("004").completedDeltaCommit("005")
        .partition("p1")
        .dataFile("p1", base(A, "001"), 100)
        .dataFile("p1", log(A, "001", 10), 1).dataFile("p1", log(A, "001", 2), 1).dataFile("p1", log(A, "001", 1), 1)
        // log-only file group: inserts written to logs by 003
        .dataFile("p1", log(B, "003", 1), 7)
        // a log-only slice of the inflight 004
        .dataFile("p1", log(C, "004", 1), 7)
        // and crc side files and a hidden temp file are ignored
        .dataFile("p1", "." + log(A, "001", 1) + ".crc", 1).dataFile("p1", "." + base(A, "001") + ".crc", 1)
        .dataFile("p1", "_SUCCESS", 0);
    FileSystemView v = view(f);
    List<FileSlice> latest = v.latestSlices("p1");
    assertEquals(2, latest.size());
    FileSlice a = latest.get(0);
    assertEquals("001", a.baseInstant());
    assertEquals(Optional.of(base(A, "001")), a.baseFile().map(BaseFile::fileName));
    assertEquals(List.of(log(A, "001", 1), log(A, "001", 2), log(A, "001", 10)), logNames(a));
    FileSlice b = latest.get(1);
    assertEquals(new FileGroupId("p1", B), b.id());
    assertEquals(Optional.empty(), b.baseFile());
    assertEquals(List.of(log(B, "003", 1)), logNames(b));
    assertEquals(List.of(base(A, "001")), names(v.latestBaseFiles("p1")));
  }

  @Test
  void pendingCompactionOpensANewSliceAndHidesItsOutput() {
    FileGroupId a = new FileGroupId("p1", A);
    FileGroupId c = new FileGroupId("p1", C);
    TimelineFixture f = TimelineFixture.at(dir).completedDeltaCommit("001").completedDeltaCommit("002")
        .inflightCompaction("005", a, c).completedDeltaCommit("006")
        .partition("p1")
        .dataFile("p1", base(A, "001"), 1).dataFile("p1", log(A, "001", 1), 1)
        // a partial base file of the running compaction, and a log written after the compaction was planned
        .dataFile("p1", base(A, "005"), 1).dataFile("p1", log(A, "005", 1), 1)
        .dataFile("p1", base(B, "002"), 1)
        .dataFile("p1", base(C, "001"), 1).dataFile("p1", log(C, "001", 1), 1);
    FileSystemView v = view(f);
    assertEquals(Map.of(a, "005", c, "005"), v.pendingCompactionOperations());

    // writers see the slice at the compaction instant: no base file yet
    Map<FileGroupId, FileSlice> latest = bySlice(v.latestSlices("p1"));
    assertEquals("005", latest.get(a).baseInstant());
    assertEquals(Optional.empty(), latest.get(a).baseFile());
    assertEquals(List.of(log(A, "005", 1)), logNames(latest.get(a)));
    assertEquals("005", latest.get(c).baseInstant());
    assertTrue(latest.get(c).isEmpty(), "a planned group without new logs gets an empty slice");
    assertEquals("002", latest.get(new FileGroupId("p1", B)).baseInstant());

    // base-file readers fall back to the base file before the compaction
    assertEquals(List.of(base(A, "001"), base(B, "002"), base(C, "001")), names(v.latestBaseFiles("p1")));

    // snapshot readers merge the pending slice with the previous one
    Map<FileGroupId, FileSlice> merged = bySlice(v.latestMergedSlices("p1"));
    assertEquals("001", merged.get(a).baseInstant());
    assertEquals(Optional.of(base(A, "001")), merged.get(a).baseFile().map(BaseFile::fileName));
    assertEquals(List.of(log(A, "001", 1), log(A, "005", 1)), logNames(merged.get(a)));
    assertEquals(Optional.of(base(C, "001")), merged.get(c).baseFile().map(BaseFile::fileName));
    assertEquals(List.of(log(C, "001", 1)), logNames(merged.get(c)));
  }

  @Test
  void completedCompactionMakesItsBaseFileTheLatest() {
    FileGroupId a = new FileGroupId("p1", A);
    TimelineFixture f = TimelineFixture.at(dir).completedDeltaCommit("001").completedCompaction("005", a)
        .completedDeltaCommit("006")
        .partition("p1")
        .dataFile("p1", base(A, "001"), 1).dataFile("p1", log(A, "001", 1), 1)
        .dataFile("p1", base(A, "005"), 1).dataFile("p1", log(A, "005", 1), 1);
    FileSystemView v = view(f);
    assertTrue(v.pendingCompactionOperations().isEmpty());
    FileSlice s = v.latestMergedSlices("p1").get(0);
    assertEquals("005", s.baseInstant());
    assertEquals(Optional.of(base(A, "005")), s.baseFile().map(BaseFile::fileName));
    assertEquals(List.of(log(A, "005", 1)), logNames(s));
    assertTrue(f.timeline().isCompaction("005"));
  }

  @Test
  void replacedFileGroupsAreHiddenAfterTheReplace() {
    FileGroupId a = new FileGroupId("p1", A);
    TimelineFixture f = TimelineFixture.at(dir).completedCommit("001").completedReplaceCommit("003", a)
        .partition("p1")
        .dataFile("p1", base(A, "001"), 1).dataFile("p1", base(B, "003"), 1);
    FileSystemView v = view(f);
    assertEquals(List.of(base(B, "003")), names(v.latestBaseFiles("p1")));
    assertEquals(List.of(a), v.replacedFileGroups("p1").stream().map(FileGroup::id).toList());
    assertEquals(Optional.empty(), v.fileGroup(a));
    assertEquals(List.of(base(A, "001")), names(v.asOf("002").latestBaseFiles("p1")));
  }

  @Test
  void archivedInstantsCountAsCommittedButFailedOldWritesDoNot() {
    TimelineFixture f = TimelineFixture.at(dir).inflightCommit("005").completedCommit("006")
        .partition("p1")
        // 003 was archived: older than the first instant of the active timeline
        .dataFile("p1", base(A, "003"), 1)
        // 005 failed and was never rolled back
        .dataFile("p1", base(B, "005"), 1)
        .dataFile("p1", base(C, "006"), 1);
    assertEquals(List.of(base(A, "003"), base(C, "006")), names(view(f).latestBaseFiles("p1")));
  }

  @Test
  void filesOlderThanTheFirstWriteAreVisibleAlongsideSavepoints() {
    TimelineFixture f = TimelineFixture.at(dir).savepoint("002").completedCommit("002").completedCommit("004")
        .partition("p1").dataFile("p1", base(A, "001"), 1).dataFile("p1", base(B, "003"), 1);
    assertEquals(List.of(base(A, "001")), names(view(f).latestBaseFiles("p1")));
  }

  @Test
  void nothingIsVisibleWithoutCompletedWrites() {
    TimelineFixture f = TimelineFixture.at(dir).inflightCommit("001").partition("p1").dataFile("p1", base(A, "001"), 1);
    assertEquals(List.of(), view(f).fileGroups("p1"));
  }

  @Test
  void nonPartitionedTable() {
    TimelineFixture f = TimelineFixture.at(dir).completedCommit("001").partition("")
        .dataFile("", base(A, "001"), 3);
    FileSystemView v = view(f);
    assertEquals(List.of(""), v.partitions());
    assertEquals(List.of(new FileGroupId("", A)), v.fileGroups("").stream().map(FileGroup::id).toList());
    assertEquals(List.of(base(A, "001")), names(v.latestBaseFiles("")));
  }

  @Test
  void hiveStyleMultiLevelPartitions() {
    TimelineFixture f = TimelineFixture.at(dir).completedCommit("001")
        .partition("year=2024/month=01").partition("year=2024/month=02").partition("year=2025/month=__HIVE_DEFAULT_PARTITION__")
        .dataFile("year=2024/month=01", base(A, "001"), 1).dataFile("year=2024/month=02", base(B, "001"), 1)
        .dataFile("year=2024/not-a-partition", "stray.txt", 1);
    FileSystemView v = view(f);
    assertEquals(List.of("year=2024/month=01", "year=2024/month=02", "year=2025/month=__HIVE_DEFAULT_PARTITION__"),
        v.partitions());
    assertEquals(List.of(base(A, "001")), names(v.latestBaseFiles("year=2024/month=01")));
    assertEquals(List.of(), v.fileGroups("year=2025/month=__HIVE_DEFAULT_PARTITION__"));
  }

  @Test
  void listsEachDirectoryOnce() {
    TimelineFixture f = TimelineFixture.at(dir).completedCommit("001").completedCommit("002")
        .partition("p1").partition("p2").dataFile("p1", base(A, "001"), 1).dataFile("p2", base(B, "002"), 1);
    FileSystemView v = view(f);
    assertEquals(0, v.listCalls(), "no I/O before asked");
    assertEquals(List.of("p1", "p2"), v.partitions());
    long afterWalk = v.listCalls();
    assertEquals(3, afterWalk, "base, p1, p2");
    v.fileGroups("p1");
    v.latestBaseFiles("p2");
    v.latestSlices("p1");
    v.latestMergedSlices("p2");
    assertEquals(afterWalk, v.listCalls(), "partition listings of the walk are reused");
    FileSystemView old = v.asOf("001");
    assertEquals(List.of(), old.latestBaseFiles("p2"));
    assertEquals(afterWalk, v.listCalls(), "time travel shares the listings");

    FileSystemView fresh = view(f);
    fresh.fileGroups("p1");
    fresh.fileGroups("p1");
    assertEquals(1, fresh.listCalls(), "one listing per partition");
  }

  @Test
  void missingPartitionIsEmpty() {
    TimelineFixture f = TimelineFixture.at(dir).completedCommit("001");
    assertEquals(List.of(), view(f).fileGroups("nope"));
  }

  @Test
  void fileGroupLookup() {
    TimelineFixture f = TimelineFixture.at(dir).completedCommit("001").partition("p1").dataFile("p1", base(A, "001"), 1);
    FileSystemView v = view(f);
    assertTrue(v.fileGroup(new FileGroupId("p1", A)).isPresent());
    assertFalse(v.fileGroup(new FileGroupId("p1", B)).isPresent());
    assertEquals(Optional.of(base(A, "001")),
        v.fileGroup(new FileGroupId("p1", A)).flatMap(FileGroup::latestBaseFile).map(BaseFile::fileName));
  }

  private static Map<FileGroupId, FileSlice> bySlice(List<FileSlice> slices) {
    Map<FileGroupId, FileSlice> m = new HashMap<>();
    slices.forEach(s -> m.put(s.id(), s));
    return m;
  }
}
