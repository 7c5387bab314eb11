package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The hudi-cli views ({@code commit}, {@code fsview}, {@code cleans}, {@code rollbacks}, {@code stats filesizes},
 * {@code stats wa}, {@code commits compare}, {@code logs --merged}), each checked against the table's files on disk
 * and the other commands' output, on Copy-on-Write and Merge-on-Read tables.
 */
class HudiCliViewsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Writes leave every file in place (no automatic clean or archival) unless a test cleans on purpose. */
  private static final String[] KEEP = {"--conf", "hoodie.clean.automatic=false", "--conf",
      "hoodie.archive.automatic=false"};

  @TempDir
  Path dir;

  private String table() {
    return dir.resolve("t").toString();
  }

  private static CliTest.Run ok(String... a) {
    CliTest.Run r = CliTest.run(a);
    assertEquals(0, r.exit(), String.join(" ", a) + ": " + r.err() + r.out());
    return r;
  }

  private static JsonNode json(String... a) throws IOException {
    return JSON.readTree(ok(a).out());
  }

  private static String[] with(String[] head, String... tail) {
    List<String> all = new ArrayList<>(List.of(head));
    all.addAll(List.of(tail));
    return all.toArray(String[]::new);
  }

  private String write(String verb, String table, String name, String lines) throws IOException {
    Path in = dir.resolve(name);
    Files.writeString(in, lines);
    ok(with(new String[] {verb, table, in.toString()}, KEEP));
    return lastCommit(table);
  }

  private static String lastCommit(String table) throws IOException {
    JsonNode instants = json("timeline", table, "--json").get("instants");
    return instants.get(instants.size() - 1).get("time").asText();
  }

  /**
   * A table in two partitions with inserts, updates and a delete; Merge-on-Read also a compaction and an upsert
   * after it, so that its file groups have more than one slice.
   */
  private void load(String type, String table) throws IOException {
    ok("create", table, "--type", type, "--record-key", "id", "--precombine", "ts", "--partition-path", "city",
        "--columns", "id string, ts long, city string, fare double");
    write("insert", table, "in.jsonl", """
        {"id":"a","ts":1,"city":"oslo","fare":10.5}
        {"id":"b","ts":1,"city":"lisbon","fare":3.0}
        {"id":"c","ts":1,"city":"oslo","fare":7.25}
        {"id":"e","ts":1,"city":"lisbon","fare":8.0}
        """);
    write("upsert", table, "up1.jsonl", """
        {"id":"a","ts":2,"city":"oslo","fare":11.0}
        {"id":"d","ts":1,"city":"oslo","fare":1.0}
        {"id":"b","ts":2,"city":"lisbon","fare":4.0}
        """);
    write("delete", table, "del.jsonl", "{\"id\":\"c\",\"city\":\"oslo\"}\n");
    if (type.equals("mor")) {
      ok(with(new String[] {"compact", table, "--schedule", "--force"}, KEEP));
      ok(with(new String[] {"compact", table, "--run"}, KEEP));
    }
    write("upsert", table, "up2.jsonl", """
        {"id":"a","ts":3,"city":"oslo","fare":12.0}
        {"id":"e","ts":2,"city":"lisbon","fare":9.0}
        """);
  }

  /** Every data file in the partition folders (base and log files), by name, with its size. */
  private static Map<String, Long> dataFiles(Path table) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> all = Files.walk(table)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        String name = p.getFileName().toString();
        boolean data = name.endsWith(".parquet") || name.contains(".log.");
        if (data && !table.relativize(p).startsWith(".hoodie")) {
          out.put(name, Files.size(p));
        }
      }
    }
    return out;
  }

  private static List<String> commitTimes(String table) throws IOException {
    List<String> out = new ArrayList<>();
    for (JsonNode i : json("timeline", table, "--json").get("instants")) {
      if (i.get("state").asText().equals("COMPLETED") && !i.get("operation").isNull()) {
        out.add(i.get("time").asText());
      }
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor"})
  void commitShowsTheFilesItWroteWithTheirSizesOnDisk(String type) throws IOException {
    load(type, table());
    Path base = Path.of(table());
    int logRows = 0;
    long compactedBlocks = 0;
    for (JsonNode instant : json("timeline", table(), "--json").get("instants")) {
      if (instant.get("operation").isNull()) {
        continue;
      }
      String time = instant.get("time").asText();
      JsonNode doc = json("commit", table(), time, "--json");
      JsonNode rows = doc.get("rows");
      assertEquals(instant.get("files").asLong(), rows.size(), time);
      long inserted = 0;
      long updated = 0;
      for (JsonNode r : rows) {
        Path file = base.resolve(r.get("path").asText());
        assertTrue(Files.isRegularFile(file), file + " of " + time + " is not on disk");
        assertEquals(r.get("file").asText(), file.getFileName().toString());
        assertTrue(r.get("path").asText().startsWith(r.get("partition").asText() + "/"), r.toString());
        if (r.get("delta").asBoolean()) {
          // a log file's size after this append: later appends to the same file only grow it
          assertTrue(r.get("fileSizeInBytes").asLong() <= Files.size(file), r.toString());
          // counted in the log file: the blocks with this commit's instant in their header
          assertTrue(r.get("logBlocks").asLong() >= 1, r.toString());
          logRows++;
        } else {
          assertEquals(Files.size(file), r.get("fileSizeInBytes").asLong(), file.toString());
          assertEquals(Files.size(file), r.get("totalWriteBytes").asLong(), file.toString());
          assertTrue(file.getFileName().toString().contains(time), "a base file names its commit: " + file);
          assertTrue(r.get("logBlocks").isNull(), r.toString());
          compactedBlocks += r.get("totalLogBlocks").asLong();
        }
        inserted += r.get("numInserts").asLong();
        updated += r.get("numUpdateWrites").asLong();
      }
      assertEquals(instant.get("inserted").asLong(), inserted, time);
      assertEquals(instant.get("updated").asLong(), updated, time);
      assertEquals(instant.get("inserted").asLong(), doc.get("totals").get("numInserts").asLong());
      assertEquals(instant.get("bytes").asLong(), doc.get("totals").get("totalWriteBytes").asLong());
      // text: one line per file and the totals
      CliTest.Run text = ok("commit", table(), time);
      assertEquals(rows.size() + 3, text.out().lines().count(), text.out());
      assertTrue(text.out().contains("total: " + rows.size() + " files"), text.out());
    }
    assertEquals(type.equals("mor"), logRows > 0, "Merge-on-Read writes log files, Copy-on-Write none");
    assertEquals(type.equals("mor"), compactedBlocks > 0, "the compaction's write stats count the blocks it read");
  }

  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor"})
  void fsviewListsEverySliceAndEveryFileInThePartitionFolders(String type) throws IOException {
    load(type, table());
    JsonNode doc = json("fsview", table(), "--json");
    Map<String, Long> listed = new TreeMap<>();
    Set<String> groups = new HashSet<>();
    for (JsonNode r : doc.get("rows")) {
      groups.add(r.get("partition").asText() + "/" + r.get("fileId").asText());
      if (!r.get("baseFile").isNull()) {
        assertTrue(r.get("baseFile").asText().startsWith(r.get("fileId").asText()), r.toString());
        listed.put(r.get("baseFile").asText(), r.get("baseFileSize").asLong());
      }
      long logBytes = 0;
      for (JsonNode l : r.get("logFiles")) {
        listed.put(l.get("name").asText(), l.get("size").asLong());
        logBytes += l.get("size").asLong();
      }
      assertEquals(logBytes, r.get("logFileSize").asLong());
    }
    assertEquals(dataFiles(Path.of(table())), listed, "every base and log file on disk, with its size");
    // all slices, not only the latest: older file versions are kept (no clean) and listed
    assertTrue(doc.get("rows").size() > groups.size(), doc.toString());
    assertEquals(groups.size(), doc.get("totals").get("fileGroups").asInt());
    JsonNode latest = json("files", table(), "--json");
    assertEquals(groups.size(), latest.get("fileGroups").asInt());

    JsonNode oslo = json("fsview", table(), "--partition", "oslo", "--json");
    assertTrue(oslo.get("rows").size() > 0);
    oslo.get("rows").forEach(r -> assertEquals("oslo", r.get("partition").asText()));
    JsonNode sorted = json("fsview", table(), "--sort", "baseFileSize", "--desc", "--limit", "2", "--json");
    assertEquals(2, sorted.get("rows").size());
    assertEquals(doc.get("rows").size(), sorted.get("rowCount").asInt());
    long max = 0;
    for (JsonNode r : doc.get("rows")) {
      max = Math.max(max, r.get("baseFileSize").asLong());
    }
    assertEquals(max, sorted.get("rows").get(0).get("baseFileSize").asLong());
    assertTrue(sorted.get("rows").get(0).get("baseFileSize").asLong()
        >= sorted.get("rows").get(1).get("baseFileSize").asLong());
  }

  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor"})
  void cleansShowWhatEachCleanDeletedAndTheFilesAreGone(String type) throws IOException {
    load(type, table());
    Map<String, Long> before = dataFiles(Path.of(table()));
    ok("clean", table(), "--conf", "hoodie.cleaner.commits.retained=1");
    Map<String, Long> after = dataFiles(Path.of(table()));
    JsonNode list = json("cleans", table(), "--json");
    assertEquals(1, list.get("rows").size(), list.toString());
    JsonNode clean = list.get("rows").get(0);
    String time = clean.get("instant").asText();
    JsonNode parts = json("cleans", table(), time, "--json");
    Set<String> deleted = new HashSet<>();
    for (JsonNode p : parts.get("rows")) {
      assertEquals(p.get("deleted").asInt(), p.get("deletedFiles").size());
      p.get("deletedFiles").forEach(f -> deleted.add(f.asText()));
      assertEquals("KEEP_LATEST_COMMITS", p.get("policy").asText());
    }
    Set<String> gone = new HashSet<>(before.keySet());
    gone.removeAll(after.keySet());
    assertFalse(gone.isEmpty(), "the clean deleted older file versions");
    assertEquals(gone, deleted, "the clean's metadata names exactly the files that went");
    assertEquals(deleted.size(), clean.get("totalFilesDeleted").asInt());
    assertEquals(parts.get("rows").size(), clean.get("partitions").asInt());
    CliTest.Run text = ok("cleans", table(), time);
    assertTrue(text.out().contains("total: " + parts.get("rows").size() + " partitions, " + deleted.size()
        + " files deleted"), text.out());
  }

  @ParameterizedTest
  @ValueSource(strings = {"cow", "mor"})
  void rollbacksShowTheFilesTheyDeletedAndTheFilesAreGone(String type) throws IOException {
    load(type, table());
    String last = lastCommit(table());
    JsonNode written = json("commit", table(), last, "--json");
    ok("rollback", table(), last);
    JsonNode list = json("rollbacks", table(), "--json");
    assertEquals(1, list.get("rows").size(), list.toString());
    JsonNode rb = list.get("rows").get(0);
    assertEquals(List.of(last), List.of(rb.get("rolledBack").get(0).asText()));
    JsonNode files = json("rollbacks", table(), rb.get("instant").asText(), "--json");
    Set<String> deleted = new HashSet<>();
    for (JsonNode f : files.get("rows")) {
      if (f.get("outcome").asText().equals("deleted")) {
        Path p = Path.of(f.get("file").asText());
        Path abs = p.isAbsolute() ? p : Path.of(table()).resolve(f.get("partition").asText()).resolve(p);
        assertFalse(Files.exists(abs), abs + " was deleted by the rollback");
        deleted.add(abs.getFileName().toString());
      }
    }
    assertEquals(rb.get("totalFilesDeleted").asInt(), deleted.size());
    Set<String> wrote = new HashSet<>();
    written.get("rows").forEach(r -> wrote.add(r.get("file").asText()));
    assertTrue(deleted.containsAll(wrote), "the rolled-back commit's files " + wrote + " are among " + deleted);
    assertFalse(commitTimes(table()).contains(last));
  }

  @Test
  void statsFileSizesAndWriteAmplificationFollowTheCommits() throws IOException {
    load("cow", table());
    JsonNode sizes = json("stats", "filesizes", table(), "--json");
    List<Long> all = new ArrayList<>();
    for (JsonNode row : sizes.get("rows")) {
      JsonNode commit = json("commit", table(), row.get("commitTime").asText(), "--json");
      List<Long> onDisk = new ArrayList<>();
      for (JsonNode f : commit.get("rows")) {
        onDisk.add(Files.size(Path.of(table()).resolve(f.get("path").asText())));
      }
      onDisk.sort(null);
      all.addAll(onDisk);
      assertEquals(onDisk.size(), row.get("files").asInt());
      assertEquals(onDisk.get(0), row.get("min").asLong());
      assertEquals(onDisk.get(onDisk.size() - 1), row.get("max").asLong());
      assertEquals(Math.round(onDisk.stream().mapToLong(Long::longValue).average().orElseThrow()),
          row.get("avg").asLong());
    }
    all.sort(null);
    assertEquals(all.size(), sizes.get("totals").get("files").asInt());
    assertEquals(all.get((int) Math.ceil(0.5 * all.size()) - 1), sizes.get("totals").get("p50").asLong());
    JsonNode wa = json("stats", "wa", table(), "--json");
    for (JsonNode row : wa.get("rows")) {
      JsonNode totals = json("commit", table(), row.get("commitTime").asText(), "--json").get("totals");
      assertEquals(totals.get("numWrites").asLong(), row.get("written").asLong());
      assertEquals(totals.get("numUpdateWrites").asLong(), row.get("updated").asLong());
      if (row.get("updated").asLong() > 0) {
        assertEquals(Math.round(100.0 * row.get("written").asLong() / row.get("updated").asLong()) / 100.0,
            row.get("waf").asDouble(), 1e-9);
      } else {
        assertTrue(row.get("waf").isNull());
      }
    }
    // the plain stats command still takes TABLE, and refuses to run without it
    ok("stats", table());
    assertEquals(2, CliTest.run("stats").exit());
  }

  @Test
  void commitsCompareSaysWhichTableIsAhead() throws IOException {
    load("cow", table());
    String copy = dir.resolve("copy").toString();
    copyTree(Path.of(table()), Path.of(copy));
    assertEquals("same", json("commits", "compare", table(), copy, "--json").get("verdict").asText());
    String extra = write("upsert", table(), "up3.jsonl", "{\"id\":\"d\",\"ts\":5,\"city\":\"oslo\",\"fare\":2.0}\n");
    JsonNode ahead = json("commits", "compare", table(), copy, "--json");
    assertEquals("ahead", ahead.get("verdict").asText());
    assertEquals(1, ahead.get("rows").size());
    assertEquals(extra, ahead.get("rows").get(0).get("instant").asText());
    assertEquals("TABLE", ahead.get("rows").get(0).get("onlyIn").asText());
    assertEquals("behind", json("commits", "compare", copy, table(), "--json").get("verdict").asText());
    assertTrue(ok("commits", "compare", table(), copy).out().contains("TABLE is ahead of OTHER by 1 commit"));
    String other = write("upsert", copy, "up4.jsonl", "{\"id\":\"b\",\"ts\":5,\"city\":\"lisbon\",\"fare\":2.0}\n");
    JsonNode diverged = json("commits", "compare", table(), copy, "--json");
    assertEquals("diverged", diverged.get("verdict").asText());
    assertEquals(1, diverged.get("onlyInTable").asInt());
    assertEquals(1, diverged.get("onlyInOther").asInt());
    assertEquals(other, json("commits", "compare", table(), copy, "--sort", "onlyIn", "--json").get("rows").get(0)
        .get("instant").asText(), "OTHER sorts before TABLE");
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  @Test
  void mergedLogRecordsAreWhatTheSnapshotReadsFromTheLogs() throws IOException {
    ok("create", table(), "--type", "mor", "--record-key", "id", "--precombine", "ts", "--partition-path", "city",
        "--columns", "id string, ts long, city string, fare double");
    write("insert", table(), "in.jsonl", """
        {"id":"a","ts":1,"city":"oslo","fare":10.5}
        {"id":"c","ts":1,"city":"oslo","fare":7.25}
        {"id":"f","ts":1,"city":"oslo","fare":2.0}
        """);
    write("upsert", table(), "up1.jsonl", """
        {"id":"a","ts":2,"city":"oslo","fare":11.0}
        {"id":"f","ts":2,"city":"oslo","fare":3.0}
        """);
    write("upsert", table(), "up2.jsonl", """
        {"id":"a","ts":3,"city":"oslo","fare":12.0}
        {"id":"f","ts":1,"city":"oslo","fare":99.0}
        """);
    write("delete", table(), "del.jsonl", "{\"id\":\"c\",\"city\":\"oslo\"}\n");
    JsonNode fsview = json("fsview", table(), "--json");
    assertEquals(1, fsview.get("rows").size(), fsview.toString());
    JsonNode slice = fsview.get("rows").get(0);
    assertTrue(slice.get("logFileCount").asInt() >= 2, slice.toString());
    String fileId = slice.get("fileId").asText();

    JsonNode merged = json("logs", table(), fileId, "--merged", "--json");
    Map<String, JsonNode> byKey = new HashMap<>();
    merged.get("rows").forEach(r -> byKey.put(r.get("recordKey").asText(), r));
    assertEquals(Set.of("a", "c", "f"), byKey.keySet());
    assertTrue(byKey.get("c").get("deleted").asBoolean());
    assertTrue(byKey.get("c").get("record").isNull());
    // event-time ordering: the version with ts 2 wins over the later write with ts 1
    assertEquals(3.0, byKey.get("f").get("record").get("fare").asDouble());
    assertEquals(2, byKey.get("f").get("orderingValue").asLong());
    // the snapshot has each key the logs hold as the logs hold it (all are newer than the base), and not the deleted
    Map<String, JsonNode> snapshot = new HashMap<>();
    for (String line : ok("query", table()).out().lines().toList()) {
      JsonNode row = JSON.readTree(line);
      snapshot.put(row.get("id").asText(), row);
    }
    assertFalse(snapshot.containsKey("c"));
    for (String key : List.of("a", "f")) {
      for (String column : List.of("id", "ts", "city", "fare")) {
        assertEquals(snapshot.get(key).get(column), byKey.get(key).get("record").get(column), key + "." + column);
      }
    }
    // a log file's name finds the same file group; sort by a record column, with a limit
    String logName = slice.get("logFiles").get(0).get("name").asText();
    assertEquals(merged.get("rows").size(), json("logs", table(), logName, "--merged", "--json").get("rows").size());
    JsonNode top = json("logs", table(), fileId, "--merged", "--sort", "fare", "--desc", "--limit", "1", "--json");
    assertEquals(1, top.get("rows").size());
    assertEquals("a", top.get("rows").get(0).get("recordKey").asText());
    assertEquals(3, top.get("rowCount").asInt());
    CliTest.Run text = ok("logs", table(), fileId, "--merged");
    assertEquals(4, text.out().lines().count(), text.out());
    assertTrue(text.out().lines().findFirst().orElseThrow().contains("3 keys merged from"), text.out());
    // the block dump of one log file (hudi-cli show logfile metadata) takes --limit and --sort too
    JsonNode blocks = json("logs", table(), logName, "--json", "--sort", "size", "--desc", "--limit", "1");
    assertEquals(1, blocks.get("blocks").size());
  }

  @Test
  void badViewArgumentsAreInputErrorsNamingWhatIsExpected() throws IOException {
    load("cow", table());
    CliTest.Run sort = CliTest.run("fsview", table(), "--sort", "nope");
    assertEquals(3, sort.exit(), sort.err());
    assertTrue(sort.err().contains("'nope'") && sort.err().contains("baseFileSize"), sort.err());
    CliTest.Run limit = CliTest.run("commit", table(), lastCommit(table()), "--limit", "-1");
    assertEquals(3, limit.exit(), limit.err());
    CliTest.Run instant = CliTest.run("commit", table(), "20000101000000000");
    assertEquals(3, instant.exit(), instant.err());
    assertTrue(instant.err().contains("no completed instant 20000101000000000"), instant.err());
    CliTest.Run notClean = CliTest.run("cleans", table(), lastCommit(table()));
    assertEquals(3, notClean.exit(), notClean.err());
    assertTrue(notClean.err().contains("not a clean"), notClean.err());
    CliTest.Run group = CliTest.run("logs", table(), "no-such-group", "--merged");
    assertEquals(3, group.exit(), group.err());
    CliTest.Run partition = CliTest.run("fsview", table(), "--partition", "rome");
    assertEquals(3, partition.exit(), partition.err());
    assertEquals(2, CliTest.run("commits").exit());
  }
}
