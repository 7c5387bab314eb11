package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice sql} and {@code sluice export} against {@code sluice query} on one Merge-on-Read table written by the
 * CLI (updates in log files, a delete): every SQL result is compared with the same figure computed from the rows
 * {@code sluice query} prints.
 */
class SqlCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern COMMITTED = Pattern.compile("Committed \\w+ (\\d+):");

  @TempDir
  Path dir;

  private String table;
  private final List<String> instants = new ArrayList<>();

  @BeforeEach
  void writeTable() throws IOException {
    table = dir.resolve("trips").toString();
    CliTest.Run c = CliTest.run("create", table, "--type", "mor", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double");
    assertEquals(0, c.exit(), c.err());
    StringBuilder first = new StringBuilder();
    StringBuilder second = new StringBuilder();
    StringBuilder deleted = new StringBuilder();
    String[] cities = {"ams", "ber", "cph"};
    for (int i = 0; i < 120; i++) {
      String row = "{\"id\":\"k" + i + "\",\"ts\":%d,\"city\":\"" + cities[i % 3] + "\",\"fare\":%s}\n";
      first.append(String.format(row, 1, Double.toString(i * 0.25)));
      if (i % 4 == 0) {
        second.append(String.format(row, 2, Double.toString(i * 0.5 + 1)));
      }
      if (i % 10 == 1) {
        deleted.append("{\"id\":\"k").append(i).append("\",\"city\":\"").append(cities[i % 3]).append("\"}\n");
      }
    }
    write("insert", first.toString());
    write("upsert", second.toString());
    write("delete", deleted.toString());
  }

  private void write(String verb, String rows) throws IOException {
    Path in = dir.resolve(verb + ".jsonl");
    Files.writeString(in, rows);
    CliTest.Run r = CliTest.run(verb, table, in.toString());
    assertEquals(0, r.exit(), r.err());
    Matcher m = COMMITTED.matcher(r.out());
    assertTrue(m.find(), r.out());
    instants.add(m.group(1));
  }

  /** JSON Lines as id -> row, sorted. */
  private static Map<String, JsonNode> byId(String jsonl) {
    Map<String, JsonNode> out = new TreeMap<>();
    jsonl.lines().filter(l -> !l.isBlank()).forEach(l -> {
      try {
        JsonNode n = JSON.readTree(l);
        out.put(n.get("id").asText(), n);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    return out;
  }

  private static CliTest.Run ok(String... args) {
    CliTest.Run r = CliTest.run(args);
    assertEquals(0, r.exit(), String.join(" ", args) + ": " + r.err());
    return r;
  }

  private Map<String, JsonNode> query(String... extra) {
    List<String> args = new ArrayList<>(List.of("query", table, "--columns", "id,ts,city,fare", "--format", "jsonl"));
    args.addAll(List.of(extra));
    return byId(ok(args.toArray(String[]::new)).out());
  }

  private Map<String, JsonNode> sql(String query, String... extra) {
    List<String> args = new ArrayList<>(List.of("sql", query, "--table", "trips=" + table, "--format", "jsonl"));
    args.addAll(List.of(extra));
    return byId(ok(args.toArray(String[]::new)).out());
  }

  @Test
  void sqlRowsEqualQueryRowsForEveryView() {
    Map<String, JsonNode> snapshot = query();
    assertEquals(snapshot, sql("SELECT id, ts, city, fare FROM trips"));
    assertEquals(snapshot, sql("SELECT id, ts, city, fare FROM trips_rt"));
    Map<String, JsonNode> ro = query("--type", "read-optimized");
    assertEquals(ro, sql("SELECT id, ts, city, fare FROM trips_ro"));
    // the updates and the delete are only in log files: the read-optimized view shows the rows as first written
    assertNotEquals(snapshot, ro);
    Map<String, JsonNode> asOf = query("--as-of", instants.get(0));
    assertEquals(asOf, sql("SELECT id, ts, city, fare FROM trips", "--as-of", instants.get(0)));
    // one table's own instant (ALIAS=PATH@INSTANT) beside the same table's latest state, and over --as-of
    assertEquals(asOf, byId(ok("sql", "SELECT p.id, p.ts, p.city, p.fare FROM past p LEFT JOIN trips t USING (id)",
        "--table", "past=" + table + "@" + instants.get(0), "--table", "trips=" + table, "--format", "jsonl").out()));
    assertEquals(snapshot, byId(ok("sql", "SELECT id, ts, city, fare FROM now", "--table", "now=" + table + "@"
        + instants.get(instants.size() - 1), "--as-of", instants.get(0), "--format", "jsonl").out()));
    Map<String, JsonNode> incr = query("--type", "incremental", "--from", instants.get(0));
    assertEquals(incr, sql("SELECT id, ts, city, fare FROM trips_incr", "--from", instants.get(0)));
  }

  @Test
  void anAggregateEqualsTheSameFigureOverQueryRows() {
    Map<String, long[]> expected = new TreeMap<>();
    for (JsonNode r : query().values()) {
      long[] a = expected.computeIfAbsent(r.get("city").asText(), k -> new long[2]);
      a[0]++;
      a[1] = Math.max(a[1], r.get("ts").asLong());
    }
    CliTest.Run r = ok("sql", "SELECT city, count(*) AS n, max(ts) AS m FROM trips GROUP BY city ORDER BY city",
        "--table", "trips=" + table, "--format", "csv");
    StringBuilder csv = new StringBuilder("city,n,m\n");
    expected.forEach((city, a) -> csv.append(city).append(',').append(a[0]).append(',').append(a[1]).append('\n'));
    assertEquals(csv.toString(), r.out());
  }

  @Test
  void exportedFilesHoldTheQueryRows() throws IOException {
    Map<String, JsonNode> snapshot = query();
    Path out = dir.resolve("out");
    CliTest.Run e = ok("export", table, "--format", "parquet", out.toString());
    Path parquet = out.resolve("trips.parquet");
    assertEquals("exported " + snapshot.size() + " rows to " + parquet.toAbsolutePath() + "\n", e.out());
    // read back by DuckDB as a plain Parquet file
    assertEquals(snapshot, sql("SELECT id, ts, city, fare FROM read_parquet('" + parquet + "')"));
    CliTest.Run ro = ok("export", table, "--format", "arrow", "--type", "read-optimized", out.toString());
    assertTrue(ro.out().contains("trips_ro.arrow"), ro.out());
    assertTrue(Files.size(out.resolve("trips_ro.arrow")) > 0);
    // a query's rows into a file
    Path cph = dir.resolve("cph.parquet");
    ok("sql", "SELECT id, ts, city, fare FROM trips WHERE city = 'cph'", "--table", "trips=" + table, "--output",
        cph.toString());
    Map<String, JsonNode> expected = new TreeMap<>(snapshot);
    expected.values().removeIf(n -> !n.get("city").asText().equals("cph"));
    assertEquals(expected, sql("SELECT * FROM '" + cph + "'"));
  }

  @Test
  void withoutAQueryStatementsComeFromStandardInput() {
    InputStream saved = SqlCommand.stdin;
    try {
      SqlCommand.stdin = new ByteArrayInputStream(("SELECT count(*) AS n\nFROM trips;\nSELECT * FROM nowhere;\n"
          + "SELECT count(*) AS n FROM trips_ro;\n").getBytes(StandardCharsets.UTF_8));
      CliTest.Run r = CliTest.run("sql", "--table", "trips=" + table, "--format", "csv");
      assertEquals(3, r.exit(), "a failed statement makes the exit code 3: " + r.err());
      int ro = query("--type", "read-optimized").size();
      assertEquals("n\n" + query().size() + "\nn\n" + ro + "\n", r.out());
      assertTrue(r.err().contains("nowhere") && r.err().contains("trips_ro"), r.err());
    } finally {
      SqlCommand.stdin = saved;
    }
  }

  @Test
  void inputErrorsExitThreeWithAClearMessage() {
    CliTest.Run unknown = CliTest.run("sql", "SELECT * FROM trip", "--table", "trips=" + table);
    assertEquals(3, unknown.exit());
    assertTrue(unknown.err().contains("no table or view named trip") && unknown.err().contains("trips_rt"),
        unknown.err());
    CliTest.Run bad = CliTest.run("sql", "SELEC city FROM trips", "--table", "trips=" + table);
    assertEquals(3, bad.exit());
    assertTrue(bad.err().contains("SELEC city FROM trips") && bad.err().contains("syntax error"), bad.err());
    CliTest.Run syntax = CliTest.run("sql", "SELECT 1", "--table", table);
    assertEquals(3, syntax.exit());
    assertTrue(syntax.err().contains("ALIAS=PATH"), syntax.err());
    CliTest.Run format = CliTest.run("sql", "SELECT 1", "--table", "t=" + table, "--output", dir.resolve("x.txt").toString());
    assertEquals(3, format.exit());
    assertTrue(format.err().contains(".parquet or .arrow"), format.err());
  }
}
