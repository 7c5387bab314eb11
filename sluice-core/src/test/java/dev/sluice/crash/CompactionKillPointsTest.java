package dev.sluice.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SIGKILLs a child JVM running a compaction at its kill points (after each base file, before the publish, at every
 * timeline and marker step) and checks that readers see the same rows, and that running the compaction again
 * completes it with those rows, on table versions 6 and 9. {@link CrashTest} samples all scenarios; this one tries the
 * compaction's points.
 */
class CompactionKillPointsTest {
  @TempDir
  Path dir;

  @ParameterizedTest(name = "version {0}")
  @ValueSource(ints = {6, 9})
  void aKilledCompactionChangesNoRowAndRunsAgainFromItsPlan(int version) {
    CrashHarness.Settings settings = CrashHarness.Settings.fromSystemProperties(dir, 6, 1);
    CrashHarness.Report report = new CrashHarness(settings, (phase, trial, table, rows) -> { })
        .run(List.of(Scenarios.byName("mor-compaction", version)));
    System.out.println("version " + version + ": " + report.summary(settings.seed()));
    assertEquals(settings.points(), report.killPoints(), "every kill point was tried");
    assertTrue(report.failures().isEmpty(), String.join("\n", report.failures()) + "\n" + report.summary(settings.seed()));
  }
}
