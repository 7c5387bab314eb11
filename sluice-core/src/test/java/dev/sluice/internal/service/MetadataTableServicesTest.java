package dev.sluice.internal.service;

import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.archive.ArchiveLog;
import dev.sluice.internal.archive.ArchivedInstant;
import dev.sluice.internal.clean.CleanAvro;
import dev.sluice.internal.clean.CleanMetadata;
import dev.sluice.internal.clean.CleanPlan;
import dev.sluice.internal.clean.CleanPolicy;
import dev.sluice.internal.clean.CleanSettings;
import dev.sluice.internal.clean.MetadataCleaner;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.mdt.write.MetadataTableChecks;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The metadata table's own clean ({@code <t>002}) and archival, run before writes as Hudi 0.15 runs them. */
class MetadataTableServicesTest {
  /**
   * Small enough that 30 writes compact, clean and archive both timelines: the metadata cleaner retains at least 20
   * commits, so the metadata table's active timeline must hold more (keep.min + 1 = 21 at least), else its archival
   * leaves its cleaner nothing to clean, in Hudi as here.
   */
  static final Map<String, String> SMALL = Map.of("hoodie.metadata.enable", "true",
      "hoodie.metadata.compact.max.delta.commits", "3", "hoodie.keep.min.commits", "20", "hoodie.keep.max.commits",
      "21", "hoodie.cleaner.commits.retained", "1");

  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();

  private String mdtBase() {
    return dir.resolve(".hoodie/metadata").toString();
  }

  private Timeline mdt() {
    return new TimelineStore(storage, mdtBase()).load();
  }

  private Timeline dt() {
    return new TimelineStore(storage, dir.toString()).load();
  }

