package dev.sluice.cli;

import static java.util.stream.Collectors.toSet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest {
  @TempDir
  Path dir;

  record Run(int exit, String out, String err) {
  }

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(code, out.toString(), err.toString());
  }

  private String table() {
    return dir.resolve("t").toString();
  }

  private Run create() {
    return run("create", table(), "--type", "cow", "--record-key", "id", "--precombine", "ts", "--partition-path", "city",
        "--columns", "id string, ts long, city string, fare double, tags array<string>", "--conf",
        "hoodie.index.bloom.num_entries=1000");
  }

  @Test
  void createInsertUpsertDeleteQuery() throws IOException {
    Run c = create();
    assertEquals(0, c.exit(), c.err());
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, """
        {"id": "a", "ts": 1, "city": "oslo", "fare": 10.5, "tags": ["x"]}
        {"id": "b", "ts": 1, "city": "lisbon", "fare": 3.0, "tags": []}
        {"id": "c", "ts": 1, "city": "oslo", "fare": 7.25, "tags": null}
        """);
    Run ins = run("insert", table(), in.toString());
    assertEquals(0, ins.exit(), ins.err());
    assertTrue(ins.out().contains("3 inserted"), ins.out());

    Path csv = dir.resolve("up.csv");
    Files.writeString(csv, "id,ts,city,fare,tags\na,2,oslo,11.0,\"[\"\"y\"\"]\"\nd,1,oslo,1.0,\n");
    Run up = run("upsert", table(), csv.toString());
    assertEquals(0, up.exit(), up.err());
    assertTrue(up.out().contains("1 inserted, 1 updated"), up.out());

    Path del = dir.resolve("del.jsonl");
    Files.writeString(del, "{\"id\": \"b\", \"city\": \"lisbon\"}\n");
    Run d = run("delete", table(), del.toString());
    assertEquals(0, d.exit(), d.err());
    assertTrue(d.out().contains("1 deleted"), d.out());

    Run q = run("query", table(), "--where", "city = 'oslo' and fare > 5", "--columns", "id,fare");
    assertEquals(0, q.exit(), q.err());
    List<String> lines = q.out().lines().sorted().toList();
    assertEquals(List.of("{\"id\":\"a\",\"fare\":11.0}", "{\"id\":\"c\",\"fare\":7.25}"), lines);

    Run tl = run("timeline", table());
    assertEquals(0, tl.exit(), tl.err());
    assertEquals(3, tl.out().lines().filter(l -> l.contains("completed")).count(), tl.out());

    Run f = run("files", table());
    assertEquals(0, f.exit(), f.err());
    assertTrue(f.out().contains("partition oslo") && f.out().contains(".parquet"), f.out());

    Run table = run("query", table(), "--format", "table", "--columns", "id,city");
    assertTrue(table.out().contains("oslo"), table.out());
  }

  @Test
  void createAtTableVersion9WritesALayout2Table() throws IOException {
    Run bad = run("create", table(), "--type", "mor", "--record-key", "id", "--columns", "id string",
        "--table-version", "7");
    // a bad option value is a bad request (exit 1) as for --type; exit 3 is for bad records
    assertEquals(1, bad.exit(), bad.err());
    assertTrue(bad.err().contains("Table version 7"), bad.err());
    Run c = run("create", table(), "--type", "mor", "--record-key", "id", "--precombine", "ts", "--partition-path",
        "city", "--columns", "id string, ts long, city string", "--table-version", "9");
    assertEquals(0, c.exit(), c.err());
    assertTrue(c.out().contains("(table version 9)"), c.out());
    String props = Files.readString(dir.resolve("t/.hoodie/hoodie.properties"));
    assertTrue(props.contains("hoodie.table.version=9") && props.contains("hoodie.table.ordering.fields=ts"), props);
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\": \"a\", \"ts\": 1, \"city\": \"oslo\"}\n");
    assertEquals(0, run("insert", table(), in.toString()).exit());
    Files.writeString(in, "{\"id\": \"a\", \"ts\": 2, \"city\": \"oslo\"}\n");
    Run up = run("upsert", table(), in.toString());
    assertEquals(0, up.exit(), up.err());
    try (var names = Files.list(dir.resolve("t/.hoodie/timeline"))) {
      assertEquals(2, names.filter(n -> n.getFileName().toString().matches("\\d{17}_\\d{17}\\.deltacommit")).count());
    }
    Run q = run("query", table(), "--columns", "id,ts");
    assertEquals(List.of("{\"id\":\"a\",\"ts\":2}"), q.out().lines().toList(), q.err());
    // compaction and clean run on version 9: the compaction completes as <t>_<completion>.commit
    Run scheduled = run("compact", table(), "--schedule", "--force");
    assertEquals(0, scheduled.exit(), scheduled.err());
    Run ran = run("compact", table(), "--run");
    assertEquals(0, ran.exit(), ran.err());
    try (var names = Files.list(dir.resolve("t/.hoodie/timeline"))) {
      assertEquals(1, names.filter(n -> n.getFileName().toString().matches("\\d{17}_\\d{17}\\.commit")).count());
    }
    Run clean = run("clean", table(), "--conf", "hoodie.cleaner.policy=KEEP_LATEST_FILE_VERSIONS", "--conf",
        "hoodie.cleaner.fileversions.retained=1");
    assertEquals(0, clean.exit(), clean.err());
    try (var names = Files.list(dir.resolve("t/.hoodie/timeline"))) {
      assertEquals(1, names.filter(n -> n.getFileName().toString().matches("\\d{17}_\\d{17}\\.clean")).count());
    }
    assertEquals(List.of("{\"id\":\"a\",\"ts\":2}"), run("query", table(), "--columns", "id,ts").out().lines()
        .toList());
  }

  @Test
  void mergeOnReadFilesLogsAndReadOptimized() throws IOException {
    Run c = run("create", table(), "--type", "mor", "--record-key", "id", "--precombine", "ts", "--partition-path", "city",
        "--columns", "id string, ts long, city string, fare double, tags array<string>", "--conf",
        "hoodie.index.bloom.num_entries=1000", "--conf", "hoodie.parquet.small.file.limit=0");
    assertEquals(0, c.exit(), c.err());
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, """
        {"id": "a", "ts": 1, "city": "oslo", "fare": 10.5, "tags": ["x"]}
        {"id": "b", "ts": 1, "city": "oslo", "fare": 3.0, "tags": []}
        """);
    assertEquals(0, run("insert", table(), in.toString()).exit());
    Path up = dir.resolve("up.jsonl");
    Files.writeString(up, "{\"id\": \"a\", \"ts\": 2, \"city\": \"oslo\", \"fare\": 99.0, \"tags\": [\"y\"]}\n");
    Run u = run("upsert", table(), up.toString(), "--conf", "hoodie.parquet.small.file.limit=0");
    assertEquals(0, u.exit(), u.err());
    Path del = dir.resolve("del.jsonl");
    Files.writeString(del, "{\"id\": \"b\", \"city\": \"oslo\"}\n");
    assertEquals(0, run("delete", table(), del.toString()).exit());

    Run f = run("files", table());
    assertEquals(0, f.exit(), f.err());
    List<String> logLines = f.out().lines().filter(l -> l.trim().startsWith("log ")).toList();
    assertEquals(2, logLines.size(), f.out());
    assertTrue(f.out().contains("AVRO_DATA_BLOCK") && f.out().contains("DELETE_BLOCK") && f.out().contains("1 record"), f.out());
    assertTrue(f.out().contains("2 log files"), f.out());
    String logName = logLines.get(0).trim().split("\\s+")[1];

    Run l = run("logs", table(), logName);
    assertEquals(0, l.exit(), l.err());
    assertTrue(l.out().contains("AVRO_DATA_BLOCK") && l.out().contains("INSTANT_TIME: ") && l.out().contains("SCHEMA: {"),
        l.out());
    assertTrue(l.out().contains("1 blocks"), l.out());
    assertTrue(l.out().lines().noneMatch(x -> x.startsWith("{")), "no records without --records");
    Run lr = run("logs", table(), "oslo/" + logName, "--records");
    assertEquals(0, lr.exit(), lr.err());
    List<String> json = lr.out().lines().filter(x -> x.startsWith("{")).toList();
    assertEquals(1, json.size(), lr.out());
    assertTrue(json.get(0).contains("\"_hoodie_record_key\":\"a\"") && json.get(0).contains("\"fare\":99.0"), json.get(0));
    String deleteLog = f.out().lines().filter(x -> x.trim().startsWith("log ")).toList().get(1).trim().split("\\s+")[1];
    Run ld = run("logs", table(), deleteLog, "--records");
    assertTrue(ld.out().contains("{\"recordKey\":\"b\",\"partitionPath\":\"oslo\",\"orderingValue\":0}"), ld.out());
    Run missing = run("logs", table(), ".nope_1.log.1_0-0-0");
    assertEquals(1, missing.exit());
    assertTrue(missing.err().contains("no such log file"), missing.err());

    Run snap = run("query", table(), "--columns", "id,fare");
    assertEquals(List.of("{\"id\":\"a\",\"fare\":99.0}"), snap.out().lines().toList());
    Run ro = run("query", table(), "--type", "read-optimized", "--columns", "id,fare");
    assertEquals(0, ro.exit(), ro.err());
    assertEquals(List.of("{\"id\":\"a\",\"fare\":10.5}", "{\"id\":\"b\",\"fare\":3.0}"), ro.out().lines().sorted().toList());

    Run tl = run("timeline", table());
    assertEquals(3, tl.out().lines().filter(x -> x.contains("deltacommit") && x.contains("completed")).count(), tl.out());
  }

  @Test
  void upsertCostComparesCopyOnWriteAndMergeOnRead() {
    Run r = run("upsert-cost", dir.resolve("cost").toString(), "--rows", "4000", "--file-groups", "8", "--updates", "20",
        "--rounds", "1");
    assertEquals(0, r.exit(), r.err() + r.out());
    java.util.Map<String, Long> bytes = new java.util.HashMap<>();
    for (String line : r.out().lines().toList()) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\s+(copy-on-write|merge-on-read)\\s+([\\d,]+) bytes written")
          .matcher(line);
      if (m.find()) {
        bytes.put(m.group(1), Long.parseLong(m.group(2).replace(",", "")));
      }
    }
    assertEquals(2, bytes.size(), r.out());
    assertTrue(bytes.get("merge-on-read") * 5 < bytes.get("copy-on-write"), r.out());
    assertTrue(r.out().contains("spread over 8 file groups"), r.out());
    assertEquals(1, run("upsert-cost", dir.resolve("bad").toString(), "--rows", "0").exit(), "a bad option is an error");
  }

  @Test
  void queryOutputFeedsBackIn() throws IOException {
    assertEquals(0, create().exit());
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\": \"a\", \"ts\": 1, \"city\": \"oslo\", \"fare\": 1.5, \"tags\": [\"q\", \"r\"]}\n");
    assertEquals(0, run("insert", table(), in.toString()).exit());
    Run q = run("query", table());
    Path again = dir.resolve("again.jsonl");
    Files.writeString(again, q.out().replace("\"ts\":1", "\"ts\":2"));
    Run up = run("upsert", table(), again.toString());
    assertEquals(0, up.exit(), up.err());
    assertTrue(up.out().contains("1 updated"), up.out());
  }

  @Test
  void badInputIsOneLineNamingFileLineAndFieldAndCommitsNothing() throws IOException {
    assertEquals(0, create().exit());
    Path in = dir.resolve("bad.jsonl");
    Files.writeString(in, "{\"id\": \"a\", \"ts\": 1, \"city\": \"oslo\", \"fare\": 1.0, \"tags\": []}\n"
        + "{\"id\": \"b\", \"ts\": \"soon\", \"city\": \"oslo\", \"fare\": 1.0, \"tags\": []}\n");
    Run r = run("insert", table(), in.toString());
    assertEquals(3, r.exit());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().startsWith("error: ") && r.err().contains("bad.jsonl:2") && r.err().contains("ts"), r.err());
    Run tl = run("timeline", table());
    assertEquals(1, tl.out().lines().count(), "header only: nothing was committed\n" + tl.out());
  }

  @Test
  void errorsAreOneLineAndVerboseAddsTheStack() {
    Run r = run("query", dir.resolve("missing").toString());
    assertEquals(1, r.exit());
    assertEquals(1, r.err().lines().count(), r.err());
    Run v = run("query", dir.resolve("missing").toString(), "--verbose");
    assertTrue(v.err().lines().count() > 3, v.err());
  }

  @Test
  void demoBuildsTablesAndExplains() throws IOException {
    Run r = run("demo", dir.resolve("demo").toString());
    assertEquals(0, r.exit(), r.err() + r.out());
    String out = r.out();
    assertTrue(out.contains("rows now: 3050"), out);
    assertTrue(Files.exists(dir.resolve("demo/trips_cow/.hoodie/hoodie.properties")));

    // the narration's figures are the write's own counts and account for every changed trip
    Matcher told = Pattern.compile("300 changed trips: (\\d+) updated, (\\d+) older than the stored version and "
        + "ignored \\(ordering field ts\\), (\\d+) a second version of a trip picked twice in the batch").matcher(out);
    assertTrue(told.find(), out);
    int cowUpdated = Integer.parseInt(told.group(1));
    int older = Integer.parseInt(told.group(2));
    int combined = Integer.parseInt(told.group(3));
    assertEquals(300, cowUpdated + older + combined, out);
    assertTrue(older > 0 && older <= 20 && combined > 0, out);
    assertTrue(out.contains(older + " ignored: older than the stored version (ordering field ts)"), out);

    // Merge-on-Read: the upsert and the delete went to log files (one data and one delete block per file group)
    Path mor = dir.resolve("demo/trips_mor");
    List<Path> logs;
    try (Stream<Path> s = Files.walk(mor)) {
      // the data table's log files (the metadata table under .hoodie/ has its own)
      logs = s.filter(p -> !mor.relativize(p).startsWith(".hoodie"))
          .filter(p -> p.getFileName().toString().matches("\\..*\\.log\\.\\d+_.*")).toList();
    }
    assertEquals(6, logs.size(), logs.toString());
    assertEquals(6, out.lines().filter(l -> l.startsWith("  logged ")).count(), out);

    // before compaction the two views differ: the read-optimized one misses the updates and the deletes
    long[] snapshot = numbers(out, "snapshot \\(base files merged with the logs\\): (\\d+) rows, (\\d+) with ts >= 2000");
    long[] readOptimized = numbers(out, "read-optimized \\(base files only\\): (\\d+) rows, (\\d+) with ts >= 2000");
    assertEquals(List.of(2970L, 300L), List.of(snapshot[0], snapshot[1]));
    assertEquals(List.of(3000L, 0L), List.of(readOptimized[0], readOptimized[1]));
    assertTrue(numbers(out, "read amplification (\\d+)\\.\\d+\\)")[0] >= 1 && out.contains("MERGE_ON_READ table"), out);

    // after compaction they agree, and the table's own queries say so too
    long[] after = numbers(out, "after compaction: snapshot (\\d+) rows, (\\d+) with ts >= 2000; read-optimized (\\d+) rows, "
        + "(\\d+) with ts >= 2000");
    assertEquals(List.of(2970L, 300L, 2970L, 300L), List.of(after[0], after[1], after[2], after[3]));
    Run ro = run("query", mor.toString(), "--type", "read-optimized", "--where", "ts >= 2000");
    assertEquals(0, ro.exit(), ro.err());
    assertEquals(300, ro.out().lines().count());
    Run stats = run("stats", mor.toString());
    assertTrue(stats.out().contains("read amplification 1.00"), stats.out());

    // the demo's tables are of the default version 9: the incremental query from the insert's completion returns
    // exactly the updated trips; deleted keys are absent there (Hudi 1.x's rule) and --include-deletes is refused
    assertTrue(out.contains("(Hudi table version 9, the default)"), out);
    assertTrue(Files.readString(mor.resolve(".hoodie/hoodie.properties")).contains("hoodie.table.version=9"));
    String insert = numberText(out, "incremental from (\\d{17}): (\\d+) rows");
    Set<String> updated = IntStream.range(0, 300).mapToObj(i -> String.format("trip-%05d", i * 10)).collect(toSet());
    Run inc = run("query", mor.toString(), "--type", "incremental", "--from", insert, "--columns", "trip_id");
    assertEquals(0, inc.exit(), inc.err());
    assertEquals(updated, tripIds(inc.out(), l -> true));
    assertEquals(300, inc.out().lines().count());
    Run withDeletes = run("query", mor.toString(), "--type", "incremental", "--from", insert, "--include-deletes",
        "--columns", "trip_id");
    assertTrue(withDeletes.exit() != 0 && withDeletes.err().contains("version 9"), withDeletes.err());
    assertTrue(out.contains(": 300 rows, the trips updated after it"), out);
  }

  private static long[] numbers(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertTrue(m.find(), regex + " not in:\n" + text);
    long[] n = new long[m.groupCount()];
    for (int i = 0; i < n.length; i++) {
      n[i] = Long.parseLong(m.group(i + 1));
    }
    return n;
  }

  private static String numberText(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertTrue(m.find(), regex + " not in:\n" + text);
    return m.group(1);
  }

  private static Set<String> tripIds(String jsonLines, Predicate<String> keep) {
    Matcher m = Pattern.compile("\"trip_id\":\"(trip-\\d+)\"").matcher("");
    return jsonLines.lines().filter(keep).map(l -> {
      assertTrue(m.reset(l).find(), l);
      return m.group(1);
    }).collect(toSet());
  }
}
