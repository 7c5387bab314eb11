package dev.sluice.crash;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The test side of a {@link CrashChild}: starts it, sends trials, and tells a kill from a finished operation. */
final class ChildJvm implements AutoCloseable {
  /** How a trial ended. */
  enum Outcome {
    /** The JVM died (kill point reached, or SIGKILL from the test). */
    KILLED,
    /** The operation finished. */
    DONE,
    /** The operation threw. */
    FAILED
  }

  /** A trial's end and, for FAILED, the message. */
  record Result(Outcome outcome, String message) {
  }

  private final Process process;
  private final BufferedReader out;
  private final PrintWriter in;
  private final Path log;
  private boolean dead;
  private boolean ready;

  private ChildJvm(Process process, Path log) {
    this.process = process;
    this.log = log;
    this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
  }

  /** Starts a child JVM on the test classpath (it warms up in the background). */
  static ChildJvm start(Path scratch, ChildClasspath cp) {
    try {
      Files.createDirectories(scratch);
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      Path log = Files.createTempFile(scratch, "child", ".log");
      // start-up dominates a child's life: C1 only, serial GC, no perf data
      List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
          "-XX:+UseSerialGC", "-XX:-UsePerfData"));
      cmd.addAll(cp.flags());
      cmd.add(CrashChild.class.getName());
      cmd.add(scratch.toString());
      Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
      return new ChildJvm(p, log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits for the warm-up to end. */
  void awaitReady() {
    if (ready) {
      return;
    }
    ready = true;
    String line = readLine();
    if (!"READY".equals(line)) {
      throw new AssertionError("crash child did not start: " + line + "\n" + logTail());
    }
  }

  /**
   * Runs a trial: {@code killSpec} arms a kill point ({@code -} for none); {@code killAfterMillis} ≥ 0 makes the test
   * SIGKILL the child that long after the operation started.
   */
  Result run(Path table, String scenario, String killSpec, long killAfterMillis) {
    in.println("RUN " + table + " " + scenario + " " + killSpec);
    String start = readLine();
    if (start == null) {
      return died();
    }
    if (!start.equals("START")) {
      throw new AssertionError("crash child: expected START, got " + start + "\n" + logTail());
    }
    if (killAfterMillis >= 0) {
      try {
        Thread.sleep(killAfterMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      // Process.destroyForcibly sends SIGKILL on Linux: no shutdown hooks, no finally blocks
      process.destroyForcibly();
    }
    String end = readLine();
    if (end == null) {
      return died();
    }
    if (end.equals("DONE")) {
      return new Result(Outcome.DONE, "");
    }
    if (end.startsWith("FAILED")) {
      return new Result(Outcome.FAILED, end);
    }
    throw new AssertionError("crash child: unexpected " + end + "\n" + logTail());
  }

  private Result died() {
    dead = true;
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("crash child did not end");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    int code = process.exitValue();
    if (code != 137) {
      throw new AssertionError("crash child exited with " + code + " instead of being killed\n" + logTail());
    }
    return new Result(Outcome.KILLED, "");
  }

  boolean alive() {
    return !dead && process.isAlive();
  }

  private String readLine() {
    try {
      return out.readLine();
    } catch (IOException e) {
      // the pipe broke because the JVM was killed
      return null;
    }
  }

  String logTail() {
    try {
      String s = Files.readString(log);
      return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() {
    in.close();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
