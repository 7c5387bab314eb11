package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Tables;
import dev.sluice.crash.CrashHarness;
import dev.sluice.crash.CrashScenario;
import dev.sluice.crash.Scenarios;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A sample of crash trials read by Apache Hudi 0.15 (version-6 tables) and Hudi 1.1.1 (the scenarios' version-9 forms):
 * right after the kill and after recovery, Hudi's snapshot of the
 * table equals Sluice's (which the harness has checked is the state before or after the operation). All sampled
 * tables are read in one oracle JVM.
 */
class CrashInteropTest {
  private static final Set<String> SCENARIOS = Set.of("cow-upsert", "mor-upsert", "mor-rollback-failed-appending",
      "rollback-latest", "restore", "write-after-failure", "cow-clean", "mor-clean", "cow-archive");

  @TempDir
  Path dir;

  private record Kept(String what, Path table) {
  }

  @ParameterizedTest(name = "version {0}")
  @ValueSource(ints = {6, 9})
  void hudiReadsWhatEveryCrashLeavesAndWhatRecoveryMakesOfIt(int version) {
    Set<String> names = SCENARIOS.stream().map(n -> Scenarios.named(n, version)).collect(Collectors.toSet());
    List<CrashScenario> scenarios = Scenarios.all().stream().filter(s -> names.contains(s.name())).toList();
    List<Kept> kept = new ArrayList<>();
    CrashHarness.Settings settings = new CrashHarness.Settings(Integer.getInteger("sluice.crash.interop.points", 15), 0,
        Long.getLong(CrashHarness.SEED_PROPERTY, 1L), dir.resolve("work"));
    CrashHarness.Report report = new CrashHarness(settings, (phase, trial, table, rows) -> {
      Path copy = dir.resolve("kept").resolve(kept.size() + "-" + phase);
      copyTree(table, copy);
      kept.add(new Kept(trial + " " + phase, copy));
    }).run(scenarios);
    System.out.println("interop, version " + version + ": " + report.summary(settings.seed()) + "; " + kept.size()
        + " tables read by Hudi");
    assertTrue(report.failures().isEmpty(), String.join("\n", report.failures()));
    // Hudi 0.15 reads only version 6; Hudi 1.1.1 reads 9
    OracleBatch batch = (version == 6 ? HudiOracle.locate() : HudiOracle.locateHudi1()).batch();
    List<OracleBatch.Pending<List<GenericRecord>>> reads = new ArrayList<>();
    for (Kept k : kept) {
      reads.add(batch.read(k.table(), "snapshot", Optional.empty(), false));
    }
    batch.run();
    for (int i = 0; i < kept.size(); i++) {
      Kept k = kept.get(i);
      Rows.assertSameData(Rows.scan(Tables.open(k.table().toString()), Optional.empty()), reads.get(i).get(),
          "Hudi and Sluice on " + k.what());
    }
  }

  private static void copyTree(Path from, Path to) {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
