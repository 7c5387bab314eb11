package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.bench.measure.StepReport;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts benchmark workers in child JVMs, one step each, never two at once. Both engines get the same JVM
 * options ({@code -Xmx}, parallel GC, exit on out-of-memory, a scratch temp folder); only the classpath and main
 * class differ. A worker's stdout carries its {@link StepReport} lines; its stderr goes to a log file.
 */
final class ChildJvm {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One engine's way to start: classpath and main class. */
  record Side(String engine, String classpath, String mainClass) {
  }

  /**
   * What a worker did.
   *
   * @param exitCode its exit status (-1 if it timed out)
   * @param reports its report lines, parsed
   * @param log its stderr
   * @param wallSeconds wall time of the whole JVM
   */
  record Outcome(int exitCode, List<JsonNode> reports, Path log, double wallSeconds) {
    boolean ok() {
      return exitCode == 0;
    }
  }

  private final Path java;
  private final List<String> baseOptions;
  private final Path logDir;
  private final int timeoutMinutes;
  private final AtomicInteger counter = new AtomicInteger();

  ChildJvm(List<String> baseOptions, Path logDir, int timeoutMinutes) {
    this.java = Path.of(System.getProperty("java.home"), "bin", "java");
    this.baseOptions = List.copyOf(baseOptions);
    this.logDir = logDir;
    this.timeoutMinutes = timeoutMinutes;
  }

  /** The options every worker gets. */
  static List<String> standardOptions(String heap, Path tmp, List<String> extra) {
    List<String> o = new ArrayList<>();
    o.add("-Xmx" + heap);
    o.add("-XX:+UseParallelGC");
    o.add("-XX:+ExitOnOutOfMemoryError");
    o.add("-Djava.io.tmpdir=" + tmp);
    o.add("-Djava.awt.headless=true");
    o.add("-Xlog:disable");
    o.add("-Xlog:all=warning:stderr");
    o.addAll(extra);
    return o;
  }

  /** Runs {@code step} on {@code side}; {@code overrides} are JVM options added after the standard ones. */
  Outcome run(Side side, List<String> step, List<String> overrides) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(baseOptions);
    command.addAll(overrides);
    command.add("-cp");
    command.add(side.classpath());
    command.add(side.mainClass());
    command.addAll(step);
    int n = counter.incrementAndGet();
    Path log = logDir.resolve(String.format("%03d-%s-%s.log", n, side.engine(), step.get(0)));
    Path out = logDir.resolve(String.format("%03d-%s-%s.out", n, side.engine(), step.get(0)));
    long started = System.nanoTime();
    try {
      Files.createDirectories(logDir);
      Files.writeString(log, String.join(" ", command) + System.lineSeparator(), StandardCharsets.UTF_8);
      Process p = new ProcessBuilder(command)
          .redirectInput(ProcessBuilder.Redirect.from(new File(isWindows() ? "NUL" : "/dev/null")))
          .redirectOutput(out.toFile())
          .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
      int code;
      if (p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
        code = p.exitValue();
      } else {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
        Files.writeString(log, "TIMED OUT after " + timeoutMinutes + " minutes" + System.lineSeparator(),
            StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        code = -1;
      }
      List<JsonNode> reports = new ArrayList<>();
      for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
        if (line.startsWith(StepReport.PREFIX)) {
          reports.add(JSON.readTree(line.substring(StepReport.PREFIX.length())));
        }
      }
      return new Outcome(code, reports, log, (System.nanoTime() - started) / 1e9);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run worker " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running a worker", e);
    }
  }

  /** The last {@code lines} lines of a worker's log. */
  static String tail(Path log, int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e.getMessage() + ")";
    }
  }

  private static boolean isWindows() {
    return System.getProperty("os.name", "").startsWith("Windows");
  }
}
