package dev.sluice.oracle;

import dev.sluice.bench.steps.StepRunner;
import dev.sluice.bench.steps.Worker;

/**
 * The Hudi-on-Spark side of sluice-bench's Spark workloads: one benchmark step ({@link StepRunner}) through Hudi
 * 0.15.0's Spark data source ({@link HudiSparkBenchEngine}), in a child JVM the driver starts with this module's
 * class path and Hudi's Spark bundle; report lines on stdout.
 */
public final class HudiSparkBenchWorker {
  private HudiSparkBenchWorker() {
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
    Worker.run("hudi-spark", args, (parsed, out) -> StepRunner.run(parsed, new HudiSparkBenchEngine(parsed), out));
  }
}
