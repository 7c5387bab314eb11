package dev.sluice.interop;

import static dev.sluice.interop.Hudi1ReadsSluiceTablesTest.commitContents;
import static dev.sluice.interop.Hudi1ReadsSluiceTablesTest.completionTimes;
import static dev.sluice.interop.Hudi1ReadsSluiceTablesTest.hudiCommitContents;
import static dev.sluice.interop.Hudi1ReadsSluiceTablesTest.slices;
import static dev.sluice.interop.MergeOnReadInteropTest.SCHEMA;
import static dev.sluice.interop.MergeOnReadInteropTest.byKey;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static dev.sluice.interop.MergeOnReadInteropTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CleanInfo;
import dev.sluice.api.CommitResult;
import dev.sluice.api.CompactionInfo;
import dev.sluice.api.Config;
import dev.sluice.api.MergeMode;
import dev.sluice.api.QueryType;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.internal.service.TableInternals;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction and clean on a version-9 Merge-on-Read table, both ways with Hudi 1.1.1's Java client: Hudi reads the
 * table after Sluice compacted it (with a delta commit landing while the compaction was pending) and cleaned it, and
 * gets Sluice's rows (snapshot, read-optimized, time travel), file slices, completion times and commit metadata; Hudi
 * then writes, compacts, cleans and schedules a compaction on it, and Sluice reads the same rows and slices, runs the
 * compaction Hudi planned and cleans, and Hudi reads the result as Sluice does. Two oracle JVMs in all.
 */
