package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice stats}, {@code sluice advise}, the warnings of {@code sluice files} and {@code --json} everywhere. */
class HealthCliTest {
  private static final int GROUPS = 6;
  private static final int PER_GROUP = 200;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] SIZING = {"--conf", "hoodie.copyonwrite.record.size.estimate=1000", "--conf",
      "hoodie.parquet.max.file.size=" + 1000 * PER_GROUP, "--conf", "hoodie.parquet.small.file.limit=0", "--conf",
      "hoodie.index.bloom.num_entries=1000"};
  private static final String[] THRESHOLDS = {"--conf", "sluice.health.rewritten.file.groups.min=3", "--conf",
      "sluice.health.changed.records.per.file.group.max=10"};

  @TempDir
  Path dir;

  private String table() {
    return dir.resolve("t").toString();
  }

  private static String[] args(String[] head, String[]... rest) {
    List<String> all = new ArrayList<>(List.of(head));
    for (String[] r : rest) {
      all.addAll(List.of(r));
    }
    return all.toArray(String[]::new);
  }

  private static CliTest.Run ok(String[] a) {
    CliTest.Run r = CliTest.run(a);
    assertEquals(0, r.exit(), r.err() + r.out());
    return r;
  }

  private static JsonNode json(CliTest.Run r) throws IOException {
    return JSON.readTree(r.out());
  }

  private Path jsonl(String name, List<Integer> ids, long ts) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i : ids) {
      sb.append(String.format("{\"id\": \"id-%06d\", \"ts\": %d, \"city\": \"oslo\", \"fare\": %d.5}%n", i, ts, i));
    }
    Path p = dir.resolve(name);
    Files.writeString(p, sb.toString());
    return p;
  }

  private void createAndLoad(String type) throws IOException {
    ok(args(new String[] {"create", table(), "--type", type, "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double"}, SIZING));
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < GROUPS * PER_GROUP; i++) {
      all.add(i);
    }
    ok(args(new String[] {"bulk-insert", table(), jsonl("all.jsonl", all, 1).toString()}, SIZING));
  }

  private Path scattered(long ts) throws IOException {
    List<Integer> ids = new ArrayList<>();
    for (int g = 0; g < GROUPS; g++) {
      ids.add(g * PER_GROUP + 7);
    }
    return jsonl("scattered-" + ts + ".jsonl", ids, ts);
  }

  @Test
  void aNewTableHasNoFiguresAndNoWarnings() throws IOException {
    ok(args(new String[] {"create", table(), "--type", "mor", "--record-key", "id", "--precombine", "ts",
        "--columns", "id string, ts long, fare double"}, SIZING));
    JsonNode stats = json(ok(new String[] {"stats", table(), "--json"}));
    assertEquals(0, stats.get("commits").size());
    assertEquals(0, stats.get("slices").size());
    assertEquals(0, stats.get("warnings").size());
    assertTrue(stats.get("readCost").get("readAmplification").isNull());
    JsonNode advise = json(ok(new String[] {"advise", table(), "--json"}));
    assertEquals("COPY_ON_WRITE", advise.get("recommendation").asText());
    assertEquals("none", advise.get("basis").asText());
    assertTrue(ok(new String[] {"stats", table()}).out().contains("no health warnings"));
  }

  @Test
  void statsShowTheScatteredCopyOnWriteUpsertAndItsWarning() throws IOException {
    createAndLoad("cow");
    ok(args(new String[] {"upsert", table(), scattered(5).toString()}, SIZING));

    JsonNode stats = json(ok(args(new String[] {"stats", table(), "--json"}, THRESHOLDS)));
    assertEquals(table(), stats.get("table").asText());
    assertEquals("COPY_ON_WRITE", stats.get("tableType").asText());
    JsonNode commits = stats.get("commits");
    assertEquals(2, commits.size());
    JsonNode upsert = commits.get(1);
    assertEquals("UPSERT", upsert.get("operation").asText());
    assertEquals(GROUPS, upsert.get("updated").asLong());
    assertEquals(GROUPS, upsert.get("fileGroupsRewritten").asLong());
    assertEquals(PER_GROUP, upsert.get("writeAmplification").asDouble(), 1e-6);
    assertEquals(PER_GROUP, upsert.get("recordAmplification").asDouble(), 1e-9);
    assertEquals(PER_GROUP, upsert.get("hudiWriteAmplification").asDouble(), 1e-9);

    // the same commit as the timeline shows it
    JsonNode timeline = json(ok(new String[] {"timeline", table(), "--json"}));
    JsonNode last = timeline.get("instants").get(timeline.get("instants").size() - 1);
    assertEquals(upsert.get("instantTime").asText(), last.get("time").asText());
    assertEquals("COMPLETED", last.get("state").asText());
    assertEquals(upsert.get("bytesWritten").asLong(), last.get("bytes").asLong());
    assertEquals(GROUPS, last.get("updated").asLong());
    assertEquals(GROUPS, last.get("files").asLong());

    assertEquals(GROUPS, stats.get("slices").size());
    assertEquals(GROUPS, stats.get("baseFileSizes").get("files").asInt());
    assertTrue(stats.get("slices").get(0).get("baseFile").isTextual());
    assertEquals(PER_GROUP, stats.get("slices").get(0).get("baseRecords").asLong());
    JsonNode warnings = stats.get("warnings");
    assertEquals(1, warnings.size(), warnings.toString());
    assertEquals("COW_UPSERTS_REWRITE_MANY_FILE_GROUPS", warnings.get(0).get("code").asText());
    assertEquals(GROUPS, warnings.get(0).get("numbers").get("fileGroupsRewritten").asInt());

    CliTest.Run text = ok(args(new String[] {"stats", table()}, THRESHOLDS));
    assertTrue(text.out().contains("WARNING COW_UPSERTS_REWRITE_MANY_FILE_GROUPS"), text.out());
    assertTrue(text.out().contains(upsert.get("instantTime").asText()), text.out());

    CliTest.Run files = ok(args(new String[] {"files", table()}, THRESHOLDS));
    assertTrue(files.out().trim().endsWith(warnings.get(0).get("message").asText()), files.out());
    JsonNode filesJson = json(ok(args(new String[] {"files", table(), "--json"}, THRESHOLDS)));
    assertEquals(GROUPS, filesJson.get("fileGroups").asInt());
    assertEquals(GROUPS, filesJson.get("partitions").get(0).get("fileGroups").size());
    assertEquals("COW_UPSERTS_REWRITE_MANY_FILE_GROUPS", filesJson.get("warnings").get(0).get("code").asText());
    assertTrue(ok(new String[] {"files", table()}).out().contains("no health warnings"), "default thresholds: 10 groups");
  }

  @Test
  void adviseRecommendsMergeOnReadForAScatteredSampleAndCopyOnWriteForABulkRewrite() throws IOException {
    createAndLoad("cow");
    JsonNode a = json(ok(new String[] {"advise", table(), "--input", scattered(5).toString(), "--json"}));
    assertEquals("MERGE_ON_READ", a.get("recommendation").asText(), a.get("reason").asText());
    assertEquals("COPY_ON_WRITE", a.get("current").asText());
    assertEquals("sample", a.get("basis").asText());
    JsonNode sample = a.get("sample");
    assertEquals(GROUPS, sample.get("fileGroupsTouched").asInt());
    assertEquals(GROUPS, sample.get("updates").asLong());
    long baseBytes = json(ok(new String[] {"stats", table(), "--json"})).get("baseFileSizes").get("totalBytes").asLong();
    assertEquals(baseBytes, sample.get("cowBytesRewritten").asLong());
    assertEquals(1, json(ok(new String[] {"timeline", table(), "--json"})).get("instants").size(), "advise wrote nothing");

    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < GROUPS * PER_GROUP; i++) {
      all.add(i);
    }
    ok(args(new String[] {"upsert", table(), jsonl("rewrite.jsonl", all, 9).toString()}, SIZING));
    CliTest.Run text = ok(new String[] {"advise", table()});
    assertTrue(text.out().startsWith("recommendation: COPY_ON_WRITE (the table is COPY_ON_WRITE)"), text.out());
    JsonNode h = json(ok(new String[] {"advise", table(), "--json"}));
    assertEquals("history", h.get("basis").asText());
    assertEquals(GROUPS * PER_GROUP, h.get("history").get("updated").asLong());
    assertTrue(h.get("sample").isNull());
  }

  @Test
  void mergeOnReadJsonListingsAndCompactionWarnings() throws IOException {
    createAndLoad("mor");
    for (int ts = 5; ts < 8; ts++) {
      ok(args(new String[] {"upsert", table(), scattered(ts).toString()}, SIZING));
    }
    String[] strict = {"--conf", "sluice.health.max.log.files=2", "--conf", "sluice.health.max.delta.commits=2"};
    JsonNode stats = json(ok(args(new String[] {"stats", table(), "--json"}, strict)));
    assertEquals("MERGE_ON_READ", stats.get("tableType").asText());
    assertEquals(4, stats.get("deltaCommitsSinceLastCompaction").asInt());
    assertTrue(stats.get("lastCompaction").isNull());
    JsonNode slice = stats.get("slices").get(0);
    assertEquals(3, slice.get("logFiles").asInt());
    assertEquals(3, slice.get("deltaCommitsSinceBase").asInt());
    assertEquals((slice.get("baseFileBytes").asDouble() + slice.get("logBytes").asDouble())
        / slice.get("baseFileBytes").asDouble(), slice.get("readAmplification").asDouble(), 1e-12);
    List<String> codes = new ArrayList<>();
    stats.get("warnings").forEach(w -> codes.add(w.get("code").asText()));
    assertEquals(List.of("COMPACTION_BEHIND_LOG_FILES", "COMPACTION_BEHIND_DELTA_COMMITS", "COMPACTION_NOT_SCHEDULED"),
        codes);

    JsonNode files = json(ok(new String[] {"files", table(), "--json"}));
    assertEquals(GROUPS * 3, files.get("logFiles").asInt());
    JsonNode group = files.get("partitions").get(0).get("fileGroups").get(0);
    assertEquals(slice.get("fileId").asText(), group.get("fileId").asText());
    JsonNode log = group.get("logFiles").get(0);
    assertEquals("AVRO_DATA_BLOCK", log.get("blocks").get(0).get("type").asText());

    JsonNode logs = json(ok(new String[] {"logs", table(), log.get("name").asText(), "--records", "--json"}));
    assertEquals(1, logs.get("blockCount").asInt());
    JsonNode block = logs.get("blocks").get(0);
    assertEquals(log.get("blocks").get(0).get("instant").asText(), block.get("instant").asText());
    assertEquals(1, block.get("records").asInt());
    assertTrue(block.get("header").get("SCHEMA").asText().startsWith("{"));
    assertEquals("oslo", block.get("rows").get(0).get("city").asText());

    JsonNode advise = json(ok(new String[] {"advise", table(), "--json"}));
    assertEquals("MERGE_ON_READ", advise.get("recommendation").asText(), advise.get("reason").asText());
    assertEquals(3, advise.get("history").get("commits").asInt());

    JsonNode clean = json(ok(new String[] {"clean", table(), "--dry-run", "--json"}));
    assertTrue(clean.get("dryRun").asBoolean());
    assertEquals("KEEP_LATEST_COMMITS", clean.get("policy").asText());
    assertEquals(clean.get("files").size(), clean.get("fileCount").asInt());
    JsonNode archive = json(ok(new String[] {"archive", table(), "--dry-run", "--json", "--conf",
        "hoodie.keep.min.commits=2", "--conf", "hoodie.keep.max.commits=3", "--conf", "hoodie.cleaner.commits.retained=1",
        "--conf", "hoodie.compact.inline.max.delta.commits=1"}));
    assertTrue(archive.get("dryRun").asBoolean());
    assertTrue(archive.get("instants").isArray());
    JsonNode tl = json(ok(new String[] {"timeline", table(), "--json"}));
    assertEquals(4, tl.get("instants").size(), "archive --dry-run changed nothing");
  }

  @Test
  void adviseJudgesTheUpsertsNotTheInitialInsert() throws IOException {
    // an initial load through 'insert' (not bulk-insert), then one upsert of 100 records, 91 of them updates
    ok(args(new String[] {"create", table(), "--type", "cow", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, fare double"}, SIZING));
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < GROUPS * PER_GROUP; i++) {
      all.add(i);
    }
    ok(args(new String[] {"insert", table(), jsonl("load.jsonl", all, 1).toString()}, SIZING));
    List<Integer> upsert = new ArrayList<>();
    for (int i = 0; i < 91; i++) {
      upsert.add(i * 13);
    }
    for (int i = 0; i < 9; i++) {
      upsert.add(GROUPS * PER_GROUP + i);
    }
    CliTest.Run u = ok(args(new String[] {"upsert", table(), jsonl("up.jsonl", upsert, 2).toString()}, SIZING));
    assertTrue(u.out().contains("9 inserted, 91 updated"), u.out());
    JsonNode a = json(ok(new String[] {"advise", table(), "--json"}));
    JsonNode h = a.get("history");
    assertEquals(1, h.get("commits").asInt(), "only the upsert is a write pattern: " + h);
    assertEquals(9, h.get("inserted").asLong());
    assertEquals(91, h.get("updated").asLong());
    assertEquals(0.91, h.get("updateFraction").asDouble(), 1e-9);
    // 91% updates: the rewrite ratio decides, not the "under 10% updates" rule the initial insert triggered
    String reason = a.get("reason").asText();
    assertTrue(reason.contains("91% of the 100 changed records") && reason.contains("break-even")
        && !reason.contains("under 10%"), reason);
    double ratio = h.get("rewriteRatio").asDouble();
    assertTrue(ratio > 1, h.toString());
    String expected = ratio >= a.get("breakEven").asDouble() ? "MERGE_ON_READ" : "COPY_ON_WRITE";
    assertEquals(expected, a.get("recommendation").asText(), reason);
    // with the break-even under the measured ratio Merge-on-Read is recommended (the old code said Copy-on-Write
    // whatever the break-even, the updates being 7% of the insert's and the upsert's records together)
    String below = String.valueOf(Math.floor(ratio * 10) / 10 - 0.5);
    JsonNode lower = json(ok(new String[] {"advise", table(), "--json", "--conf", "sluice.health.advise.break.even=" + below}));
    assertEquals("MERGE_ON_READ", lower.get("recommendation").asText(), lower.get("reason").asText());
  }
}
