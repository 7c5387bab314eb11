package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The honest outcomes of {@code sluice} writes and {@code compact --schedule}, each message on its case: versions
 * older than the stored one, duplicates combined, keys not found, a delete by key alone on a partitioned table, an
 * empty input, a bulk insert into a table with commits, why no compaction was scheduled.
 */
class WriteOutcomeCliTest {
  @TempDir
  Path dir;

  private String table() {
    return dir.resolve("t").toString();
  }

  private void create(String type, String... conf) {
    List<String> args = new java.util.ArrayList<>(List.of("create", table(), "--type", type, "--record-key", "id",
        "--precombine", "ts", "--partition-path", "city", "--columns", "id string, ts long, city string, fare double",
        "--conf", "hoodie.index.bloom.num_entries=1000"));
    for (String c : conf) {
      args.add("--conf");
      args.add(c);
    }
    CliTest.Run c = CliTest.run(args.toArray(String[]::new));
    assertEquals(0, c.exit(), c.err());
  }

  private CliTest.Run write(String op, String jsonl, String... extra) throws IOException {
    Path in = Files.createTempFile(dir, op, ".jsonl");
    Files.writeString(in, jsonl);
    List<String> args = new java.util.ArrayList<>(List.of(op, table(), in.toString()));
    args.addAll(List.of(extra));
    return CliTest.run(args.toArray(String[]::new));
  }

  private void insertThree() throws IOException {
    CliTest.Run w = write("insert", """
        {"id": "a", "ts": 5, "city": "oslo", "fare": 1.0}
        {"id": "b", "ts": 5, "city": "lisbon", "fare": 1.0}
        {"id": "c", "ts": 5, "city": "oslo", "fare": 1.0}
        """);
    assertEquals(0, w.exit(), w.err());
  }

