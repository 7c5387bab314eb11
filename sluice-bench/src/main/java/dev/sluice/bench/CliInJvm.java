package dev.sluice.bench;

import dev.sluice.cli.Main;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The in-JVM side of {@code sluice-bench --cli}, in a child JVM of its own: runs the same command lines as the
 * {@code bin/sluice} processes through {@link Main#execute}, first the warm-up ones (a small scratch table:
 * class loading and JIT) untimed, then the timed ones, each timed around the call. Query rows go to a stream that
 * counts their lines and drops them (as {@code /dev/null} would, but the driver learns the row count).
 *
 * <p>Arguments: the warm-up steps file and the timed steps file, one step a line: its name, then its arguments,
 * tab-separated. Prints one line per timed step: {@code STEP name seconds exit lines cpu-seconds}.
 */
public final class CliInJvm {
  private CliInJvm() {
  }

  /** Runs the steps; exits 1 if a step failed. */
  public static void main(String[] args) throws IOException {
    boolean ok = run(Path.of(args[0]), false) & run(Path.of(args[1]), true);
    System.out.flush();
    System.exit(ok ? 0 : 1);
  }

  private static boolean run(Path steps, boolean timed) throws IOException {
    boolean ok = true;
    for (String line : Files.readAllLines(steps, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      List<String> parts = Arrays.asList(line.split("\t"));
      String name = parts.get(0);
      String[] cli = parts.subList(1, parts.size()).toArray(String[]::new);
      LineCounter rows = new LineCounter();
      PrintWriter out = new PrintWriter(Writer.nullWriter());
      PrintWriter err = new PrintWriter(System.err, true);
      long cpu = processCpuNanos();
      long start = System.nanoTime();
      int exit = Main.execute(cli, Optional.of(rows), out, err);
      double seconds = (System.nanoTime() - start) / 1e9;
      double cpuSeconds = (processCpuNanos() - cpu) / 1e9;
      ok &= exit == 0;
      if (timed) {
        System.out.printf(Locale.ROOT, "STEP %s %.4f %d %d %.4f%n", name, seconds, exit, rows.lines, cpuSeconds);
      }
    }
    return ok;
  }

  /** The CPU time of this whole JVM so far (every thread: the command's, the JIT's, the collector's). */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** Counts the line breaks written to it and keeps nothing. */
  private static final class LineCounter extends OutputStream {
    private long lines;

    @Override
    public void write(int b) {
      if (b == '\n') {
        lines++;
      }
    }

    @Override
    public void write(byte[] b, int off, int len) {
      for (int i = off; i < off + len; i++) {
        if (b[i] == '\n') {
          lines++;
        }
      }
    }
  }
}