class Hudi1CompactionCleanInteropTest {
  private static final Map<String, String> SLUICE = Map.of("hoodie.index.bloom.num_entries", "1000",
      "hoodie.parquet.small.file.limit", "0", "hoodie.compact.inline", "false",
      "hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS", "hoodie.cleaner.fileversions.retained", "1");
  private static final Map<String, String> HUDI = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locateHudi1();
  }

  @Test
  void compactionAndCleanOnVersion9BothWays() {
    Path p = dir.resolve("mor_v9");
    Table t = Tables.create(p.toString(), TableSpec.builder("mor_v9").type(TableType.MERGE_ON_READ).recordKey("id")
        .precombine("ts").partitionBy("part").schema(SCHEMA).mergeMode(MergeMode.EVENT_TIME_ORDERING)
        .tableVersion(9).build(), Config.of(SLUICE));
    t.insert(List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p1", "b"), row("k3", 1, "p2", "c"),
        row("k4", 1, "p2", "d")).iterator());
    t.upsert(List.of(row("k1", 2, "p1", "a2"), row("k3", 2, "p2", "c2")).iterator());
    CommitResult beforeCompaction = t.delete(List.of(row("k4", 0, "p2", null)).iterator());
    String compaction = t.compaction().scheduleNow().orElseThrow();
    // completes after the plan was requested: its log joins the slice the plan opened
    CommitResult during = t.upsert(List.of(row("k2", 5, "p1", "b5"), row("k3", 1, "p2", "older")).iterator());
    CompactionInfo compacted = t.compaction().run(compaction);
    assertEquals(2, compacted.baseFilesWritten());
    List<CleanInfo> cleaned = t.clean();
    assertEquals(1, cleaned.size(), "the compacted slices are cleaned");
    assertTrue(cleaned.get(0).totalFilesDeleted() >= 4, "old base files and their logs: " + cleaned);
    // a second compaction Sluice plans and Hudi runs
    t.upsert(List.of(row("k1", 3, "p1", "a3")).iterator());
    String pending = t.compaction().scheduleNow().orElseThrow();

    // what Sluice reads now, before Hudi writes on the table
    Map<String, Map<String, String>> sluiceSnapshot = byKey(rows(t.newScan()));
    Map<String, Map<String, String>> sluiceReadOptimized = byKey(rows(t.newScan().queryType(QueryType.READ_OPTIMIZED)));
    Map<String, Map<String, String>> sluiceTravel = byKey(rows(t.newScan().asOf(during.instantTime())));
    List<OracleFileSlice> sluiceSlices = slices(t);
    Map<String, String> sluiceTimes = completionTimes(TableInternals.timeline(t));
    Map<String, String> sluiceCommits = commitContents(t);

    OracleBatch batch = oracle.batch();
    OracleBatch.Pending<List<GenericRecord>> snapshot = batch.read(p, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> readOptimized = batch.read(p, "read_optimized", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> travel = batch.read(p, "snapshot", Optional.of(during.instantTime()),
        false);
    OracleBatch.Pending<List<OracleFileSlice>> slices = batch.fsview(p);
    OracleBatch.Pending<List<Map<String, String>>> timeline = batch.timeline(p);
    // then Hudi continues: it runs Sluice's plan, writes, compacts, writes into the new slices, cleans, plans
    OracleBatch.Pending<String> hudiRan = batch.write(p, "run-compaction", SCHEMA, List.of(), HUDI,
        List.of("--instant", pending));
    batch.write(p, "upsert", SCHEMA, List.of(row("k1", 7, "p1", "a7"), row("k5", 1, "p2", "e")), HUDI);
    batch.write(p, "compact", SCHEMA, List.of(), HUDI);
    batch.write(p, "upsert", SCHEMA, List.of(row("k3", 9, "p2", "c9"), row("k6", 1, "p1", "f")), HUDI);
    Map<String, String> clean = new HashMap<>(HUDI);
    clean.put("hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS");
    clean.put("hoodie.cleaner.fileversions.retained", "1");
    OracleBatch.Pending<String> hudiClean = batch.write(p, "clean", SCHEMA, List.of(), clean);
    OracleBatch.Pending<String> hudiPlan = batch.write(p, "schedule-compaction", SCHEMA, List.of(), HUDI);
    OracleBatch.Pending<List<GenericRecord>> hudiSnapshot = batch.read(p, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<OracleFileSlice>> hudiSlices = batch.fsview(p);
    batch.run();

    // Hudi read Sluice's compacted and cleaned table as Sluice does
    Table sluiceView = Tables.open(p.toString(), Config.of(SLUICE));
    assertEquals(byKey(snapshot.get()), sluiceSnapshot, "snapshot");
    assertEquals(byKey(readOptimized.get()), sluiceReadOptimized, "read-optimized");
    assertEquals(byKey(travel.get()), sluiceTravel, "time travel to the delta commit that completed during the compaction");
    assertEquals(slices.get(), sluiceSlices, "latest file slices");
    assertEquals(completionTimes(timeline.get()), sluiceTimes, "completion times");
    assertEquals(hudiCommitContents(timeline.get()), sluiceCommits, "commit metadata as Hudi's serde decodes it");
    assertEquals("\"b5\"", byKey(snapshot.get()).get("k2").get("name"), "Hudi read the log of the new slice");
    assertFalse(byKey(snapshot.get()).containsKey("k4"));
    // Sluice's second compaction is pending over both file groups (each has the log of the delta commit that landed
    // during the first): Hudi's latest slices are the empty ones it opened
    for (OracleFileSlice s : slices.get()) {
      assertEquals(pending, s.baseInstant(), "the slice of the pending compaction: " + slices.get());
      assertEquals(List.of(), s.logFiles());
    }
    assertEquals(pending, hudiRan.get(), "Hudi ran the compaction Sluice planned");
    Map<String, String> hudiTimes = completionTimes(timeline.get());
    assertTrue(hudiTimes.containsKey(compaction + " commit"), "Hudi parsed the compaction's commit: " + hudiTimes);
    assertTrue(hudiTimes.containsKey(cleaned.get(0).startCleanTime() + " clean"), "and the clean: " + hudiTimes);
    assertTrue(hudiTimes.get(compaction + " commit").compareTo(hudiTimes.get(during.instantTime() + " deltacommit"))
        > 0, "the compaction completed after the delta commit that landed during it");
    assertTrue(hudiCommitContents(timeline.get()).get(compaction).startsWith("COMPACT "), timeline.get().toString());
    assertTrue(beforeCompaction.instantTime().compareTo(compaction) < 0);

    // Sluice reads what Hudi wrote, compacted and cleaned, with Hudi's compaction pending
    assertTrue(hudiClean.get().matches("\\d{17} [1-9]\\d*"), "Hudi's clean deleted files: " + hudiClean.get());
    String hudiCompaction = hudiPlan.get();
    assertEquals(byKey(hudiSnapshot.get()), byKey(rows(sluiceView.newScan())), "Sluice reads Hudi's writes");
    assertEquals(hudiSlices.get(), slices(sluiceView), "and forms the same slices, a pending compaction's included");
    assertEquals(List.of(hudiCompaction), sluiceView.compaction().pending());

    // Sluice runs the compaction Hudi planned, writes and cleans; Hudi reads the result as Sluice does
    sluiceView.compaction().run(hudiCompaction);
    sluiceView.upsert(List.of(row("k6", 3, "p1", "f3"), row("k7", 1, "p2", "g")).iterator());
    sluiceView.compaction().scheduleNow().ifPresent(c -> sluiceView.compaction().run(c));
    assertFalse(sluiceView.clean().isEmpty(), "Sluice cleans after Hudi's and its own compactions");
    OracleBatch after = oracle.batch();
    OracleBatch.Pending<List<GenericRecord>> finalSnapshot = after.read(p, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> finalReadOptimized = after.read(p, "read_optimized", Optional.empty(),
        false);
    OracleBatch.Pending<List<OracleFileSlice>> finalSlices = after.fsview(p);
    OracleBatch.Pending<List<Map<String, String>>> finalTimeline = after.timeline(p);
    after.run();
    assertEquals(byKey(finalSnapshot.get()), byKey(rows(sluiceView.newScan())), "snapshot after Sluice's services");
    assertEquals(byKey(finalReadOptimized.get()),
        byKey(rows(sluiceView.newScan().queryType(QueryType.READ_OPTIMIZED))), "read-optimized");
    assertEquals(finalSlices.get(), slices(sluiceView), "slices");
    assertEquals(completionTimes(finalTimeline.get()), completionTimes(TableInternals.timeline(sluiceView)),
        "completion times");
    assertEquals(commitContents(sluiceView), hudiCommitContents(finalTimeline.get()), "commit metadata");
    Map<String, Map<String, String>> last = byKey(finalSnapshot.get());
    assertEquals(List.of("k1", "k2", "k3", "k5", "k6", "k7"), List.copyOf(last.keySet()));
    assertEquals("\"c9\"", last.get("k3").get("name"));
    assertEquals("\"f3\"", last.get("k6").get("name"));
  }
}
