package dev.sluice.oracle;

import dev.sluice.bench.steps.StepRunner;
import dev.sluice.bench.steps.Worker;

/**
 * The Hudi 1.1.1 side of the benchmarks ({@code sluice-bench --table-version 8|9}, engine {@code hudi1}): runs one
 * benchmark step ({@link StepRunner}) with Hudi 1.1.1's Java client ({@link Hudi1BenchEngine}) and prints its report
 * lines on stdout. Started by sluice-bench's driver in a child JVM with this module's classpath, beside hudi-oracle's
 * worker (Hudi 0.15.0) and the Sluice worker, which run the same steps through the same runner.
 */
public final class Hudi1BenchWorker {
  private Hudi1BenchWorker() {
  }

  /**
   * Runs one step and exits (0 on success, 1 on failure).
   *
   * @param args the step and its options (see {@link StepRunner})
   */
  public static void main(String[] args) {
    // Hudi sizes records with JOL; no agent attach in a benchmark worker
    System.setProperty("jol.skipHotspotSAAttach", "true");
    System.setProperty("jol.skipDynamicAttach", "true");
    System.setProperty("jol.skipInstallAttach", "true");
    Worker.run("hudi1", args, (parsed, out) -> StepRunner.run(parsed, new Hudi1BenchEngine(parsed), out));
  }
}
