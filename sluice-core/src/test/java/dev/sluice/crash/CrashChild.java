package dev.sluice.crash;

import dev.sluice.api.Table;
import dev.sluice.storage.CrashingStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.util.KillPoints;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The child JVM of the crash tests. It prints {@code READY} (after a warm-up on a scratch table if asked with
 * {@code --warm-up}; each child serves one trial that kills it, so by default it does not), then runs trials read from
 * stdin, one per line: {@code RUN <table dir> <scenario> <kill point spec or ->}. For each it arms the kill point,
 * prints {@code START}, runs the scenario's operation and prints {@code DONE} or {@code FAILED <message>}, unless the
 * kill point (or the parent's SIGKILL) ends the JVM first.
 */
public final class CrashChild {
  private CrashChild() {
  }

  /** Entry point: {@code CrashChild <scratch dir> [--warm-up]}. */
  public static void main(String[] args) throws IOException {
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    if (args.length > 1 && args[1].equals("--warm-up")) {
      warmUp(Path.of(args[0]));
    }
    out.println("READY");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      String[] p = line.trim().split(" ");
      if (p.length != 4 || !p[0].equals("RUN")) {
        out.println("FAILED bad command: " + line);
        continue;
      }
      CrashScenario s = Scenarios.byName(p[2]);
      Table t = s.open(Path.of(p[1]));
      KillPoints.arm(p[3].equals("-") ? null : p[3]);
      out.println("START");
      try {
        s.op().run(t);
        out.println("DONE");
      } catch (RuntimeException e) {
        out.println("FAILED " + String.valueOf(e.getMessage()).replace('\n', ' '));
      } finally {
        KillPoints.arm(null);
      }
    }
  }

  /** Loads and compiles the write path once, so trials measure the operation, not class loading. */
  private static void warmUp(Path scratch) {
    CrashScenario s = Scenarios.byName("cow-upsert");
    Path dir = scratch.resolve("warmup-" + ProcessHandle.current().pid());
    s.setup().build(dir, new CrashingStorage(new LocalStorage()));
    s.op().run(s.open(dir));
  }
}
