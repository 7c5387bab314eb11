package dev.sluice.internal.archive;

import dev.sluice.testing.EngineSettings;
import dev.sluice.internal.service.TableInternals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.TripFixture;
import dev.sluice.internal.clean.History;
import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.LogReader;
import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.LocalStorage;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.State;
import dev.sluice.internal.timeline.TimelineFixture;
import dev.sluice.internal.timeline.TimelineStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Archival on real tables (automatic after commits) and on fixture timelines (the guards). */
class ArchiverTest {
  @TempDir
  Path dir;

  private static List<String> commitTimes(List<Instant> instants) {
    return instants.stream().filter(i -> i.action() == Action.COMMIT).map(Instant::time).toList();
  }

  @Test
  void archivesTheOldestCommitsInBatchesAndReadersStillSeeTheirData() throws IOException {
    // without the metadata table: with it (the default) archival also waits for its first compaction (10 delta
    // commits), which holds back the batch counted here; that gate is MetadataTableServicesTest's
    History h = History.start(dir, Map.of("hoodie.cleaner.commits.retained", "2", "hoodie.keep.min.commits", "3",
        "hoodie.keep.max.commits", "5", "hoodie.commits.archival.batch", "2", "hoodie.metadata.enable", "false"));
    TimelineStore store = new TimelineStore(h.table().storage(), h.table().location());
    Map<String, CommitMetadata> written = new HashMap<>();
    for (int i = 1; i < 7; i++) {
      String t = h.updateP0();
      if (i <= 2) {
        written.put(t, store.readCommitMetadata(Instant.completed(t, Action.COMMIT)).orElseThrow());
      }
    }
    List<String> c = h.commits();
    // after the 6th commit: more than 5 completed commits, archived down to 3
    assertEquals(c.subList(3, 7), commitTimes(TableInternals.timeline(h.table()).instants()));
    try (Stream<Path> meta = Files.list(dir.resolve(".hoodie"))) {
      assertTrue(meta.map(p -> p.getFileName().toString())
          .noneMatch(n -> n.startsWith(c.get(0)) || n.startsWith(c.get(1)) || n.startsWith(c.get(2))));
    }
    ArchiveLog log = ArchiveLog.of(h.table().storage(), h.table().location());
    List<FileInfo> files = log.files();
    assertEquals(List.of(".commits_.archive.1_1-0-1"), files.stream().map(FileInfo::name).toList());
    List<ArchivedInstant> archived = log.read();
    List<Instant> expected = new ArrayList<>();
    for (String t : c.subList(0, 3)) {
      for (State s : State.values()) {
        expected.add(new Instant(t, Action.COMMIT, s));
      }
    }
    assertEquals(expected, archived.stream().map(ArchivedInstant::instant).toList());
    assertTrue(archived.stream().allMatch(a -> a.stateTransitionTime().isPresent()));
    // 9 entries, at most 2 per data block
    List<Integer> blockSizes = new ArrayList<>();
    try (LogReader r = LogReader.open(h.table().storage(), files.get(0).path())) {
      r.forEachRemaining(b -> blockSizes.add(((DataBlock) b).recordCount().orElseThrow()));
    }
    assertEquals(List.of(2, 2, 2, 2, 1), blockSizes);
    for (ArchivedInstant a : archived) {
      CommitMetadata original = written.get(a.instant().time());
      if (original != null && a.instant().isCompleted()) {
        CommitMetadata back = a.commitMetadata().orElseThrow();
        // the Avro write stat has no runtime stats (Hudi drops them when archiving)
        assertEquals(statFields(original), statFields(back));
        assertEquals(original.operationType(), back.operationType());
        assertEquals(original.schema(), back.schema());
        assertEquals("", back.extraMetadata().get("ROLLING_STAT"));
      }
    }
    // p1's only file was written by the archived first commit: before the timeline's start, hence committed
    assertEquals(List.of(c.get(0)), List.copyOf(h.baseFileInstants("p1")));
    h.assertReadsLatest();
    h.assertReadsAsOf(c.get(5));
    SluiceException e = assertThrows(SluiceException.class, () -> h.assertReadsAsOf(c.get(2)));
    assertTrue(e.getMessage().contains("archived"), e.getMessage());
  }

