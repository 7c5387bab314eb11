package dev.sluice.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs a child JVM running an upsert that bootstraps the metadata table and mirrors itself into it
 * ({@code hoodie.metadata.enable=true}), at kill points of the bootstrap, of the metadata deltacommit and of the
 * write around them, and checks that readers see the rows before or after, and that after the next write the metadata
 * table lists exactly what is on storage; also an upsert that first cleans, compacts and archives the metadata table
 * ({@code cow-upsert-mdt-services}, 107 kill points: the extended run {@code -Dsluice.crash.points=107
 * -Dsluice.crash.scenarios=cow-upsert-mdt-services} tries them all). {@link CrashTest} samples these scenarios among
 * all the others.
 */
class MetadataKillPointsTest {
  @TempDir
  Path dir;

  @Test
  void aKilledWriteLeavesBothTablesConsistentAfterTheNextWrite() {
    CrashHarness.Settings settings = CrashHarness.Settings.fromSystemProperties(dir, 10, 1);
    CrashHarness.Report report = new CrashHarness(settings, (phase, trial, table, rows) -> { })
        .run(CrashHarness.Settings.scenarios(List.of(Scenarios.byName("cow-upsert-mdt"),
            Scenarios.byName("mor-upsert-mdt"), Scenarios.byName("cow-upsert-mdt-services"))));
    System.out.println(report.summary(settings.seed()));
    assertEquals(settings.points(), report.killPoints(), "every kill point was tried");
    assertTrue(report.failures().isEmpty(), String.join("\n", report.failures()) + "\n" + report.summary(settings.seed()));
  }

  @Test
  void aKilledWriteKeepingTheRecordIndexLeavesItExactAfterTheNextWrite() {
    CrashHarness.Settings settings = CrashHarness.Settings.fromSystemProperties(dir, 12, 0);
    // the record index's own steps first: its bootstrap, its log appends, its shards' compaction
    CrashHarness.Report report = new CrashHarness(settings, (phase, trial, table, rows) -> { })
        .preferring(p -> p.startsWith("metadata.ri."))
        .run(List.of(Scenarios.byName("cow-upsert-ri"), Scenarios.byName("mor-upsert-ri-compaction"),
            Scenarios.byName("mor-upsert-ri-compaction-v9")));
    System.out.println(report.summary(settings.seed()));
    assertEquals(settings.points(), report.killPoints(), "every kill point was tried");
    assertTrue(report.failures().isEmpty(), String.join("\n", report.failures()) + "\n" + report.summary(settings.seed()));
  }
}
