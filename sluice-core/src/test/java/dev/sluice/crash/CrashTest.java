package dev.sluice.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs a child JVM at kill points and random moments of every kind of write and table action, and checks what
 * it leaves (see {@link CrashHarness}). Default: 42 kill points and 6 random moments. Extended run:
 * {@code mvn -B -pl sluice-core -am test -Dtest=CrashTest -Dsluice.crash.points=300 -Dsluice.crash.random=60
 * -Dsluice.crash.seed=N} (the seed is printed; the same seed picks the same points).
 */
class CrashTest {
  @TempDir
  Path dir;

  @Test
  void aKilledOperationLeavesTheStateBeforeOrAfterItAndTheNextWriteCleansUp() {
    CrashHarness.Settings settings = CrashHarness.Settings.fromSystemProperties(dir, 42, 6);
    CrashHarness.Report report = new CrashHarness(settings, (phase, trial, table, rows) -> { }).run(Scenarios.all());
    System.out.println(report.summary(settings.seed()));
    assertTrue(report.killPoints() >= Math.min(settings.points(), 150), "kill points tried: " + report.summary(settings.seed()));
    assertEquals(settings.points() + settings.randomKills(), report.killPoints() + report.randomKills(),
        "every trial ran (kill points a scenario lacks become random moments)");
    assertTrue(report.killed() >= settings.points() / 2, "most trials really were killed: " + report.summary(settings.seed()));
    assertTrue(report.failures().isEmpty(), String.join("\n", report.failures()) + "\n" + report.summary(settings.seed()));
  }
}
