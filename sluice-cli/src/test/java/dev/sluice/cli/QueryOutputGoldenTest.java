package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice query}'s JSON Lines and CSV bytes, as {@code bin/sluice} writes them to its standard output, equal
 * the text the output wrote before its read and format path was made faster (6 December 2026, commit 0575509): the
 * expected files under {@code query-golden/} were written by that code from the same tables, and were not edited.
 * The tables hold every column type (strings with quotes, backslashes, control characters, commas, new lines,
 * non-ASCII and characters outside the BMP; ints, longs, floats, doubles of many shapes, booleans, bytes, dates,
 * times, timestamps, decimals, arrays, maps, structs, arrays of structs) with nulls, on a Merge-on-Read table whose
 * slices merge updates, inserts and deletes from log files, on a Copy-on-Write table, and with {@code --columns}.
 * On a mismatch the actual bytes are written under {@code target/query-golden-actual/} to compare.
 */
class QueryOutputGoldenTest {
  @TempDir
  Path dir;

  private static final String COLUMNS = "id string, ts long, city string, s string, i int, l long, f float, d double, "
      + "b boolean, raw bytes, day date, t time, at timestamp, atm timestamp_millis, price decimal(10,2), "
      + "big decimal(30,6), tags array<string>, attrs map<string,long>, addr struct<street:string, zip:int>, "
      + "items array<struct<sku:string, n:int>>";

  private static final String[] TEXTS = {"plain", "a \"quoted\" word", "back\\slash", "tab\there", "new\nline",
    "cr\rreturn", "comma, and; semicolon", "ctrl\u0001\u001f", "caf\u00e9 na\u00efve", "\u65e5\u672c\u8a9e",
    "emoji \ud83d\ude00!", "", " leading and trailing ", "quote,\"comma\"\n", "\u00a0nbsp", "slash/and\u2028sep"};
  private static final String[] DOUBLES = {"0.0", "-0.0", "1.5", "342.97", "-12.01", "1.0E10", "123456789.123",
    "1.0E-5", "3.141592653589793", "999999.99", "1000000.01", "-7.0", "2.5E-300", "1.7976931348623157E308"};
  private static final String[] FLOATS = {"0.0", "1.25", "-3.4028235E38", "0.1", "16777216.0", "1.0E-7"};
  private static final String[] CITIES = {"c0", "c1", "c2"};

  /**
   * The partition of key {@code i}: new keys of the upsert go to a partition of their own, so every partition has
   * one file group and the rows' order does not depend on the random file ids of new file groups.
   */
  private static String city(int i) {
    return i >= 300 ? "c3" : CITIES[i % 3];
  }

  private static String json(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  /** Row {@code i} at ordering value {@code ts}; every value a function of both, a null every few rows per column. */
  private static String row(int i, long ts) {
    int v = i + (int) ts * 1000;
    StringBuilder r = new StringBuilder("{");
    r.append("\"id\":\"k").append(i).append("\",\"ts\":").append(ts).append(",\"city\":\"").append(city(i))
        .append('"');
    r.append(",\"s\":").append(v % 11 == 3 ? "null" : json(TEXTS[v % TEXTS.length] + (ts > 1 ? " v" + ts : "")));
    r.append(",\"i\":").append(v % 7 == 1 ? "null" : String.valueOf((v % 5 == 0 ? -1 : 1) * v * 99_991));
    r.append(",\"l\":").append(v % 13 == 2 ? "null" : v % 4 == 0 ? "-9223372036854775808"
        : String.valueOf((long) v * 1_000_000_007L));
    r.append(",\"f\":").append(v % 9 == 4 ? "null" : FLOATS[v % FLOATS.length]);
    r.append(",\"d\":").append(v % 8 == 5 ? "null" : DOUBLES[v % DOUBLES.length]);
    r.append(",\"b\":").append(v % 6 == 0 ? "null" : String.valueOf(v % 2 == 0));
    r.append(",\"raw\":").append(v % 10 == 7 ? "null" : json(java.util.Base64.getEncoder().encodeToString(
        new byte[] {(byte) v, 0, (byte) 0xff, '"', '\n', (byte) (v * 7)})));
    r.append(",\"day\":").append(v % 12 == 1 ? "null" : "\"19" + (70 + v % 30) + "-0" + (1 + v % 9) + "-1"
        + (v % 10) + "\"");
    r.append(",\"t\":").append(v % 14 == 3 ? "null" : "\"1" + (v % 10) + ":0" + (v % 10) + ":3" + (v % 10) + "."
        + (v % 10) + "05\"");
    r.append(",\"at\":").append(v % 9 == 2 ? "null" : "\"20" + (10 + v % 20) + "-0" + (1 + v % 9) + "-1"
        + (v % 10) + "T0" + (v % 10) + ":15:30." + (v % 2 == 0 ? "123456" : "5") + "Z\"");
    r.append(",\"atm\":").append(v % 11 == 5 ? "null" : "\"1969-12-3" + (v % 2) + "T23:59:5" + (v % 10) + ".25Z\"");
    r.append(",\"price\":").append(v % 7 == 3 ? "null" : (v % 3 == 0 ? "-" : "") + v + "." + (v % 100 < 10 ? "0" : "")
        + (v % 100));
    r.append(",\"big\":").append(v % 5 == 2 ? "null" : "\"" + (v % 2 == 0 ? "-" : "") + "123456789012345678901234."
        + String.format("%06d", v * 37 % 1_000_000) + "\"");
    r.append(",\"tags\":").append(v % 8 == 6 ? "null" : v % 4 == 1 ? "[]" : "[" + json(TEXTS[(v + 3) % TEXTS.length])
        + ",\"t" + v + "\"]");
    r.append(",\"attrs\":").append(v % 9 == 7 ? "null" : v % 5 == 3 ? "{}" : "{\"x\":" + v + ",\"y,\\\"z\":-" + v
        + "}");
    r.append(",\"addr\":").append(v % 10 == 4 ? "null" : "{\"street\":" + (v % 3 == 1 ? "null"
        : json(TEXTS[(v + 5) % TEXTS.length])) + ",\"zip\":" + (v % 4 == 2 ? "null" : String.valueOf(10_000 + v)) + "}");
    r.append(",\"items\":").append(v % 7 == 6 ? "null" : "[{\"sku\":\"s" + v + "\",\"n\":" + v % 3 + "},{\"sku\":"
        + (v % 2 == 0 ? "null" : json(TEXTS[v % TEXTS.length])) + ",\"n\":null}]");
    return r.append("}\n").toString();
  }

  private Path input(String name, StringBuilder text) throws IOException {
    return Files.writeString(dir.resolve(name), text.toString());
  }

  private static void ok(CliTest.Run r) {
    assertEquals(0, r.exit(), r.err());
  }

  /** A table of {@code type}: 300 rows in three partitions; then updates, new keys (in a fourth partition) and deletes. */
  private String table(String type) throws IOException {
    String t = dir.resolve(type).toString();
    ok(CliTest.run("create", t, "--type", type, "--record-key", "id", "--precombine", "ts", "--partition-path",
        "city", "--columns", COLUMNS));
    StringBuilder initial = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      initial.append(row(i, 1));
    }
    List<String> conf = List.of("--conf", "hoodie.parquet.small.file.limit=0");
    ok(run("insert", t, input("in-" + type + ".jsonl", initial).toString(), conf));
    StringBuilder upsert = new StringBuilder();
    for (int i = 0; i < 300; i += 3) {
      // every third key newer, every 21st older than the stored row (kept as stored)
      upsert.append(row(i, i % 21 == 0 ? 0 : 2));
    }
    for (int i = 300; i < 330; i++) {
      upsert.append(row(i, 2));
    }
    ok(run("upsert", t, input("up-" + type + ".jsonl", upsert).toString(), conf));
    StringBuilder del = new StringBuilder();
    for (int i = 1; i < 330; i += 10) {
      del.append("{\"id\":\"k").append(i).append("\",\"city\":\"").append(city(i)).append("\"}\n");
    }
    ok(run("delete", t, input("del-" + type + ".jsonl", del).toString(), List.of()));
    return t;
  }

