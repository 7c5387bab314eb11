package dev.sluice.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SIGKILLs a child JVM running an upsert that bootstraps the metadata table and mirrors itself into it
 * ({@code hoodie.metadata.enable=true}), at kill points of the bootstrap, of the metadata deltacommit and of the
 * write around them, and checks that readers see the rows before or after, and that after the next write the metadata
 * table lists exactly what is on storage; also an upsert that first cleans, compacts and archives the metadata table
 * ({@code cow-upsert-mdt-services}, 107 kill points on version 6: the extended run {@code -Dsluice.crash.points=107
 * -Dsluice.crash.scenarios=cow-upsert-mdt-services} tries them all). Each test runs on table versions 6 and 9 (the
 * scenarios' {@code -v9} forms), with the same sample of kill points per scenario on each. {@link CrashTest} samples
 * these scenarios among all the others.
 */
class MetadataKillPointsTest {
  /**
   * Kill points the record-index run always tries where a scenario has them: {@code log.append.before#1} is where a
   * MoR upsert on version 6 left an empty data log file behind that no rollback accounted for.
   */
  static final Set<String> ALWAYS = Set.of("log.append.before#1");

  @TempDir
  Path dir;

  @ParameterizedTest(name = "version {0}")
  @ValueSource(ints = {6, 9})
  void aKilledWriteLeavesBothTablesConsistentAfterTheNextWrite(int version) {
    CrashHarness.Settings settings = CrashHarness.Settings.fromSystemProperties(dir, 10, 1);
    CrashHarness.Report report = new CrashHarness(settings, (phase, trial, table, rows) -> { })
        .run(CrashHarness.Settings.scenarios(List.of(Scenarios.byName("cow-upsert-mdt", version),
            Scenarios.byName("mor-upsert-mdt", version), Scenarios.byName("cow-upsert-mdt-services", version))));
    System.out.println("version " + version + ": " + report.summary(settings.seed()));
    assertEquals(settings.points(), report.killPoints(), "every kill point was tried");
    assertTrue(report.failures().isEmpty(), String.join("\n", report.failures()) + "\n" + report.summary(settings.seed()));
  }

  @ParameterizedTest(name = "version {0}")
  @ValueSource(ints = {6, 9})
  void aKilledWriteKeepingTheRecordIndexLeavesItExactAfterTheNextWrite(int version) {
    CrashHarness.Settings settings = CrashHarness.Settings.fromSystemProperties(dir, 8, 0);
    // the record index's own steps first: its bootstrap, its log appends, its shards' compaction
    CrashHarness.Report report = new CrashHarness(settings, (phase, trial, table, rows) -> { })
        .always(ALWAYS)
        .preferring(p -> p.startsWith("metadata.ri."))
        .run(List.of(Scenarios.byName("cow-upsert-ri", version), Scenarios.byName("mor-upsert-ri-compaction", version)));
    System.out.println("version " + version + ": " + report.summary(settings.seed()));
    assertEquals(settings.points(), report.killPoints(), "every kill point was tried");
    assertTrue(report.failures().isEmpty(), String.join("\n", report.failures()) + "\n" + report.summary(settings.seed()));
  }
}
