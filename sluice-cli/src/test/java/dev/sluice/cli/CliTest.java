package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
  void demoBuildsTablesAndExplains() {
    Run r = run("demo", dir.resolve("demo").toString());
    assertEquals(0, r.exit(), r.err() + r.out());
    assertTrue(r.out().contains("rows now: 3050"), r.out());
    assertTrue(Files.exists(dir.resolve("demo/trips_cow/.hoodie/hoodie.properties")));
  }
}
