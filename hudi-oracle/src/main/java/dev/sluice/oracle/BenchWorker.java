package dev.sluice.oracle;

import dev.sluice.bench.steps.StepRunner;
import dev.sluice.bench.steps.Worker;

/**
 * The Hudi side of the benchmarks: runs one benchmark step ({@link StepRunner}) with Apache Hudi's Java client
 * ({@link HudiBenchEngine}) and prints its report lines on stdout. Started by sluice-bench's driver in a child
 * JVM with this module's classpath; the Sluice side runs the same steps through the same runner.
 */
public final class BenchWorker {
  private BenchWorker() {
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
    Worker.run("hudi", args, (parsed, out) -> StepRunner.run(parsed, new HudiBenchEngine(parsed), out));
  }
}
