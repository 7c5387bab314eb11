package dev.sluice.bench;

import dev.sluice.bench.steps.StepRunner;
import dev.sluice.bench.steps.Worker;

/**
 * The Sluice-on-Spark side of the Spark workloads: one benchmark step ({@link StepRunner}) through
 * {@link SluiceSparkBenchEngine}, in a child JVM the driver starts with sluice-spark's class path (Spark 3.5 and
 * the Jackson it needs, not this module's); report lines on stdout.
 */
public final class SluiceSparkWorker {
  private SluiceSparkWorker() {
  }

  /**
   * Runs one step and exits (0 on success, 1 on failure).
   *
   * @param args the step and its options
   */
  public static void main(String[] args) {
    Worker.run(BenchResults.SLUICE_SPARK, args, (parsed, out) ->
        StepRunner.run(parsed, new SluiceSparkBenchEngine(parsed), out));
  }
}
