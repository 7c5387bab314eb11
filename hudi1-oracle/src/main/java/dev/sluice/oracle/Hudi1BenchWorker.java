package dev.sluice.oracle;

import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.steps.StepRunner;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

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
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    // Hudi and Hadoop may print to stdout; only report lines go there
    System.setOut(System.err);
    int status = 0;
    try {
      StepArgs parsed = StepArgs.parse(args);
      StepRunner.run(parsed, new Hudi1BenchEngine(parsed), out);
    } catch (RuntimeException e) {
      System.err.println("hudi1 bench worker failed: " + e);
      e.printStackTrace(System.err);
      status = 1;
    }
    out.flush();
    System.exit(status);
  }
}
