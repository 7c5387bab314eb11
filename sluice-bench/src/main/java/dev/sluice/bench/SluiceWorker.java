package dev.sluice.bench;

import dev.sluice.bench.steps.StepRunner;
import dev.sluice.bench.steps.Worker;

/**
 * The Sluice side of the benchmarks: runs one step ({@link StepRunner}) with {@link SluiceBenchEngine} in a child
 * JVM started by {@link BenchDriver}, or a floor step ({@link FloorSteps}, names starting with {@code floor-}).
 * Report lines go to stdout; anything else printed goes to stderr.
 */
public final class SluiceWorker {
  private SluiceWorker() {
  }

  /**
   * Runs one step and exits (0 on success, 1 on failure).
   *
   * @param args the step and its options
   */
  public static void main(String[] args) {
    Worker.run("sluice", args, (parsed, out) -> {
      if (parsed.step().startsWith("floor-")) {
        FloorSteps.run(parsed, out);
      } else {
        StepRunner.run(parsed, new SluiceBenchEngine(parsed), out);
      }
    });
  }
}
