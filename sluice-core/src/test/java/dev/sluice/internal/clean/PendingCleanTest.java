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
    TripFixture.create(dir, TripFixture.spec().build(), Map.of());
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
    TripFixture.create(dir, TripFixture.spec().build(), Map.of());
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
}
