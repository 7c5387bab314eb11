package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice compact}: list, schedule, run, watch. */
class CompactCliTest {
  private static final String NO_SMALL_FILES = "hoodie.parquet.small.file.limit=0";

  @TempDir
  Path dir;

  private String table() {
    return dir.resolve("t").toString();
  }

  private static CliTest.Run run(String... args) {
    return CliTest.run(args);
  }

  private void write(String op, String name, String jsonl) throws IOException {
    Path in = dir.resolve(name);
    Files.writeString(in, jsonl);
    CliTest.Run w = run(op, table(), in.toString(), "--conf", NO_SMALL_FILES);
    assertEquals(0, w.exit(), w.err());
  }

  private String query(String type) {
    CliTest.Run q = run("query", table(), "--type", type, "--format", "jsonl");
    assertEquals(0, q.exit(), q.err());
    return q.out();
  }

  @Test
  void listScheduleRunAndWatch() throws IOException {
    CliTest.Run c = run("create", table(), "--type", "mor", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double", "--conf",
        "hoodie.index.bloom.num_entries=1000");
    assertEquals(0, c.exit(), c.err());
    write("insert", "a.jsonl", """
        {"id": "a", "ts": 1, "city": "oslo", "fare": 1.0}
        {"id": "b", "ts": 1, "city": "oslo", "fare": 2.0}
        {"id": "c", "ts": 1, "city": "oslo", "fare": 3.0}
        """);
    write("upsert", "b.jsonl", "{\"id\": \"a\", \"ts\": 2, \"city\": \"oslo\", \"fare\": 10.0}\n");
    write("delete", "c.jsonl", "{\"id\": \"b\", \"city\": \"oslo\"}\n");

    assertEquals("no pending compaction", run("compact", table()).out().trim());
    CliTest.Run notDue = run("compact", table(), "--schedule");
    assertEquals(0, notDue.exit(), notDue.err());
    // three delta commits of the default five: the scheduler's own reason, with its figures
    assertTrue(notDue.out().startsWith("no compaction scheduled: the trigger is not reached: 3 of 5 delta commits"),
        notDue.out());

    CliTest.Run sched = run("compact", table(), "--schedule", "--force");
    assertEquals(0, sched.exit(), sched.err());
    assertTrue(sched.out().matches("scheduled compaction \\d{17}: 1 file groups\\R"), sched.out());
    String instant = sched.out().substring("scheduled compaction ".length(), "scheduled compaction ".length() + 17);
    CliTest.Run list = run("compact", table());
    assertTrue(list.out().matches(instant + "  requested  1 file groups, 2 log files\\R"), list.out());

    String snapshot = query("snapshot");
    assertNotEquals(snapshot, query("read-optimized"));
    CliTest.Run ran = run("compact", table(), "--run");
    assertEquals(0, ran.exit(), ran.err());
    assertEquals("compaction " + instant + ": 1 base files written, 2 records, 2 log files compacted",
        ran.out().trim());
    assertEquals(snapshot, query("snapshot"));
    assertEquals(snapshot, query("read-optimized"));
    CliTest.Run timeline = run("timeline", table());
    assertTrue(timeline.out().contains(instant), timeline.out());

    CliTest.Run again = run("compact", table(), "--run", instant);
    assertEquals(1, again.exit());
    assertTrue(again.err().startsWith("error: "), again.err());

    write("upsert", "d.jsonl", "{\"id\": \"c\", \"ts\": 5, \"city\": \"oslo\", \"fare\": 30.0}\n");
    CliTest.Run watch = run("compact", table(), "--watch", "--interval", "1", "--rounds", "1", "--schedule-too",
        "--conf", "hoodie.compact.inline.max.delta.commits=1");
    assertEquals(0, watch.exit(), watch.err());
    assertTrue(watch.out().contains("watching "), watch.out());
    assertTrue(watch.out().matches("(?s).*compaction \\d{17}: 1 base files written, 2 records, 1 log files "
        + "compacted\\R"), watch.out());
    assertEquals(query("snapshot"), query("read-optimized"));
    assertEquals("no pending compaction", run("compact", table()).out().trim());
  }

  @Test
  void copyOnWriteTablesHaveNothingToCompact() {
    CliTest.Run c = run("create", table(), "--type", "cow", "--record-key", "id", "--precombine", "ts",
        "--columns", "id string, ts long");
    assertEquals(0, c.exit(), c.err());
    CliTest.Run s = run("compact", table(), "--schedule", "--force");
    assertEquals(1, s.exit());
    assertTrue(s.err().contains("Copy-on-Write"), s.err());
  }
}
