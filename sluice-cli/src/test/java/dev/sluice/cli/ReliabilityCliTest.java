package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.commit.IOType;
import dev.sluice.internal.commit.Markers;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReliabilityCliTest {
  @TempDir
  Path dir;

  private String table() {
    return dir.resolve("t").toString();
  }

  private void createAndInsert() throws IOException {
    CliTest.Run c = CliTest.run("create", table(), "--type", "cow", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double");
    assertEquals(0, c.exit(), c.err());
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, "{\"id\": \"a\", \"ts\": 1, \"city\": \"oslo\", \"fare\": 1.5}\n"
        + "{\"id\": \"b\", \"ts\": 1, \"city\": \"rome\", \"fare\": 2.5}\n");
    CliTest.Run ins = CliTest.run("insert", table(), in.toString());
    assertEquals(0, ins.exit(), ins.err());
  }

  /** What a writer that was killed after writing one base file leaves: its instant, marker and file. */
  private String deadWriter() throws IOException {
    LocalStorage storage = new LocalStorage();
    TimelineStore store = new TimelineStore(storage, table());
    String ts = "20991231235959000";
    Instant req = Instant.requested(ts, Action.COMMIT);
    store.createRequested(req, new byte[0]);
    store.transitionToInflight(req, new byte[0]);
    String file = "f0-0_0-0-0_" + ts + ".parquet";
    new Markers(storage, table(), ts).create("oslo", file, IOType.CREATE);
    Files.writeString(dir.resolve("t/oslo/" + file), "PAR1 half written");
    return ts;
  }

  @Test
  void rollbackSavepointRestoreAndTheTimelineShowingThem() throws IOException {
    createAndInsert();
    CliTest.Run none = CliTest.run("rollback", table());
    assertEquals(0, none.exit(), none.err());
    assertTrue(none.out().contains("No failed writes"), none.out());

    String failed = deadWriter();
    CliTest.Run rb = CliTest.run("rollback", table());
    assertEquals(0, rb.exit(), rb.err());
    assertTrue(rb.out().contains("Rolled back " + failed + " (commit)") && rb.out().contains("1 files deleted"), rb.out());
    assertFalse(Files.exists(dir.resolve("t/oslo/f0-0_0-0-0_" + failed + ".parquet")));
    CliTest.Run tl = CliTest.run("timeline", table());
    assertEquals(0, tl.exit(), tl.err());
    assertTrue(tl.out().contains("rollback") && tl.out().contains("rolled back " + failed), tl.out());

    CliTest.Run sp = CliTest.run("savepoint", table(), "--comment", "before the big change");
    assertEquals(0, sp.exit(), sp.err());
    assertTrue(sp.out().contains("Savepointed the latest commit"), sp.out());
    String savepoint = sp.out().replaceAll("(?s).*latest commit (\\d+).*", "$1");
    Path more = dir.resolve("more.jsonl");
    Files.writeString(more, "{\"id\": \"c\", \"ts\": 2, \"city\": \"oslo\", \"fare\": 9.0}\n");
    assertEquals(0, CliTest.run("upsert", table(), more.toString()).exit());
    CliTest.Run q1 = CliTest.run("query", table(), "--format", "csv");
    assertTrue(q1.out().contains("c,"), q1.out());

    CliTest.Run restore = CliTest.run("restore", table(), savepoint);
    assertEquals(0, restore.exit(), restore.err());
    assertTrue(restore.out().contains("1 instants rolled back"), restore.out());
    CliTest.Run q2 = CliTest.run("query", table(), "--format", "csv");
    assertFalse(q2.out().contains("c,"), q2.out());
    assertTrue(q2.out().contains("a,") && q2.out().contains("b,"), q2.out());

    CliTest.Run bad = CliTest.run("restore", table(), "20000101000000000");
    assertEquals(1, bad.exit());
    assertTrue(bad.err().startsWith("error: ") && bad.err().contains("no savepoint"), bad.err());
    CliTest.Run del = CliTest.run("savepoint", table(), savepoint, "--delete");
    assertEquals(0, del.exit(), del.err());
    CliTest.Run rbLatest = CliTest.run("rollback", table(), savepoint);
    assertEquals(0, rbLatest.exit(), rbLatest.err());
    CliTest.Run q3 = CliTest.run("query", table(), "--format", "csv");
    assertFalse(q3.out().contains("a,"), "the only commit was rolled back: " + q3.out());
  }
}