  private List<String> filesPartition() throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve(".hoodie/metadata/files"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".hoodie_partition")).sorted().toList();
    }
  }

  @Test
  void settingsAreTheDataTablesScaledAsHudiScalesThem() {
    CleanSettings data = new CleanSettings(CleanPolicy.KEEP_LATEST_COMMITS, 30, 5, 10, 4, false, true);
    CleanSettings md = MetadataCleaner.settingsFor(data);
    assertEquals(36, md.commitsRetained(), "1.2 x 30");
    assertEquals(6, md.fileVersionsRetained(), "ceil(1.2 x 5)");
    assertEquals(12, md.hoursRetained(), "ceil(1.2 x 10)");
    assertEquals(1, md.maxCommits());
    assertEquals(20, MetadataCleaner.settingsFor(CleanSettings.defaults()).commitsRetained(), "at least 20");
  }

  @Test
  void manyWritesCleanAndArchiveTheMetadataTableInHudisForm() throws IOException {
    Table t = TripFixture.create(dir, TripFixture.spec().tableVersion(6).type(TableType.COPY_ON_WRITE).build(), SMALL);
    List<String> removedInits = null;
    for (int i = 1; i <= 30; i++) {
      t.upsert(trips(0, 6, 2, i).iterator());
      if (i == 1) {
        removedInits = filesPartition().stream().filter(n -> !n.contains("001")).toList();
      }
      assertEquals(List.of(), MetadataTableChecks.problems(storage, dir.toString()), "after write " + i);
    }
    Timeline mdt = mdt();
    TimelineStore store = new TimelineStore(storage, mdtBase());
    List<Instant> cleans = mdt.filter(i -> i.action() == Action.CLEAN && i.isCompleted()).instants();
    assertFalse(cleans.isEmpty(), "the metadata table was cleaned: " + mdt);
    for (Instant c : cleans) {
      assertTrue(c.time().endsWith("002") && c.time().length() == 20, c.time());
      String dc = c.time().substring(0, 17);
      // at the latest deltacommit when it ran (now maybe archived), with the plan in requested and inflight
      CleanPlan plan = CleanAvro.decodePlan(store.read(Instant.requested(c.time(), Action.CLEAN)), mdtBase(), "requested")
          .orElseThrow();
      assertEquals(CleanPolicy.KEEP_LATEST_COMMITS, plan.policy());
      assertTrue(plan.filesToDelete().containsKey("files"), plan.toString());
      CleanMetadata md = CleanAvro.decodeMetadata(store.read(c), "completed").orElseThrow();
      assertTrue(md.totalFilesDeleted() > 0);
      for (String name : md.partitionMetadata().get("files").successDeleteFiles()) {
        assertFalse(Files.exists(dir.resolve(".hoodie/metadata/files/" + name)), name);
      }
      assertTrue(dc.compareTo(c.time()) < 0);
    }
    // the initialization's slice is gone; every slice left is a compaction's (or newer than the window)
    for (String n : removedInits) {
      assertFalse(filesPartition().contains(n), n + " of the initialization was cleaned: " + filesPartition());
    }
    // the metadata timeline was archived, into its own archived timeline, never at or past the data table's earliest
    // commit
    List<ArchivedInstant> archived = ArchiveLog.of(storage, mdtBase()).read();
    assertFalse(archived.isEmpty(), "the metadata timeline was archived");
    assertTrue(archived.stream().anyMatch(a -> a.instant().action() == Action.DELTACOMMIT));
    String earliestDataCommit = dt().commitsTimeline().firstInstant().orElseThrow().time();
    for (ArchivedInstant a : archived) {
      assertTrue(a.instant().time().compareTo(earliestDataCommit) < 0, a + " archived, data starts at "
          + earliestDataCommit);
      assertFalse(mdt.contains(a.instant().time()) && mdt.find(a.instant().time()).get().action() == a.instant().action(),
          a + " is still active");
    }
    // the data table was archived too (behind the metadata compaction), and the metadata table is still valid
    assertFalse(ArchiveLog.of(storage, dir.toString()).read().isEmpty());
    assertTrue(MetadataTables.check(storage, dir.toString(), dt(), TableConfigStore.read(storage, dir.toString()), true)
        .available());
    assertEquals(6, TripFixture.rows(t).size());
  }

  @Test
  void aCleanLeftPendingIsFinishedByTheNextWrite() throws IOException {
    Map<String, String> o = new HashMap<>(SMALL);
    Table t = TripFixture.create(dir, TripFixture.spec().tableVersion(6).type(TableType.COPY_ON_WRITE).build(), o);
    int i = 1;
    while (mdt().filter(x -> x.action() == Action.CLEAN).isEmpty()) {
      t.upsert(trips(0, 6, 2, i++).iterator());
      assertTrue(i < 60, "no metadata clean after 60 writes");
    }
    // make the clean pending again: its completed file gone, the files it deleted back
    Instant clean = mdt().filter(x -> x.action() == Action.CLEAN).lastInstant().orElseThrow();
    TimelineStore store = new TimelineStore(storage, mdtBase());
    store.delete(clean);
    assertTrue(mdt().filter(x -> x.action() == Action.CLEAN && !x.isCompleted()).lastInstant().isPresent());
    t.upsert(trips(0, 6, 2, i).iterator());
    assertTrue(mdt().isCompleted(clean.time()), "finished from its plan");
    assertEquals(List.of(), MetadataTableChecks.problems(storage, dir.toString()));
  }

  @Test
  void afterARestoreListingsStillComeFromTheMetadataTable() {
    Table t = TripFixture.create(dir, TripFixture.spec().tableVersion(6).type(TableType.COPY_ON_WRITE).build(), SMALL);
    String savepoint = t.upsert(trips(0, 6, 2, 1).iterator()).instantTime();
    t.savepoint(java.util.Optional.of(savepoint));
    t.upsert(trips(0, 8, 2, 2).iterator());
    t.restore(savepoint);
    Timeline dt = dt();
    String restore = dt.filter(i -> i.action() == Action.RESTORE && i.isCompleted()).lastInstant().orElseThrow().time();
    assertTrue(mdt().isCompleted(restore), "re-synced at the restore's instant");
    assertEquals(List.of(), MetadataTableChecks.problems(storage, dir.toString()));
    MetadataTables.Availability a = MetadataTables.check(storage, dir.toString(), dt,
        TableConfigStore.read(storage, dir.toString()), true);
    assertTrue(a.available(), a.reason());
    assertEquals(6, TripFixture.rows(t).size());
  }

  @Test
  void blocksAndBaseFilesOfArchivedMetadataInstantsStayInTheListing() {
    Table t = TripFixture.create(dir, TripFixture.spec().tableVersion(6).type(TableType.COPY_ON_WRITE).build(),
        Map.of("hoodie.metadata.enable", "true", "hoodie.clean.automatic", "false"));
    for (int i = 1; i <= 3; i++) {
      t.upsert(trips(i, 6, 2, i).iterator());
    }
    Map<String, List<String>> before = MetadataTableChecks.listing(storage, dir.toString());
    // what the archival of the metadata timeline does to its two oldest instants (the initialization and the first
    // deltacommit): their timeline files go, their base file and log blocks stay in the slice
    TimelineStore store = new TimelineStore(storage, mdtBase());
    for (Instant i : mdt().completed().instants().subList(0, 2)) {
      store.deleteInstantFiles(Instant.requested(i.time(), Action.DELTACOMMIT));
    }
    assertEquals(before, MetadataTableChecks.listing(storage, dir.toString()));
    assertEquals(List.of(), MetadataTableChecks.problems(storage, dir.toString()));
    // and the next write's mirror and a compaction built on them keep them
    t.upsert(trips(0, 2, 2, 9).iterator());
    assertEquals(List.of(), MetadataTableChecks.problems(storage, dir.toString()));
  }
}
