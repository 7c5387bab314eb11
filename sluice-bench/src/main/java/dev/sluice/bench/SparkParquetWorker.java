package dev.sluice.bench;

import dev.sluice.bench.steps.StepRunner;
import dev.sluice.bench.steps.Worker;

/**
 * The plain Parquet reference of the Spark workloads: one benchmark step ({@link StepRunner}) through
 * {@link SparkParquetBenchEngine}, in a child JVM with the class path of the Sluice-on-Spark worker (the same Spark);
 * report lines on stdout.
 */
public final class SparkParquetWorker {
  private SparkParquetWorker() {
  }

  /**
   * Runs one step and exits (0 on success, 1 on failure).
   *
   * @param args the step and its options
   */
  public static void main(String[] args) {
    Worker.run(BenchResults.SPARK_PARQUET, args, (parsed, out) ->
        StepRunner.run(parsed, new SparkParquetBenchEngine(parsed), out));
  }
}
