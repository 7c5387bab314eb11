package dev.sluice.oracle;

import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.steps.StepRunner;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

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
    System.setProperty("jol.skipHotspotSAAttach", "true");
    System.setProperty("jol.skipDynamicAttach", "true");
    System.setProperty("jol.skipInstallAttach", "true");
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    int status = 0;
    try {
      StepArgs parsed = StepArgs.parse(args);
      StepRunner.run(parsed, new HudiBenchEngine(parsed), out);
    } catch (RuntimeException e) {
      System.err.println("hudi bench worker failed: " + e);
      e.printStackTrace(System.err);
      status = 1;
    }
    out.flush();
    System.exit(status);
  }
}
