package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every failure of a write ends in one {@code error:} line naming the input line where there is one (exit 3 for bad
 * input, 1 otherwise), nothing committed, the stack trace only with {@code --verbose}: oversized values, deep
 * nesting, running out of memory (a child JVM with a small heap), a storage failure, an ambiguous complex key.
 */
class FailureMessagesCliTest {
  private static final int FIFTY_MB = 50 * 1024 * 1024;

  @TempDir
  Path dir;
  private String table;

  @BeforeEach
  void create() throws IOException {
    table = dir.resolve("t").toString();
    CliTest.Run c = CliTest.run("create", table, "--record-key", "id", "--partition-path", "p", "--columns",
        "id string, p string, note string, tags array<string>", "--conf", "hoodie.index.bloom.num_entries=1000");
    assertEquals(0, c.exit(), c.err());
    Path ok = dir.resolve("ok.json");
    Files.writeString(ok, "{\"id\":\"a\",\"p\":\"x\",\"note\":\"first\",\"tags\":[]}\n");
    assertEquals(0, CliTest.run("insert", table, ok.toString()).exit());
  }

  /** The committed instants and data files: what must not change when a write fails. */
  private List<String> committed() throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(Path.of(table))) {
      s.filter(p -> p.toString().endsWith(".commit") || p.toString().endsWith(".parquet")).forEach(p ->
          out.add(p.getFileName().toString()));
    }
    out.sort(null);
    return out;
  }

  private static void oneErrorLine(CliTest.Run r, int exit, String start) {
    assertEquals(exit, r.exit(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().startsWith(start), r.err());
  }

  private static void writeBig(Path file, String before, int length, String after) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write(before);
      char[] chunk = new char[1 << 16];
      java.util.Arrays.fill(chunk, 'z');
      for (int left = length; left > 0; left -= chunk.length) {
        w.write(chunk, 0, Math.min(left, chunk.length));
      }
      w.write(after);
    }
  }

  @Test
  void aFiftyMegabyteValueIsBadInputNamingLineAndField() throws IOException {
    List<String> before = committed();
    Path json = dir.resolve("big.json");
    writeBig(json, "{\"id\":\"b\",\"p\":\"x\",\"note\":\"fine\",\"tags\":[]}\n{\"id\":\"c\",\"p\":\"x\",\"note\":\"",
        FIFTY_MB, "\",\"tags\":[]}\n");
    CliTest.Run r = CliTest.run("upsert", table, json.toString());
    oneErrorLine(r, 3, "error: Bad input at big.json:2, field 'note': a text value is longer than 16777216 characters");
    assertTrue(r.err().contains("sluice.input.max.value.length"), r.err());
    Path csv = dir.resolve("big.csv");
    writeBig(csv, "id,p,note,tags\nb,x,fine,[]\nc,x,", FIFTY_MB, ",[]\n");
    r = CliTest.run("upsert", table, csv.toString());
    oneErrorLine(r, 3, "error: Bad input at big.csv:3, field 'note': a value is longer than 16777216 characters");
    assertEquals(before, committed());
    // the limit is a setting
    Path mid = dir.resolve("mid.json");
    writeBig(mid, "{\"id\":\"d\",\"p\":\"x\",\"note\":\"", 2000, "\",\"tags\":[]}\n");
    r = CliTest.run("upsert", table, mid.toString(), "--conf", "sluice.input.max.value.length=1000");
    oneErrorLine(r, 3, "error: Bad input at mid.json:1, field 'note'");
    assertEquals(0, CliTest.run("upsert", table, mid.toString()).exit());
  }

  @Test
  void jsonNestedPastTheLimitIsBadInputNamingLineAndField() throws IOException {
    List<String> before = committed();
    Path json = dir.resolve("deep.json");
    // a field the table does not have, skipped on request: it was read as a storage failure (exit 1, no line)
    Files.writeString(json, "{\"id\":\"b\",\"p\":\"x\",\"note\":\"fine\",\"tags\":[]}\n"
        + "{\"id\":\"c\",\"p\":\"x\",\"note\":\"n\",\"extra\":" + "[".repeat(1500) + "]".repeat(1500) + "}\n");
    CliTest.Run r = CliTest.run("upsert", table, json.toString(), "--ignore-unknown-fields");
    oneErrorLine(r, 3, "error: Bad input at deep.json:2, field 'extra': the JSON nests arrays and objects deeper than"
        + " 1000 levels");
    assertTrue(r.err().contains("sluice.input.max.nesting.depth"), r.err());
    // the limit is a setting, and holds for the fields of the table as well
    Files.writeString(json, "{\"id\":\"c\",\"p\":\"x\",\"note\":\"n\",\"tags\":[[\"a\"]]}\n");
    r = CliTest.run("upsert", table, json.toString(), "--conf", "sluice.input.max.nesting.depth=2");
    oneErrorLine(r, 3, "error: Bad input at deep.json:1, field 'tags': the JSON nests arrays and objects deeper than 2");
    Path csv = dir.resolve("deep.csv");
    Files.writeString(csv, "id,p,note,tags\nc,x,n,\"[[\"\"a\"\"]]\"\n");
    r = CliTest.run("upsert", table, csv.toString(), "--conf", "sluice.input.max.nesting.depth=1");
    oneErrorLine(r, 3, "error: Bad input at deep.csv:2, field 'tags'");
    assertEquals(before, committed());
  }

  @Test
  void runningOutOfMemoryIsOneLineNamingTheInputLine() throws IOException, InterruptedException {
    List<String> before = committed();
    Path json = dir.resolve("heavy.json");
    writeBig(json, "{\"id\":\"b\",\"p\":\"x\",\"note\":\"fine\",\"tags\":[]}\n{\"id\":\"c\",\"p\":\"x\",\"note\":\"",
        15_000_000, "\",\"tags\":[]}\n");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-Xmx48m", "-cp", System.getProperty("java.class.path"),
        "dev.sluice.cli.Main", "upsert", table, json.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    assertEquals(1, p.exitValue(), err);
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.startsWith("error: Reading input at heavy.json:2: the Java heap (at most "), err);
    assertTrue(err.contains("-Xmx"), err);
    assertEquals(before, committed());
  }

  @Test
  void aStorageFailureIsOneLineAndTheStackOnlyWithVerbose() throws IOException {
    List<String> before = committed();
    // a file where the new partition's folder must go: creating the folder fails
    Files.writeString(Path.of(table, "blocked"), "not a folder");
    Path json = dir.resolve("in.json");
    Files.writeString(json, "{\"id\":\"b\",\"p\":\"blocked\",\"note\":\"n\",\"tags\":[]}\n");
    CliTest.Run r = CliTest.run("upsert", table, json.toString());
    oneErrorLine(r, 1, "error: Storage failed");
    assertFalse(r.err().contains("\tat "), r.err());
    r = CliTest.run("upsert", table, json.toString(), "--verbose");
    assertEquals(1, r.exit());
    assertTrue(r.err().startsWith("error: Storage failed") && r.err().contains("\tat "), r.err());
    assertEquals(before, committed());
  }

  @Test
  void anAmbiguousComplexKeyIsBadInputNamingLineAndField() throws IOException {
    String keyed = dir.resolve("k").toString();
    assertEquals(0, CliTest.run("create", keyed, "--record-key", "a,b", "--columns", "a string, b string, n long")
        .exit());
    Path json = dir.resolve("keys.json");
    Files.writeString(json, "{\"a\":\"x\",\"b\":\"y\",\"n\":1}\n{\"a\":\"x,b:y\",\"b\":\"z\",\"n\":2}\n");
    CliTest.Run r = CliTest.run("insert", keyed, json.toString());
    oneErrorLine(r, 3, "error: Bad input at keys.json:2 (record 2): record key, field 'a'");
    assertTrue(r.err().contains("a=\"x\", b=\"y,b:z\""), r.err());
    // commas and colons that cannot collide are kept
    Files.writeString(json, "{\"a\":\"1:2\",\"b\":\"y,a:z\",\"n\":1}\n");
    assertEquals(0, CliTest.run("insert", keyed, json.toString()).exit());
    CliTest.Run q = CliTest.run("query", keyed, "--meta", "--columns", "a");
    assertTrue(q.out().contains("\"_hoodie_record_key\":\"a:1:2,b:y,a:z\""), q.out());
  }
}