  private static CliTest.Run run(String verb, String table, String file, List<String> more) {
    List<String> args = new java.util.ArrayList<>(List.of(verb, table, file));
    args.addAll(more);
    return CliTest.run(args.toArray(String[]::new));
  }

  /** The query's standard output as bytes, as {@code bin/sluice} gets it ({@code Main.main}'s raw stream). */
  private static byte[] query(String... args) {
    ByteArrayOutputStream raw = new ByteArrayOutputStream();
    StringWriter err = new StringWriter();
    StringWriter text = new StringWriter();
    int code = Main.execute(args, Optional.of(raw), new PrintWriter(text, true), new PrintWriter(err, true));
    assertEquals(0, code, err.toString());
    assertEquals("", text.toString(), "nothing else on standard output");
    return raw.toByteArray();
  }

  private static void assertGolden(String name, byte[] actual) throws IOException {
    byte[] expected;
    try (InputStream in = QueryOutputGoldenTest.class.getResourceAsStream("/query-golden/" + name)) {
      expected = in == null ? null : in.readAllBytes();
    }
    String a = new String(actual, StandardCharsets.UTF_8);
    if (expected == null || !java.util.Arrays.equals(expected, actual)) {
      Path out = Path.of("target", "query-golden-actual", name);
      Files.createDirectories(out.getParent());
      Files.write(out, actual);
      assertEquals(expected == null ? "(no expected file " + name + ")" : new String(expected, StandardCharsets.UTF_8),
          a, name + " (actual bytes in " + out.toAbsolutePath() + ")");
    }
  }

  @Test
  void mergeOnReadSnapshotWritesTheSameBytes() throws IOException {
    String t = table("mor");
    for (String threads : List.of("1", "2")) {
      assertGolden("mor.jsonl", query("query", t, "--format", "jsonl", "--conf", "sluice.read.parallelism=" + threads));
      assertGolden("mor.csv", query("query", t, "--format", "csv", "--conf", "sluice.read.parallelism=" + threads));
    }
    assertGolden("mor-columns.jsonl", query("query", t, "--format", "jsonl", "--columns", "s,d,items,id,at"));
    assertGolden("mor-columns.csv", query("query", t, "--format", "csv", "--columns", "big,addr,price,city"));
    assertGolden("mor-ro.jsonl", query("query", t, "--format", "jsonl", "--type", "read-optimized"));
    assertGolden("mor-where.csv", query("query", t, "--format", "csv", "--where", "ts = 2 and city <> 'c1'"));
  }

  @Test
  void copyOnWriteSnapshotWritesTheSameBytes() throws IOException {
    String t = table("cow");
    assertGolden("cow.jsonl", query("query", t, "--format", "jsonl"));
    assertGolden("cow.csv", query("query", t, "--format", "csv"));
    assertGolden("cow-columns.csv", query("query", t, "--format", "csv", "--columns", "id,tags,attrs,raw,day,t"));
  }
}
