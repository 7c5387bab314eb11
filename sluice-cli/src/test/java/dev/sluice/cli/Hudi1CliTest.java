package dev.sluice.cli;

import static dev.sluice.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI on a version-9 Merge-on-Read table Hudi 1.1.1's Java client wrote (test resource {@code golden/mor_v9}: an
 * insert of k1, k2 in partition p1, then an upsert of k1 into a log file; the instants below are its own):
 * {@code files}, {@code stats} and {@code logs} show the table version and the completion times, and
 * {@code query --type incremental} ranges by completion time.
 */
class Hudi1CliTest {
  private static final String INSERT = "20261205091151718";
  private static final String INSERT_DONE = "20261205091200654";
  private static final String UPSERT = "20261205091214229";
  private static final String UPSERT_DONE = "20261205091228254";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private String table;

  @BeforeEach
  void copy() throws URISyntaxException, IOException {
    Path source = Path.of(Hudi1CliTest.class.getResource("/golden/mor_v9").toURI());
    Path target = dir.resolve("mor_v9");
    try (Stream<Path> files = Files.walk(source)) {
      for (Path p : files.toList()) {
        Path to = target.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to);
        }
      }
    }
    table = target.toString();
  }

  private static JsonNode json(Run r) {
    assertEquals(0, r.exit(), r.err());
    try {
      return JSON.readTree(r.out());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private record Run(int exit, String out, String err) {
  }

  private static Run cli(String... args) {
    CliTest.Run r = run(args);
    return new Run(r.exit(), r.out(), r.err());
  }

  @Test
  void filesStatsAndLogsShowTheVersionAndCompletionTimes() {
    Run files = cli("files", table);
    assertEquals(0, files.exit(), files.err());
    assertTrue(files.out().startsWith("table version 9"), files.out());
    assertTrue(files.out().contains("completed " + INSERT_DONE) && files.out().contains("completed " + UPSERT_DONE),
        "the base file's and the log's commits with their completion times: " + files.out());
    JsonNode f = json(cli("files", table, "--json"));
    assertEquals(9, f.get("tableVersion").asInt());
    JsonNode group = f.get("partitions").get(0).get("fileGroups").get(0);
    assertEquals(INSERT_DONE, group.get("baseFile").get("completionTime").asText());
    assertEquals(UPSERT_DONE, group.get("logFiles").get(0).get("completionTime").asText());

    Run stats = cli("stats", table);
    assertEquals(0, stats.exit(), stats.err());
    assertTrue(stats.out().contains("(version 9)") && stats.out().contains("completed " + UPSERT_DONE), stats.out());
    JsonNode s = json(cli("stats", table, "--json"));
    assertEquals(9, s.get("tableVersion").asInt());
    assertEquals(INSERT_DONE, s.get("completionTimes").get(INSERT).asText());
    assertEquals(UPSERT_DONE, s.get("completionTimes").get(UPSERT).asText());

    String log = group.get("logFiles").get(0).get("name").asText();
    Run logs = cli("logs", table, "p1/" + log);
    assertEquals(0, logs.exit(), logs.err());
    assertTrue(logs.out().contains("table version 9") && logs.out().contains("completed " + UPSERT_DONE), logs.out());
    JsonNode l = json(cli("logs", table, "p1/" + log, "--json"));
    assertEquals(9, l.get("tableVersion").asInt());
    assertEquals(UPSERT_DONE, l.get("blocks").get(0).get("completionTime").asText());
  }

  @Test
  void incrementalQueriesRangeByCompletionTime() {
    // after the insert's completion: the upsert's row only
    Run after = cli("query", table, "--type", "incremental", "--from", INSERT_DONE, "--meta");
    assertEquals(0, after.exit(), after.err());
    List<String> rows = after.out().lines().toList();
    assertEquals(1, rows.size(), after.out());
    assertTrue(rows.get(0).contains("\"a2\"") && rows.get(0).contains(UPSERT), rows.get(0));
    // the upsert was requested before this time but completed after it: still in the range
    String between = String.valueOf(Long.parseLong(UPSERT) + 1);
    Run late = cli("query", table, "--type", "incremental", "--from", between);
    assertEquals(0, late.exit(), late.err());
    assertEquals(1, late.out().lines().count(), late.out());
    // up to the insert's completion: the insert's rows as it wrote them
    Run first = cli("query", table, "--type", "incremental", "--from", "earliest", "--to", INSERT_DONE);
    assertEquals(0, first.exit(), first.err());
    assertEquals(2, first.out().lines().count(), first.out());
    assertTrue(first.out().contains("\"a\"") && !first.out().contains("a2"), first.out());
    Run bad = cli("query", table, "--type", "incremental", "--from", "yesterday");
    assertEquals(3, bad.exit(), bad.out());
    assertTrue(bad.err().contains("completion time") && bad.err().contains("earliest"), bad.err());
  }
}
