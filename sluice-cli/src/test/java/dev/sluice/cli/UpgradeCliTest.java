package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice upgrade} and {@code sluice downgrade}: a version-6 table with a failed write is upgraded to 9 (the
 * write rolled back first), reads the same, goes back to 8; a target version Sluice does not upgrade to (a bad
 * option value, BAD_CONFIG like {@code create --table-version 7}) and a downgrade to 6 (UNSUPPORTED) exit with 1.
 */
class UpgradeCliTest {
  @TempDir
  Path dir;

  private String table() {
    return dir.resolve("t").toString();
  }

  private static String property(Path table, String key) throws IOException {
    return Files.readAllLines(table.resolve(".hoodie/hoodie.properties")).stream()
        .filter(l -> l.startsWith(key + "=")).map(l -> l.substring(key.length() + 1)).findFirst().orElse("<absent>");
  }

  @Test
  void upgradeTo9ThenDowngradeTo8() throws IOException {
    CliTest.Run c = CliTest.run("create", table(), "--type", "cow", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double", "--table-version", "6");
    assertEquals(0, c.exit(), c.err());
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\": \"a\", \"ts\": 1, \"city\": \"oslo\", \"fare\": 1.5}\n"
        + "{\"id\": \"b\", \"ts\": 1, \"city\": \"rome\", \"fare\": 2.5}\n");
    assertEquals(0, CliTest.run("insert", table(), in.toString()).exit());
    // a writer that died before it committed: its requested and inflight files stay behind
    Path meta = dir.resolve("t/.hoodie");
    Files.writeString(meta.resolve("20991231235959000.commit.requested"), "");
    Files.writeString(meta.resolve("20991231235959000.inflight"), "");
    CliTest.Run before = CliTest.run("query", table(), "--format", "csv");
    assertEquals(0, before.exit(), before.err());

    CliTest.Run bad = CliTest.run("upgrade", table(), "--to", "7");
    assertEquals(1, bad.exit(), bad.out() + bad.err());
    assertTrue(bad.err().startsWith("error: ") && bad.err().contains("--to 8 or --to 9"), bad.err());
    CliTest.Run up = CliTest.run("upgrade", table(), "--to", "9");
    assertEquals(0, up.exit(), up.err());
    assertTrue(up.out().contains("Rolled back 20991231235959000 (commit)"), up.out());
    assertTrue(up.out().contains("table version 6 -> 9"), up.out());
    assertTrue(up.out().contains("metadata table upgraded and kept"), up.out());
    assertEquals("9", property(dir.resolve("t"), "hoodie.table.version"));
    assertEquals("9", property(dir.resolve("t/.hoodie/metadata"), "hoodie.table.version"));
    assertEquals("files", property(dir.resolve("t"), "hoodie.table.metadata.partitions"));
    try (Stream<Path> s = Files.list(meta)) {
      List<String> old = s.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d+\\..*")).toList();
      assertEquals(List.of(), old, "the version-6 timeline files are gone from .hoodie/");
    }
    CliTest.Run after = CliTest.run("query", table(), "--format", "csv");
    assertEquals(before.out(), after.out(), "the same rows at version 9");
    CliTest.Run again = CliTest.run("upgrade", table(), "--to", "9");
    assertEquals(0, again.exit(), again.err());
    assertTrue(again.out().contains("at table version 9 already"), again.out());

    CliTest.Run down = CliTest.run("downgrade", table(), "--to", "8");
    assertEquals(0, down.exit(), down.err());
    assertTrue(down.out().contains("metadata table downgraded and kept"), down.out());
    assertEquals("8", property(dir.resolve("t"), "hoodie.table.version"));
    assertEquals("ts", property(dir.resolve("t"), "hoodie.table.precombine.field"));
    assertEquals("8", property(dir.resolve("t/.hoodie/metadata"), "hoodie.table.version"),
        "the metadata table is downgraded with the table");
    CliTest.Run to6 = CliTest.run("downgrade", table(), "--to", "6");
    assertEquals(1, to6.exit(), to6.out() + to6.err());
    assertTrue(to6.err().contains("Hudi 1.x's downgrade"), to6.err());
    assertEquals("8", property(dir.resolve("t"), "hoodie.table.version"), "a refused downgrade changes nothing");
  }
}