  private List<String> instants() throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("t/.hoodie"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d{17}.*")).sorted().toList();
    }
  }

  @Test
  void upsertSaysWhatWasOlderThanStoredAndWhatWasCombined() throws IOException {
    create("cow");
    insertThree();
    CliTest.Run up = write("upsert", """
        {"id": "a", "ts": 1, "city": "oslo", "fare": 2.0}
        {"id": "b", "ts": 6, "city": "lisbon", "fare": 2.0}
        {"id": "b", "ts": 7, "city": "lisbon", "fare": 3.0}
        """);
    assertEquals(0, up.exit(), up.err());
    assertTrue(up.out().contains("0 inserted, 1 updated, 0 deleted"), up.out());
    assertTrue(up.out().contains("  1 ignored: older than the stored version (ordering field ts)"), up.out());
    assertTrue(up.out().contains("  1 combined: another version of a key in the same input, collapsed into one "
        + "version per key before writing (the larger ts wins)"), up.out());
    CliTest.Run q = CliTest.run("query", table(), "--where", "id = 'a'", "--columns", "ts");
    assertEquals("{\"ts\":5}", q.out().trim(), "the stored version stayed");
  }

  @Test
  void mergeOnReadUpsertSaysTheLogIsWeighedWhenRead() throws IOException {
    create("mor", "hoodie.parquet.small.file.limit=0");
    insertThree();
    CliTest.Run up = write("upsert", "{\"id\": \"a\", \"ts\": 1, \"city\": \"oslo\", \"fare\": 2.0}\n");
    assertEquals(0, up.exit(), up.err());
    assertTrue(up.out().contains("1 update appended to log files: weighed against the stored version (ordering field "
        + "ts) when read or compacted"), up.out());
    assertFalse(up.out().contains("1 ignored"), up.out());
  }

  @Test
  void deleteSaysHowManyKeysWereNotFound() throws IOException {
    create("cow");
    insertThree();
    CliTest.Run d = write("delete", """
        {"id": "a", "city": "oslo"}
        {"id": "x", "city": "oslo"}
        {"id": "b", "city": "oslo"}
        """);
    assertEquals(0, d.exit(), d.err());
    assertTrue(d.out().contains("1 deleted"), d.out());
    assertTrue(d.out().contains("  2 keys not found: nothing to delete"), d.out());
  }

  @Test
  void deleteByKeyAloneOnAPartitionedTableNamesThePartitionField() throws IOException {
    create("cow");
    insertThree();
    List<String> before = instants();
    CliTest.Run d = write("delete", "{\"id\": \"a\"}\n{\"id\": \"b\"}\n");
    assertEquals(3, d.exit(), d.out() + d.err());
    assertTrue(d.err().startsWith("error: Bad input at the delete rows of ") && d.err().contains("field 'city': none "
        + "of the 2 rows has a value for it") && d.err().contains("hoodie.index.type=GLOBAL_BLOOM"), d.err());
    assertEquals(before, instants(), "the table as it was");

    CliTest.Run mixed = write("delete", "{\"id\": \"a\", \"city\": \"oslo\"}\n{\"id\": \"b\"}\n");
    assertEquals(0, mixed.exit(), mixed.err());
    assertTrue(mixed.out().contains("1 deleted") && mixed.out().contains("1 key not found"), mixed.out());
    assertTrue(mixed.err().startsWith("warning: 1 delete row has no partition path value"), mixed.err());
  }

  @Test
  void anEmptyInputCommitsNothingAndSaysSo() throws IOException {
    create("cow");
    insertThree();
    List<String> before = instants();
    for (String op : List.of("insert", "upsert", "delete", "bulk-insert")) {
      CliTest.Run w = write(op, "");
      assertEquals(0, w.exit(), w.err());
      assertEquals("no records in input; nothing committed", w.out().trim(), op);
    }
    assertEquals(before, instants());
  }

  @Test
  void bulkInsertWarnsOnlyWhenTheTableHasCommits() throws IOException {
    create("cow");
    CliTest.Run first = write("bulk-insert", "{\"id\": \"a\", \"ts\": 5, \"city\": \"oslo\", \"fare\": 1.0}\n");
    assertEquals(0, first.exit(), first.err());
    assertEquals("", first.err(), "an empty table: nothing to duplicate");
    CliTest.Run again = write("bulk-insert", "{\"id\": \"a\", \"ts\": 6, \"city\": \"oslo\", \"fare\": 1.0}\n");
    assertEquals(0, again.exit(), again.err());
    assertTrue(again.err().startsWith("warning: bulk-insert does not look up existing keys"), again.err());
    CliTest.Run q = CliTest.run("query", table(), "--where", "id = 'a'", "--columns", "ts");
    assertEquals(2, q.out().lines().count(), "the warning is true: the key is there twice\n" + q.out());
  }

  @Test
  void compactScheduleSaysWhyNothingWasScheduled() throws IOException {
    create("mor", "hoodie.parquet.small.file.limit=0");
    insertThree();
    CliTest.Run noLogs = CliTest.run("compact", table(), "--schedule", "--conf",
        "hoodie.compact.inline.max.delta.commits=1");
    assertEquals(0, noLogs.exit(), noLogs.err());
    assertEquals("no compaction scheduled: nothing to compact: no file slice has log files", noLogs.out().trim());

    assertEquals(0, write("upsert", "{\"id\": \"a\", \"ts\": 6, \"city\": \"oslo\", \"fare\": 2.0}\n").exit());
    CliTest.Run notDue = CliTest.run("compact", table(), "--schedule");
    assertEquals(0, notDue.exit(), notDue.err());
    assertTrue(notDue.out().startsWith("no compaction scheduled: the trigger is not reached: 2 of 5 delta commits "
        + "since the first delta commit"), notDue.out());
    assertTrue(notDue.out().contains("hoodie.compact.inline.max.delta.commits=5")
        && notDue.out().contains("(--force ignores the trigger)"), notDue.out());
    CliTest.Run due = CliTest.run("compact", table(), "--schedule", "--conf", "hoodie.compact.inline.max.delta.commits=2");
    assertTrue(due.out().startsWith("scheduled compaction "), due.out());
  }
}
