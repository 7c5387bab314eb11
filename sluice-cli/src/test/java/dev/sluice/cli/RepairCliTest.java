package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage on the command line (issue 18): a truncated log block is reported by the query that skips it, by
 * {@code files} and by {@code stats}; a garbled block and a broken old commit file are repaired by
 * {@code sluice repair TABLE --apply}, which the errors now advise; a dry run changes nothing.
 */
class RepairCliTest {
  @TempDir
  Path dir;

  /** A Merge-on-Read table with 100 rows and two delta commits of 50 updates each (one log file per commit). */
  private String table() throws IOException {
    String t = dir.resolve("t").toString();
    assertEquals(0, CliTest.run("create", t, "--type", "mor", "--record-key", "id", "--precombine", "ts",
        "--columns", "id string, ts long, v string", "--table-version", "6").exit()); // repair: version 6 only
    assertEquals(0, CliTest.run("insert", t, input("a", 0, 100, 1).toString()).exit());
    assertEquals(0, CliTest.run("upsert", t, input("b", 0, 50, 2).toString()).exit());
    assertEquals(0, CliTest.run("upsert", t, input("c", 50, 100, 3).toString()).exit());
    return t;
  }

  private Path input(String tag, int from, int to, long ts) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < to; i++) {
      sb.append(String.format("{\"id\":\"k%03d\",\"ts\":%d,\"v\":\"%s%d\"}%n", i, ts, tag, i));
    }
    return Files.writeString(dir.resolve(tag + ".jsonl"), sb.toString());
  }

  /** The log file the first upsert wrote (version 1). */
  private Path firstLog() throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("t"))) {
      return s.filter(p -> p.getFileName().toString().contains(".log.1_")).findFirst().orElseThrow();
    }
  }

  private static Map<String, String> rows(CliTest.Run r) {
    Map<String, String> out = new TreeMap<>();
    r.out().lines().forEach(l -> out.put(l.substring(l.indexOf("\"id\"")), l));
    return out;
  }

  private Map<String, String> tree() throws IOException {
    try (Stream<Path> s = Files.walk(dir.resolve("t"))) {
      Map<String, String> out = new TreeMap<>();
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        out.put(dir.relativize(p).toString(), Files.size(p) + ":" + Files.getLastModifiedTime(p).toMillis() + ":"
            + java.util.Arrays.hashCode(Files.readAllBytes(p)));
      }
      return out;
    }
  }

  @Test
  void aTruncatedLogBlockIsReportedByTheQueryFilesAndStats() throws IOException {
    String t = table();
    Path log = firstLog();
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
      f.setLength(f.length() / 2);
    }
    CliTest.Run q = CliTest.run("query", t);
    assertEquals(0, q.exit(), q.err());
    assertEquals(100, q.out().lines().count());
    // the skipped block held the 50 "b" updates of a committed instant: the query says so, naming file and offset
    assertTrue(q.err().startsWith("warning: skipped a corrupt log block at offset 0 "), q.err());
    assertTrue(q.err().contains(log.toString()) && q.err().contains("committed instant"), q.err());
    for (String cmd : List.of("files", "stats")) {
      CliTest.Run r = CliTest.run(cmd, t);
      assertEquals(0, r.exit(), r.err());
      assertTrue(r.out().contains("WARNING CORRUPT_LOG_BLOCK") && r.out().contains(log.toString()), cmd + ": " + r.out());
    }
    CliTest.Run json = CliTest.run("stats", t, "--json");
    assertTrue(json.out().contains("\"CORRUPT_LOG_BLOCK\""), json.out());
  }

  @Test
  void aGarbledBlockIsRepairedThroughTheCliAndADryRunChangesNothing() throws IOException {
    String t = table();
    Path log = firstLog();
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
      f.seek(f.length() / 2);
      f.write(new byte[64]);
    }
    CliTest.Run q = CliTest.run("query", t);
    assertEquals(1, q.exit());
    // the advice names a command that works (it used to advise a rollback the CLI refuses)
    assertTrue(q.err().contains("'sluice repair TABLE --apply'"), q.err());

    Map<String, String> before = tree();
    CliTest.Run dry = CliTest.run("repair", t);
    assertEquals(0, dry.exit(), dry.err());
    assertTrue(dry.out().contains("CORRUPT_LOG_BLOCK") && dry.out().contains(log.toString()), dry.out());
    assertTrue(dry.out().contains("Dry run: nothing was changed"), dry.out());
    assertEquals(before, tree(), "a dry run changes nothing");

    CliTest.Run apply = CliTest.run("repair", t, "--apply");
    assertEquals(0, apply.exit(), apply.err());
    assertTrue(apply.out().contains("fixed:"), apply.out());
    CliTest.Run after = CliTest.run("query", t);
    assertEquals(0, after.exit(), after.err());
    assertEquals("", after.err());
    Map<String, String> rows = rows(after);
    assertEquals(100, rows.size());
    // the garbled block's 50 updates are gone (the report said so); the other commit's 50 updates are all there
    assertEquals(50, rows.values().stream().filter(r -> r.contains("\"v\":\"c")).count());
    assertEquals(50, rows.values().stream().filter(r -> r.contains("\"v\":\"a")).count());
    assertEquals("No damage found.", CliTest.run("repair", t).out().trim());
    // the original file is kept in the repair's backup folder
    try (Stream<Path> s = Files.walk(dir.resolve("t/.hoodie/.repair"))) {
      assertTrue(s.anyMatch(p -> p.getFileName().equals(log.getFileName())));
    }
  }

  @Test
  void aBrokenOldCommitFileIsRepairedThroughTheCli() throws IOException {
    String t = table();
    List<Path> commits;
    try (Stream<Path> s = Files.list(dir.resolve("t/.hoodie"))) {
      commits = s.filter(p -> p.getFileName().toString().endsWith(".deltacommit")).sorted().collect(Collectors.toList());
    }
    Path middle = commits.get(1);
    String time = middle.getFileName().toString().substring(0, middle.getFileName().toString().indexOf('.'));
    Map<String, String> rowsBefore = rows(CliTest.run("query", t));
    Files.writeString(middle, "{\"partitionToWriteStats\": {");

    CliTest.Run timeline = CliTest.run("timeline", t);
    assertEquals(1, timeline.exit());
    assertTrue(timeline.err().contains("'sluice repair TABLE --apply'"), timeline.err());
    // what the old advice said does not work: only the latest commit can be rolled back
    assertNotEquals(0, CliTest.run("rollback", t, time).exit());

    CliTest.Run apply = CliTest.run("repair", t, "--apply");
    assertEquals(0, apply.exit(), apply.err());
    assertTrue(apply.out().contains("BROKEN_INSTANT") && apply.out().contains("rebuild its commit metadata"), apply.out());
    CliTest.Run timelineAfter = CliTest.run("timeline", t);
    assertEquals(0, timelineAfter.exit(), timelineAfter.err());
    assertTrue(timelineAfter.out().lines().anyMatch(l -> l.startsWith(time) && l.contains("50")), timelineAfter.out());
    assertEquals(rowsBefore, rows(CliTest.run("query", t)), "every committed row is intact");
    assertEquals(0, CliTest.run("stats", t).exit());
    CliTest.Run compact = CliTest.run("compact", t, "--schedule", "--force");
    assertEquals(0, compact.exit(), compact.err());
    assertFalse(CliTest.run("repair", t).out().contains("BROKEN_INSTANT"));
  }
}
