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
