package dev.sluice.bench.steps;

import dev.sluice.bench.measure.StepArgs;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;

/**
 * The main of every benchmark worker JVM (Sluice's, Hudi 0.15.0's, Hudi 1.1.1's): runs one step with the report lines
 * on stdout and whatever else is printed (a library's logging) moved to stderr, then exits 0 on success, 1 on failure.
 */
public final class Worker {
  private Worker() {
  }

  /** Runs {@code step} on the parsed {@code args}, reporting to stdout; {@code name} labels a failure on stderr. */
  public static void run(String name, String[] args, BiConsumer<StepArgs, PrintStream> step) {
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    // engines may print to stdout; only report lines go there
    System.setOut(System.err);
    int status = 0;
    try {
      step.accept(StepArgs.parse(args), out);
    } catch (RuntimeException e) {
      System.err.println(name + " bench worker failed: " + e);
      e.printStackTrace(System.err);
      status = 1;
    }
    out.flush();
    System.exit(status);
  }
}