  @Test
  void timeTravelToAnArchivedCommitIsRefusedEvenWhenOlderCleansAreStillActive() {
    dev.sluice.api.Table table = TripFixture.create(dir, TripFixture.spec().tableVersion(6).build(), Map.of());
    TimelineFixture f = TimelineFixture.at(dir);
    for (int i = 1; i <= 12; i += 2) {
      f.completedCommit(t(i));
      if (i < 6) {
        f.completedClean(t(i + 1));
      }
    }
    EngineSettings.archiver(new LocalStorage(), dir.toString(), Config.of(Map.of("hoodie.keep.min.commits", "2",
        "hoodie.keep.max.commits", "4", "hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS"))).archive();
    // commits 001..007 are archived; the three cleans are within the limit and stay, before every commit
    assertEquals("002", f.timeline().firstInstant().orElseThrow().time());
    assertEquals("009", f.timeline().filter(i -> i.action() == Action.COMMIT).firstInstant().orElseThrow().time());
    SluiceException e = assertThrows(SluiceException.class, () -> table.newScan().asOf("005").open().close());
    assertTrue(e.getMessage().contains("archived"), e.getMessage());
  }

  private static List<List<Object>> statFields(CommitMetadata md) {
    return md.allStats().stream().map(s -> List.<Object>of(s.partitionPath(), s.fileId(), s.path(), s.prevCommit(),
        s.numWrites(), s.numInserts(), s.numUpdateWrites(), s.numDeletes(), s.totalWriteBytes(), s.fileSizeInBytes()))
        .toList();
  }

  @Test
  void neverArchivesTheCleanersEarliestRetainedCommitOrTheOneBeforeIt() {
    // min 2 is less than the 4 retained commits need: archival keeps ECTR, the commit before it and all after
    History h = History.start(dir, Map.of("hoodie.cleaner.commits.retained", "4", "hoodie.keep.min.commits", "2",
        "hoodie.keep.max.commits", "5"));
    for (int i = 1; i < 9; i++) {
      h.updateP0();
    }
    List<String> c = h.commits();
    assertEquals(c.subList(4, 9), commitTimes(TableInternals.timeline(h.table()).instants()));
    for (String t : c.subList(4, 9)) {
      h.assertReadsAsOf(t);
    }
    assertEquals(c.subList(0, 4), ArchiveLog.of(h.table().storage(), h.table().location()).read().stream()
        .filter(a -> a.instant().isCompleted() && a.instant().action() == Action.COMMIT).map(a -> a.instant().time())
        .toList());
    assertEquals(1, ArchiveLog.of(h.table().storage(), h.table().location()).files().size(), "one archival");
  }

