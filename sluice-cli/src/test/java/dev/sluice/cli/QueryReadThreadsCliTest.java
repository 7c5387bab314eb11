package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice query} reads file slices on two threads by default: its output is the one thread's, row for row, on
 * a Merge-on-Read table with every kind of slice (base file only, base file and logs with updates, inserts and
 * deletes) and awkward values (nulls, decimals, dates, timestamps, nested types).
 */
class QueryReadThreadsCliTest {
  @TempDir
  Path dir;

  private String table() {
    return dir.resolve("t").toString();
  }

  private Path write(String name, StringBuilder text) throws IOException {
    return Files.writeString(dir.resolve(name), text.toString());
  }

  private static String row(int i, long ts, String city) {
    return "{\"id\":\"k" + i + "\",\"ts\":" + ts + ",\"city\":\"" + city + "\",\"note\":"
        + (i % 7 == 0 ? "null" : "\"n, \\\"" + i + "\\\"\"") + ",\"fare\":" + (i % 5 == 0 ? "null" : i + ".25")
        + ",\"day\":\"2024-02-0" + (1 + i % 9) + "\",\"at\":\"2024-01-" + (10 + i % 20) + "T10:15:30.123456Z\""
        + ",\"tags\":[\"a\",\"b" + i + "\"],\"attrs\":{\"x\":" + i + "}}\n";
  }

  @Test
  void twoReadThreadsWriteWhatOneWrites() throws IOException {
    CliTest.Run c = CliTest.run("create", table(), "--type", "mor", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, note string, fare decimal(10,2), "
            + "day date, at timestamp, tags array<string>, attrs map<string,long>",
        "--conf", "hoodie.parquet.small.file.limit=0");
    assertEquals(0, c.exit(), c.err());
    String[] cities = {"c0", "c1", "c2", "c3", "c4", "c5"};
    StringBuilder initial = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      initial.append(row(i, 1, cities[i % cities.length]));
    }
    assertEquals(0, CliTest.run("insert", table(), write("in.jsonl", initial).toString()).exit());
    // updates and new keys into c0, c1, c2 (log files there); c3-c5 keep their base files alone
    StringBuilder upsert = new StringBuilder();
    for (int i = 0; i < 3000; i += 2) {
      if (i % cities.length < 3) {
        upsert.append(row(i, 2, cities[i % cities.length]));
      }
    }
    for (int i = 3000; i < 3300; i++) {
      upsert.append(row(i, 2, cities[i % 3]));
    }
    CliTest.Run up = CliTest.run("upsert", table(), write("up.jsonl", upsert).toString(), "--conf",
        "hoodie.parquet.small.file.limit=0");
    assertEquals(0, up.exit(), up.err());
    // deletes in a slice with logs (c1) and in one without (c4, which gets its first log file)
    StringBuilder del = new StringBuilder();
    for (int i = 1; i < 600; i += 6) {
      del.append("{\"id\":\"k").append(i).append("\",\"city\":\"c1\"}\n");
    }
    del.append("{\"id\":\"k4\",\"city\":\"c4\"}\n");
    CliTest.Run d = CliTest.run("delete", table(), write("del.jsonl", del).toString());
    assertEquals(0, d.exit(), d.err());

    for (String format : List.of("jsonl", "csv")) {
      CliTest.Run one = CliTest.run("query", table(), "--format", format, "--conf", "sluice.read.parallelism=1");
      CliTest.Run two = CliTest.run("query", table(), "--format", format);
      assertEquals(0, one.exit(), one.err());
      assertEquals(0, two.exit(), two.err());
      assertEquals(one.out(), two.out(), format);
      long rows = one.out().lines().count() - (format.equals("csv") ? 1 : 0);
      assertEquals(3300 - 100 - 1, rows, format);
      CliTest.Run limited = CliTest.run("query", table(), "--format", format, "--limit", "1234");
      assertEquals(String.join("\n", one.out().lines().limit(1234 + (format.equals("csv") ? 1 : 0)).toList()) + "\n",
          limited.out(), format + " with a limit");
    }
    CliTest.Run meta = CliTest.run("query", table(), "--meta", "--where", "fare > 100");
    assertEquals(CliTest.run("query", table(), "--meta", "--where", "fare > 100", "--conf",
        "sluice.read.parallelism=1").out(), meta.out());
    assertFalse(meta.out().contains("\"k4\""), "a deleted key");
    assertTrue(meta.out().contains("\"_hoodie_file_name\""), meta.out().lines().findFirst().orElse(""));
  }

  @Test
  void readThreadsFollowTheConfiguredParallelism() {
    assertEquals(1, QueryCommand.readThreads(Config.of(java.util.Map.of("sluice.read.parallelism", "1"))));
    assertEquals(3, QueryCommand.readThreads(Config.of(java.util.Map.of("sluice.read.parallelism", "3"))));
    assertEquals(Math.min(2, Runtime.getRuntime().availableProcessors()), QueryCommand.readThreads(Config.empty()));
  }
}
