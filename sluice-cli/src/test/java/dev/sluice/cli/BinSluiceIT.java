package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's commands, through the real launcher script, in a child process. */
class BinSluiceIT {
  @TempDir
  Path dir;

  static Path repoRoot() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("bin/sluice"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new AssertionError("bin/sluice not found above " + Path.of("").toAbsolutePath());
    }
    return p;
  }

  record Result(int exit, String out, String err) {
  }

  private Result sluice(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(repoRoot().resolve("bin/sluice").toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(dir.resolve("out.txt").toFile())
        .redirectError(dir.resolve("err.txt").toFile());
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("bin/sluice " + String.join(" ", args) + " timed out");
    }
    return new Result(p.exitValue(), Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8),
        Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
  }

  @Test
  void demoAndAUserSession() throws IOException, InterruptedException {
    Result demo = sluice("demo", dir.resolve("demo").toString());
    assertEquals(0, demo.exit(), demo.err());
    assertTrue(demo.out().contains("rows now: 3050"), demo.out());

    String t = dir.resolve("trips").toString();
    Result c = sluice("create", t, "--record-key", "id", "--precombine", "ts", "--partition-path", "city", "--hive-style",
        "--columns", "id string, ts long, city string, fare decimal(10,2), at timestamp");
    assertEquals(0, c.exit(), c.err());
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\":\"a\",\"ts\":1,\"city\":\"oslo\",\"fare\":\"12.50\",\"at\":\"2024-01-31T10:15:30Z\"}\n"
        + "{\"id\":\"b\",\"ts\":1,\"city\":\"rome\",\"fare\":3,\"at\":null}\n");
    Result ins = sluice("insert", t, in.toString());
    assertEquals(0, ins.exit(), ins.err());
    assertTrue(Files.isDirectory(dir.resolve("trips/city=oslo")));
    Result q = sluice("query", t, "--where", "city = 'oslo'", "--format", "csv");
    assertEquals(0, q.exit(), q.err());
    assertTrue(q.out().contains("12.50") && q.out().contains("2024-01-31T10:15:30"), q.out());
    Result bad = sluice("query", t, "--where", "city = ");
    assertTrue(bad.exit() != 0 && bad.err().startsWith("error: "), bad.err());
  }
}
