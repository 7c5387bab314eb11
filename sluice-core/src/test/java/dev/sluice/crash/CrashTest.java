package dev.sluice.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs a child JVM at kill points and random moments of every kind of write and table action, and checks what
 * it leaves (see {@link CrashHarness}). Default: 50 kill points and 6 random moments. Extended run:
 * {@code mvn -B -pl sluice-core -am test -Dtest=CrashTest -Dsluice.crash.points=300 -Dsluice.crash.random=30
 * -Dsluice.crash.seed=random} (the seed is printed; the same seed picks the same points), optionally with
 * {@code -Dsluice.crash.scenarios=cow-clean,cow-archive}.
 */
class CrashTest {
  @TempDir
  Path dir;

  @Test
  void aKilledOperationLeavesTheStateBeforeOrAfterItAndTheNextWriteCleansUp() {
    CrashHarness.Settings settings = CrashHarness.Settings.fromSystemProperties(dir, 50, 6);
    // printed first, so that a run that fails or is cut short can be replayed
    System.out.println("crash test seed " + settings.seed() + " (replay: -D" + CrashHarness.SEED_PROPERTY + "="
        + settings.seed() + ")");
    CrashHarness.Report report = new CrashHarness(settings, (phase, trial, table, rows) -> { })
        .run(CrashHarness.Settings.scenarios(Scenarios.all()));
    System.out.println(report.summary(settings.seed()));
    // a few scenarios (-Dsluice.crash.scenarios) may have fewer distinct points than asked for
    int floor = System.getProperty(CrashHarness.SCENARIOS_PROPERTY, "").isBlank() ? Math.min(settings.points(), 300) : 1;
    assertTrue(report.killPoints() >= floor, "kill points tried: " + report.summary(settings.seed()));
    assertEquals(settings.points() + settings.randomKills(), report.killPoints() + report.randomKills(),
        "every trial ran (kill points a scenario lacks become random moments)");
    assertTrue(report.killed() >= settings.points() / 2, "most trials really were killed: " + report.summary(settings.seed()));
    assertTrue(report.failures().isEmpty(), String.join("\n", report.failures()) + "\n" + report.summary(settings.seed()));
  }
}
