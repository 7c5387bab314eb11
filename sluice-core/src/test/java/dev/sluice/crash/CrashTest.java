package dev.sluice.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SIGKILLs a child JVM at kill points and random moments of every kind of write and table action, and checks what
 * it leaves (see {@link CrashHarness}), on table versions 6 and 9 (each scenario has a {@code -v9} form; the settings
 * apply to each version's run). Default: 50 kill points and 6 random moments per version. Extended run:
 * {@code mvn -B -pl sluice-core -am test -Dtest=CrashTest -Dsluice.crash.points=300 -Dsluice.crash.random=30
 * -Dsluice.crash.seed=random} (the seed is printed; the same seed picks the same points), optionally with
 * {@code -Dsluice.crash.scenarios=cow-clean,cow-archive-v9} (a version whose scenarios none of the names picks is
 * skipped).
 */
class CrashTest {
  @TempDir
  Path dir;

  @ParameterizedTest(name = "version {0}")
  @ValueSource(ints = {6, 9})
  void aKilledOperationLeavesTheStateBeforeOrAfterItAndTheNextWriteCleansUp(int version) {
    CrashHarness.Settings settings = CrashHarness.Settings.fromSystemProperties(dir, 50, 6);
    // printed first, so that a run that fails or is cut short can be replayed
    System.out.println("crash test seed " + settings.seed() + " (replay: -D" + CrashHarness.SEED_PROPERTY + "="
        + settings.seed() + ")");
    List<CrashScenario> scenarios = CrashHarness.Settings.scenarios(Scenarios.all()).stream()
        .filter(s -> Scenarios.versionOf(s.name()) == version).toList();
    Assumptions.assumeFalse(scenarios.isEmpty(), "no scenario of version " + version + " is named in -D"
        + CrashHarness.SCENARIOS_PROPERTY);
    CrashHarness.Report report = new CrashHarness(settings, (phase, trial, table, rows) -> { }).run(scenarios);
    System.out.println("version " + version + ": " + report.summary(settings.seed()));
    // a few scenarios (-Dsluice.crash.scenarios) may have fewer distinct points than asked for
    int floor = System.getProperty(CrashHarness.SCENARIOS_PROPERTY, "").isBlank() ? Math.min(settings.points(), 300) : 1;
    assertTrue(report.killPoints() >= floor, "kill points tried: " + report.summary(settings.seed()));
    assertEquals(settings.points() + settings.randomKills(), report.killPoints() + report.randomKills(),
        "every trial ran (kill points a scenario lacks become random moments)");
    assertTrue(report.killed() >= settings.points() / 2, "most trials really were killed: " + report.summary(settings.seed()));
    assertTrue(report.failures().isEmpty(), String.join("\n", report.failures()) + "\n" + report.summary(settings.seed()));
  }
}