  @Test
  void aMaxBelowTheCleanersWindowIsRejected() {
    SluiceException e = assertThrows(SluiceException.class, () -> EngineSettings.services(Config.of(Map.of(
        "hoodie.cleaner.commits.retained", "4", "hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "4"))));
    assertTrue(e.getMessage().contains("hoodie.keep.max.commits"), e.getMessage());
  }

  private TimelineFixture fixture(TableType type) {
    TripFixture.create(dir, TripFixture.spec().tableVersion(6).type(type).build(), Map.of());
    return TimelineFixture.at(dir);
  }

  private List<String> preview(Map<String, String> settings) {
    Map<String, String> s = new HashMap<>(Map.of("hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "4",
        "hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS"));
    s.putAll(settings);
    return EngineSettings.archiver(new LocalStorage(), dir.toString(), Config.of(s)).preview().stream().map(Instant::time).toList();
  }

  private static String t(int n) {
    return String.format("%03d", n);
  }

  @Test
  void neverArchivesPastAPendingWrite() {
    TimelineFixture f = fixture(TableType.COPY_ON_WRITE);
    for (int i = 1; i <= 12; i++) {
      if (i == 4) {
        f.inflightCommit(t(i));
      } else {
        f.completedCommit(t(i));
      }
    }
    // the newest completed commit before the pending 004 is 003: only what is older goes
    assertEquals(List.of("001", "002"), preview(Map.of()));
    ArchiveResult r = EngineSettings.archiver(new LocalStorage(), dir.toString(), Config.of(Map.of("hoodie.keep.min.commits", "2",
        "hoodie.keep.max.commits", "4", "hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS"))).archive();
    assertEquals(6, r.stateFiles());
    assertTrue(Files.exists(dir.resolve(".hoodie/004.inflight")), "the pending write stays");
    assertEquals("003", f.timeline().firstInstant().orElseThrow().time());
  }

  @Test
  void neverArchivesPastTheFirstSavepoint() {
    TimelineFixture f = fixture(TableType.COPY_ON_WRITE);
    for (int i = 1; i <= 8; i++) {
      f.completedCommit(t(i));
    }
    f.savepoint("003");
    assertEquals(List.of("001", "002"), preview(Map.of()));
  }

  @Test
  void mergeOnReadKeepsTheDeltaCommitsCompactionSchedulingCounts() {
    TimelineFixture f = fixture(TableType.MERGE_ON_READ);
    for (int i = 1; i <= 10; i++) {
      f.completedDeltaCommit(t(i));
    }
    // no compaction yet: the last 5 delta commits count toward the next one, from 006 on
    assertEquals(List.of("001", "002", "003", "004", "005"), preview(Map.of()));
    assertEquals(List.of("001", "002", "003"), preview(Map.of("hoodie.compact.inline.max.delta.commits", "7")));
  }

  @Test
  void archivesCleansBeyondTheLimitsToo() {
    TimelineFixture f = fixture(TableType.COPY_ON_WRITE);
    f.completedCommit("001");
    for (int i = 2; i <= 8; i++) {
      f.completedClean(t(i));
    }
    assertEquals(List.of("002", "003", "004", "005", "006"), preview(Map.of()));
    EngineSettings.archiver(new LocalStorage(), dir.toString(), Config.of(Map.of("hoodie.keep.min.commits", "2",
        "hoodie.keep.max.commits", "4", "hoodie.cleaner.commits.retained", "3"))).archive();
    List<ArchivedInstant> back = ArchiveLog.of(new LocalStorage(), dir.toString()).read();
    assertEquals(15, back.size(), "requested, inflight and completed file of each of 5 cleans");
    assertTrue(back.stream().allMatch(a -> a.instant().action() == Action.CLEAN));
  }

  @Test
  void anArchivalCutShortBeforeDeletingIsRedoneAndEachStateReadsOnce() {
    TimelineFixture f = fixture(TableType.COPY_ON_WRITE);
    for (int i = 1; i <= 6; i++) {
      f.completedCommit(t(i));
    }
    Config settings = Config.of(Map.of("hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "4",
        "hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS"));
    FailingStorage failing = new FailingStorage(new LocalStorage());
    failing.failOn(InterceptedStorage.Op.DELETE, 1, p -> p.endsWith(".commit"));
    assertThrows(SluiceException.class, () -> EngineSettings.archiver(failing.storage(), dir.toString(), settings).archive());
    assertEquals("001", f.timeline().firstInstant().orElseThrow().time(), "the completed files were not deleted");
    assertFalse(f.timeline().firstInstant().orElseThrow().isRequested());
    failing.heal();
    ArchiveResult again = EngineSettings.archiver(failing.storage(), dir.toString(), settings).archive();
    assertEquals(List.of("001", "002", "003", "004"), again.archived().stream().map(Instant::time).toList());
    ArchiveLog log = ArchiveLog.of(failing.storage(), dir.toString());
    assertEquals(2, log.files().size());
    assertEquals(12, log.read().size(), "three states of four commits, once each");
    assertEquals("005", f.timeline().firstInstant().orElseThrow().time());
  }
}
