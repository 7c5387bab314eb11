package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Tables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IncrementalCliTest {
  @TempDir
  Path dir;

  private String table() {
    return dir.resolve("t").toString();
  }

  private void write(String op, String name, String jsonl) throws IOException {
    Path in = dir.resolve(name);
    Files.writeString(in, jsonl);
    CliTest.Run r = CliTest.run(op, table(), in.toString());
    assertEquals(0, r.exit(), r.err());
  }

  /** Version 6's incremental query: ranges of instant times, deleted keys with --include-deletes. */
  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor"})
  void incrementalQueryWithDeletesAndBadRanges(String type) throws IOException {
    CliTest.Run c = CliTest.run("create", table(), "--type", type, "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double",
        "--conf", "hoodie.index.bloom.num_entries=1000", "--conf", "hoodie.parquet.small.file.limit=0",
        "--table-version", "6");
    assertEquals(0, c.exit(), c.err());
    write("insert", "a.jsonl", """
        {"id": "a", "ts": 1, "city": "oslo", "fare": 10.5}
        {"id": "b", "ts": 1, "city": "lisbon", "fare": 3.0}
        {"id": "c", "ts": 1, "city": "oslo", "fare": 7.25}
        """);
    write("upsert", "b.jsonl", """
        {"id": "a", "ts": 2, "city": "oslo", "fare": 11.0}
        {"id": "d", "ts": 2, "city": "lisbon", "fare": 1.0}
        """);
    write("delete", "c.jsonl", "{\"id\": \"c\", \"city\": \"oslo\"}\n");
    List<String> commits = List.copyOf(Tables.open(table()).inspect().completedCommits().keySet());
    assertEquals(3, commits.size());

    CliTest.Run second = CliTest.run("query", table(), "--type", "incremental", "--from", commits.get(0), "--to",
        commits.get(1), "--columns", "id,fare");
    assertEquals(0, second.exit(), second.err());
    assertEquals(List.of("{\"id\":\"a\",\"fare\":11.0}", "{\"id\":\"d\",\"fare\":1.0}"),
        second.out().lines().sorted().toList());

    CliTest.Run withDeletes = CliTest.run("query", table(), "--type", "incremental", "--from", commits.get(0),
        "--include-deletes", "--columns", "id,fare", "--where", "city = 'oslo'");
    assertEquals(0, withDeletes.exit(), withDeletes.err());
    assertEquals(List.of("{\"id\":\"a\",\"fare\":11.0,\"_hoodie_is_deleted\":false}",
        "{\"id\":\"c\",\"fare\":7.25,\"_hoodie_is_deleted\":true}"), withDeletes.out().lines().sorted().toList());

    CliTest.Run meta = CliTest.run("query", table(), "--type", "incremental", "--from", "00000000000000000",
        "--meta", "--format", "csv");
    assertEquals(0, meta.exit(), meta.err());
    assertTrue(meta.out().lines().findFirst().orElseThrow().startsWith("_hoodie_commit_time,"), meta.out());
    assertEquals(4, meta.out().lines().count(), meta.out());

    CliTest.Run bad = CliTest.run("query", table(), "--type", "incremental", "--from", "yesterday");
    assertEquals(3, bad.exit(), bad.err());
    assertTrue(bad.err().startsWith("error: ") && bad.err().contains("17 digits"), bad.err());
    CliTest.Run backwards = CliTest.run("query", table(), "--type", "incremental", "--from", commits.get(2), "--to",
        commits.get(0));
    assertEquals(3, backwards.exit(), backwards.err());
    assertTrue(backwards.err().contains("is before --from"), backwards.err());
    CliTest.Run noFrom = CliTest.run("query", table(), "--type", "incremental");
    assertEquals(3, noFrom.exit(), noFrom.err());
    CliTest.Run noType = CliTest.run("query", table(), "--from", commits.get(0));
    assertEquals(1, noType.exit(), noType.err());
    assertTrue(noType.err().contains("--type incremental"), noType.err());
  }
}
