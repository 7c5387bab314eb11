package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice clean}, {@code sluice archive} and {@code sluice timeline --archived}. */
class CleanArchiveCliTest {
  @TempDir
  Path dir;

  private String table() {
    return dir.resolve("t").toString();
  }

  private static CliTest.Run run(String... args) {
    return CliTest.run(args);
  }

  private long parquetFiles() throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("t").resolve("oslo"))) {
      return s.filter(p -> p.getFileName().toString().endsWith(".parquet")).count();
    }
  }

  /** Version 6's archive ({@code .hoodie/archived}); {@link #archiveSavepointAndRestoreAVersion9Table} has 9's. */
  @Test
  void cleanThenArchiveThenListTheArchivedTimeline() throws IOException {
    CliTest.Run c = run("create", table(), "--type", "cow", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double", "--conf",
        "hoodie.index.bloom.num_entries=1000", "--table-version", "6");
    assertEquals(0, c.exit(), c.err());
    List<String> commits = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Path in = dir.resolve("in" + i + ".jsonl");
      Files.writeString(in, "{\"id\": \"a\", \"ts\": " + i + ", \"city\": \"oslo\", \"fare\": " + i + ".5}\n");
      // the metadata table (on by default) compacts every 2 delta commits: the data table's archival never passes
      // its latest compaction (Hudi's rule), so with the default of 10 nothing could be archived here
      CliTest.Run w = run("upsert", table(), in.toString(), "--conf", "hoodie.clean.automatic=false", "--conf",
          "hoodie.archive.automatic=false", "--conf", "hoodie.metadata.compact.max.delta.commits=2");
      assertEquals(0, w.exit(), w.err());
    }
    assertEquals(6, parquetFiles());
    CliTest.Run dry = run("clean", table(), "--dry-run", "--conf", "hoodie.cleaner.commits.retained=2");
    assertEquals(0, dry.exit(), dry.err());
    assertTrue(dry.out().contains("3 files to delete"), dry.out());
    assertEquals(6, parquetFiles(), "a dry run deletes nothing");

    CliTest.Run clean = run("clean", table(), "--conf", "hoodie.cleaner.commits.retained=2");
    assertEquals(0, clean.exit(), clean.err());
    assertTrue(clean.out().matches("(?s)clean \\d{17}: 3 files deleted, 0 not deleted, earliest commit retained \\d{17}\\R"),
        clean.out());
    assertEquals(3, parquetFiles());
    assertEquals("nothing to clean", run("clean", table(), "--conf", "hoodie.cleaner.commits.retained=2").out().trim());

    String[] archival = {"--conf", "hoodie.cleaner.commits.retained=1", "--conf", "hoodie.keep.min.commits=2",
        "--conf", "hoodie.keep.max.commits=3"};
    CliTest.Run a = run(concat(new String[] {"archive", table()}, archival));
    assertEquals(0, a.exit(), a.err());
    assertTrue(a.out().startsWith("4 instants archived (12 timeline files)"), a.out());

    CliTest.Run active = run("timeline", table());
    assertEquals(2, active.out().lines().filter(l -> l.contains(" commit ")).count(), active.out());
    CliTest.Run all = run("timeline", table(), "--archived");
    assertEquals(0, all.exit(), all.err());
    assertEquals(4, all.out().lines().filter(l -> l.endsWith("archived")).count(), all.out());
    assertTrue(all.out().lines().filter(l -> l.endsWith("archived")).allMatch(l -> l.contains("completed")
        && l.contains("UPSERT")), all.out());
    assertEquals(3, all.out().lines().filter(l -> l.endsWith("active")).count(), all.out());

    CliTest.Run q = run("query", table(), "--columns", "id,fare");
    assertEquals("{\"id\":\"a\",\"fare\":5.5}", q.out().trim());
  }

  @Test
  void archiveSavepointAndRestoreAVersion9Table() throws IOException {
    CliTest.Run c = run("create", table(), "--type", "mor", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double", "--table-version", "9");
    assertEquals(0, c.exit(), c.err());
    for (int i = 0; i < 6; i++) {
      Path in = dir.resolve("in" + i + ".jsonl");
      Files.writeString(in, "{\"id\": \"a\", \"ts\": " + i + ", \"city\": \"oslo\", \"fare\": " + i + ".5}\n");
      // no metadata table: its archival gate would hold the archival back until its first compaction
      CliTest.Run w = run("upsert", table(), in.toString(), "--conf", "hoodie.archive.automatic=false", "--conf",
          "hoodie.metadata.enable=false");
      assertEquals(0, w.exit(), w.err());
    }
    String[] archival = {"--conf", "hoodie.cleaner.commits.retained=1", "--conf", "hoodie.keep.min.commits=2",
        "--conf", "hoodie.keep.max.commits=3", "--conf", "hoodie.compact.inline.max.delta.commits=1"};
    CliTest.Run dry = run(concat(new String[] {"archive", table(), "--dry-run"}, archival));
    assertEquals(0, dry.exit(), dry.err());
    CliTest.Run a = run(concat(new String[] {"archive", table()}, archival));
    assertEquals(0, a.exit(), a.err());
    assertTrue(a.out().startsWith("4 instants archived (12 timeline files)"), a.out());
    CliTest.Run all = run("timeline", table(), "--archived");
    assertEquals(0, all.exit(), all.err());
    // version 9: each line ends with the completion time
    assertEquals(4, all.out().lines().filter(l -> l.matches(".* archived  completed \\d{17}")).count(), all.out());
    try (Stream<Path> s = Files.list(dir.resolve("t/.hoodie/timeline/history"))) {
      assertTrue(s.anyMatch(p -> p.getFileName().toString().endsWith("_0.parquet")), "a layer-0 file");
    }

    List<String> active = run("timeline", table()).out().lines().filter(l -> l.contains(" deltacommit ")).toList();
    String last = active.get(active.size() - 1).substring(0, 17);
    CliTest.Run sp = run("savepoint", table(), last);
    assertEquals(0, sp.exit(), sp.err());
    Path in = dir.resolve("late.jsonl");
    Files.writeString(in, "{\"id\": \"a\", \"ts\": 99, \"city\": \"oslo\", \"fare\": 99.5}\n");
    assertEquals(0, run("upsert", table(), in.toString(), "--conf", "hoodie.archive.automatic=false").exit());
    CliTest.Run r = run("restore", table(), last);
    assertEquals(0, r.exit(), r.err());
    assertEquals("{\"id\":\"a\",\"fare\":5.5}", run("query", table(), "--columns", "id,fare").out().trim());
  }

  /**
   * An archival that moves nothing says why: too few commits for the bounds (with the setting's value), a savepoint
   * holding the oldest commit, the metadata table not compacted yet; a dry run and {@code --json} say the same.
   */
  @Test
  void anArchivalThatMovesNothingSaysWhatHoldsTheInstantsBack() throws IOException {
    CliTest.Run c = run("create", table(), "--type", "cow", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double");
    assertEquals(0, c.exit(), c.err());
    for (int i = 0; i < 5; i++) {
      Path in = dir.resolve("in" + i + ".jsonl");
      Files.writeString(in, "{\"id\": \"a\", \"ts\": " + i + ", \"city\": \"oslo\", \"fare\": " + i + ".5}\n");
      CliTest.Run w = run("upsert", table(), in.toString(), "--conf", "hoodie.clean.automatic=false", "--conf",
          "hoodie.archive.automatic=false");
      assertEquals(0, w.exit(), w.err());
    }
    CliTest.Run few = run("archive", table());
    assertEquals(0, few.exit(), few.err());
    assertEquals("0 instants archived (0 timeline files): 5 completed commits are on the active timeline; archival "
        + "starts when there are more than hoodie.keep.max.commits=30 and keeps the newest hoodie.keep.min.commits=20",
        few.out().trim());

    List<String> commits = run("timeline", table()).out().lines().filter(l -> l.contains(" commit "))
        .map(l -> l.trim().split("\\s+")[0]).toList();
    assertEquals(5, commits.size(), commits.toString());
    assertEquals(0, run("savepoint", table(), commits.get(0)).exit());
    String[] bounds = {"--conf", "hoodie.cleaner.commits.retained=1", "--conf", "hoodie.keep.min.commits=2",
        "--conf", "hoodie.keep.max.commits=3"};
    CliTest.Run held = run(concat(new String[] {"archive", table(), "--dry-run"}, bounds));
    assertEquals(0, held.exit(), held.err());
    assertEquals("0 instants to archive: 5 completed commits are on the active timeline, more than "
        + "hoodie.keep.max.commits=3, but the oldest, " + commits.get(0) + ", is held back by the savepoint "
        + commits.get(0) + " (the commits from it on stay until it is deleted)", held.out().trim());

    assertEquals(0, run("savepoint", table(), "--delete", commits.get(0)).exit());
    CliTest.Run mdt = run(concat(new String[] {"archive", table(), "--json"}, bounds));
    assertEquals(0, mdt.exit(), mdt.err());
    assertTrue(mdt.out().contains("\"instants\" : [ ]") && mdt.out().contains("\"heldBack\" : \"the metadata table "
        + "has not been compacted yet: instants are archived only once its compaction covers them (every "
        + "hoodie.metadata.compact.max.delta.commits of its delta commits)\""), mdt.out());
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
