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

  /** SLUICE_JAVA_OPTS for the child, or null to leave the launcher's default. */
  private String javaOpts;

  record Result(int exit, String out, String err) {
  }

  private Result sluice(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(repoRoot().resolve("bin/sluice").toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    if (javaOpts != null) {
      pb.environment().put("SLUICE_JAVA_OPTS", javaOpts);
    }
    pb.redirectOutput(dir.resolve("out.txt").toFile())
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

  /** {@code create} without {@code --table-version} makes a version 9 table (timeline layout 2); 6 on request. */
  @Test
  void createWithoutAVersionMakesVersion9() throws IOException, InterruptedException {
    String t = dir.resolve("v9").toString();
    Result c = sluice("create", t, "--type", "mor", "--record-key", "id", "--precombine", "ts",
        "--columns", "id string, ts long, fare double");
    assertEquals(0, c.exit(), c.err());
    assertTrue(c.out().contains("(table version 9)"), c.out());
    String props = Files.readString(dir.resolve("v9/.hoodie/hoodie.properties"));
    assertTrue(props.contains("hoodie.table.version=9") && props.contains("hoodie.timeline.layout.version=2")
        && props.contains("hoodie.timeline.path=timeline"), props);
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\":\"a\",\"ts\":1,\"fare\":2.5}\n");
    Result ins = sluice("insert", t, in.toString());
    assertEquals(0, ins.exit(), ins.err());
    try (var names = Files.list(dir.resolve("v9/.hoodie/timeline"))) {
      assertEquals(1, names.filter(n -> n.getFileName().toString().matches("\\d{17}_\\d{17}\\.deltacommit")).count());
    }
    Result d = sluice("describe", t);
    assertEquals(0, d.exit(), d.err());
    assertTrue(d.out().contains("table version 9"), d.out());

    Result six = sluice("create", dir.resolve("v6").toString(), "--record-key", "id", "--precombine", "ts",
        "--columns", "id string, ts long", "--table-version", "6");
    assertEquals(0, six.exit(), six.err());
    assertTrue(Files.readString(dir.resolve("v6/.hoodie/hoodie.properties")).contains("hoodie.table.version=6"));
    assertTrue(!Files.exists(dir.resolve("v6/.hoodie/timeline")), "version 6 keeps its instants in .hoodie/");
  }

  /**
   * {@code -h} through the launcher. The default run takes a command of each kind (top level, nested, a write verb,
   * the help and completion commands) - one JVM each; HelpCliTest walks every command in process. The extended run,
   * {@code -Dsluice.cli.help.walk=all}, starts one JVM for every command of the tree (about 2 minutes on 2 busy cores).
   */
  @Test
  void helpOnEveryCommandThroughTheLauncher() throws IOException, InterruptedException {
    List<List<String>> paths = HelpCliTest.commandPaths();
    if (!"all".equals(System.getProperty("sluice.cli.help.walk"))) {
      paths = paths.stream().filter(p -> List.of(List.of("create"), List.of("metadata", "init"), List.of("bulk-insert"),
          List.of("help"), List.of("completion")).contains(p)).toList();
      assertEquals(5, paths.size(), "a command of the sample is gone: " + paths);
    }
    // one JVM per command: the C1 compiler alone starts faster and is plenty for printing usage
    javaOpts = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1";
    for (List<String> path : paths) {
      List<String> args = new ArrayList<>(path);
      args.add("-h");
      Result r = sluice(args.toArray(String[]::new));
      assertEquals(0, r.exit(), args + ": " + r.err());
      assertTrue(r.out().startsWith("Usage: sluice " + String.join(" ", path)), args + ": " + r.out());
    }
    Result topics = sluice("help");
    assertEquals(0, topics.exit(), topics.err());
    assertTrue(topics.out().contains("java-opts"), topics.out());
    Result unknown = sluice("help", "nosuchtopic");
    assertEquals(2, unknown.exit());
    assertTrue(unknown.err().contains("Help topics"), unknown.err());
  }
}
