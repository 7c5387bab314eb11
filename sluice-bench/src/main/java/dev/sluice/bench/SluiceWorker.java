package dev.sluice.bench;

import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.steps.StepRunner;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

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
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    int status = 0;
    try {
      StepArgs parsed = StepArgs.parse(args);
      if (parsed.step().startsWith("floor-")) {
        FloorSteps.run(parsed, out);
      } else {
        StepRunner.run(parsed, new SluiceBenchEngine(parsed), out);
      }
    } catch (RuntimeException e) {
      System.err.println("sluice bench worker failed: " + e);
      e.printStackTrace(System.err);
      status = 1;
    }
    out.flush();
    System.exit(status);
  }
}
