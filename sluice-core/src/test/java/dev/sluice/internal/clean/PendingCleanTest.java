package dev.sluice.internal.clean;

import dev.sluice.testing.EngineSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.TripFixture;
import dev.sluice.api.Config;
import dev.sluice.internal.timeline.avro.AvroContainer;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pending cleans written by another engine are finished from their plans. */
class PendingCleanTest {
  @TempDir
  Path dir;

  @Test
  void aVersionOnePlanOfFileNamesIsRunUnderTheBasePath() {
    TripFixture.create(dir, TripFixture.spec().tableVersion(6).build(), Map.of());
    String old = "a-0_0-0-0_001.parquet";
    TimelineFixture f = TimelineFixture.at(dir).partition("p0").completedCommit("001").dataFile("p0", old, 10)
        .completedCommit("002").dataFile("p0", "a-0_0-0-0_002.parquet", 10);
    // an older Hudi's plan: file names per partition, no file paths
    GenericRecord plan = new GenericData.Record(CleanAvro.planSchema());
    plan.put("lastCompletedCommitTimestamp", "002");
    plan.put("policy", "KEEP_LATEST_FILE_VERSIONS");
    plan.put("filesToBeDeletedPerPartition", Map.of("p0", List.of(old)));
    plan.put("version", 1);
    f.instantFile(Instant.requested("003", Action.CLEAN), AvroContainer.write(plan));
    Cleaner cleaner = EngineSettings.cleaner(new LocalStorage(), dir.toString(), Config.empty());
    List<CleanMetadata> done = cleaner.runPending();
    assertEquals(1, done.size());
    assertEquals("003", done.get(0).startCleanTime());
    assertEquals(List.of(old), done.get(0).partitionMetadata().get("p0").successDeleteFiles());
    assertFalse(Files.exists(dir.resolve("p0").resolve(old)));
    assertTrue(Files.exists(dir.resolve("p0/a-0_0-0-0_002.parquet")));
    assertTrue(f.timeline().isCompleted("003"));
    assertTrue(cleaner.runPending().isEmpty(), "nothing pending any more");
  }

  @Test
  void aFileAlreadyGoneIsRecordedAsNotDeletedAndTheCleanCompletes() {
    TripFixture.create(dir, TripFixture.spec().tableVersion(6).build(), Map.of());
    TimelineFixture f = TimelineFixture.at(dir).partition("p0").completedCommit("001");
    String gone = dir.resolve("p0/b-0_0-0-0_001.parquet").toString();
    CleanPlan plan = new CleanPlan(java.util.Optional.empty(), "001", CleanPolicy.KEEP_LATEST_COMMITS,
        Map.of("p0", List.of(CleanFile.of(gone))), List.of(), Map.of());
    f.instantFile(Instant.requested("002", Action.CLEAN), CleanAvro.encode(plan))
        .instantFile(Instant.inflight("002", Action.CLEAN), CleanAvro.encode(plan));
    CleanMetadata md = EngineSettings.cleaner(new LocalStorage(), dir.toString(), Config.empty()).runPending().get(0);
    assertEquals(0, md.totalFilesDeleted());
    assertEquals(List.of("b-0_0-0-0_001.parquet"), md.partitionMetadata().get("p0").failedDeleteFiles());
    assertTrue(f.timeline().isCompleted("002"));
  }
  /**
   * Two cleaners on one plan, and archival in between: while cleaner B deletes the plan's files, cleaner A completes
   * the same plan, more commits follow and archival moves the completed clean out of the active timeline. B then
   * finds neither its inflight file nor a completed one: the clean was done by A, so B's run succeeds instead of
   * failing with a CONFLICT (seen in TableServicesAlongsideWritersTest on a loaded machine).
   */
  @Test
  void aCleanAnotherCleanerCompletedAndArchivalMovedCountsAsDone() {
    Map<String, String> o = Map.of("hoodie.metadata.enable", "false", "hoodie.cleaner.commits.retained", "1",
        "hoodie.clean.automatic", "false", "hoodie.archive.automatic", "false", "hoodie.keep.min.commits", "2",
        "hoodie.keep.max.commits", "3");
    dev.sluice.api.Table t = TripFixture.create(dir, TripFixture.spec().tableVersion(6).build(), o);
    for (int v = 0; v < 4; v++) {
      t.upsert(TripFixture.trips(0, 20, 2, v).iterator());
    }
    Config config = Config.of(o);
    Instant clean = EngineSettings.cleaner(new LocalStorage(), dir.toString(), config).schedule().orElseThrow();
    java.util.concurrent.atomic.AtomicBoolean raced = new java.util.concurrent.atomic.AtomicBoolean();
    dev.sluice.storage.Storage slowB = new dev.sluice.storage.InterceptedStorage(new LocalStorage(), call -> {
      if (call.op() == dev.sluice.storage.InterceptedStorage.Op.DELETE && call.path().endsWith(".parquet")
          && raced.compareAndSet(false, true)) {
        List<CleanMetadata> byA = EngineSettings.cleaner(new LocalStorage(), dir.toString(), config).runPending();
        assertEquals(List.of(clean.time()), byA.stream().map(CleanMetadata::startCleanTime).toList());
        // more commits and cleans than hoodie.keep.max.commits, so archival takes the first clean
        for (int v = 4; v < 10; v++) {
          t.upsert(TripFixture.trips(0, 20, 2, v).iterator());
          EngineSettings.cleaner(new LocalStorage(), dir.toString(), config).clean();
        }
        EngineSettings.archiver(new LocalStorage(), dir.toString(), config).archive();
        assertTrue(new dev.sluice.internal.timeline.TimelineStore(new LocalStorage(), dir.toString()).load()
            .filter(i -> i.time().equals(clean.time())).isEmpty(), "archival moved the completed clean");
      }
    });
    List<CleanMetadata> byB = EngineSettings.cleaner(slowB, dir.toString(), config).runPending();
    assertTrue(raced.get(), "cleaner B deleted a file of the plan");
    assertEquals(List.of(clean.time()), byB.stream().map(CleanMetadata::startCleanTime).toList());
    assertEquals(20, TripFixture.rows(t).size());
  }
}
