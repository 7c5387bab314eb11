package dev.sluice.interop;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.interop.MergeOnReadInteropTest.byKey;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static dev.sluice.interop.MergeOnReadInteropTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CompactedSlice;
import dev.sluice.api.CompactionInfo;
import dev.sluice.api.CompactionSlice;
import dev.sluice.api.CompactionUnits;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.internal.compact.CompactionPlan;
import dev.sluice.api.Config;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.api.MergeMode;
import dev.sluice.api.QueryType;
import dev.sluice.api.TableType;
import dev.sluice.api.WriteStatInfo;
import dev.sluice.api.WriteToken;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteOperationType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction across engines: Hudi 0.15.0 runs a plan Sluice scheduled, Sluice runs a plan Hudi scheduled, and Hudi
 * reads tables Sluice compacted; both engines then read the same rows.
 */
class CompactionInteropTest {
  private static final Schema SCHEMA = MergeOnReadInteropTest.SCHEMA;
  /** Hudi's Java client on a Sluice table: no metadata table, logs for updates, a key generator it can load. */
  private static final Map<String, String> HUDI = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000",
      "hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.SimpleAvroKeyGenerator");
  private static final Config SLUICE = Config.of(Map.of("hoodie.index.bloom.num_entries", "1000",
      "hoodie.parquet.small.file.limit", "0", "hoodie.clean.automatic", "false"));

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  private Table sluiceTableWithLogs(Path path) {
    Table t = Tables.create(path.toString(), TableSpec.builder("compact").type(TableType.MERGE_ON_READ).recordKey("id")
        .precombine("ts").partitionBy("part").schema(SCHEMA).mergeMode(MergeMode.EVENT_TIME_ORDERING).tableVersion(6).build(), SLUICE);
    t.insert(List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p1", "b"), row("k3", 1, "p1", "c"), row("k4", 1, "p2", "d"),
        row("k5", 1, "p2", "e"), row("k6", 1, "p2", "f")).iterator());
    t.upsert(List.of(row("k1", 5, "p1", "a5"), row("k4", 5, "p2", "d5", "x"), row("k6", 0, "p2", "late")).iterator());
    t.delete(List.of(row("k3", 0, "p1", null)).iterator());
    GenericRecord soft = row("k5", 9, "p2", "gone");
    soft.put("_hoodie_is_deleted", true);
    t.upsert(List.of(soft, row("k2", 7, "p1", "b7")).iterator());
    return t;
  }

  @Test
  void hudiRunsAPlanSluiceScheduledAndBothReadTheResult() {
    Path path = dir.resolve("sluice_plan");
    Table t = sluiceTableWithLogs(path);
    Map<String, Map<String, String>> before = withoutFileName(byKey(rows(t.newScan())));
    String instant = t.compaction().scheduleNow().orElseThrow();
    List<OracleFileSlice> pendingSlices = slices(t);

    OracleBatch batch = oracle.batch();
    OracleBatch.Pending<List<OracleFileSlice>> hudiPendingView = batch.fsview(path);
    OracleBatch.Pending<List<GenericRecord>> hudiPendingRows = batch.read(path, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<String> ran = batch.compact(path, Optional.of(instant), HUDI);
    OracleBatch.Pending<List<GenericRecord>> snapshot = batch.read(path, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> ro = batch.read(path, "read_optimized", Optional.empty(), false);
    batch.run();

    assertEquals(pendingSlices, hudiPendingView.get(), "Hudi sees Sluice's plan: new slices at the compaction instant");
    assertEquals(before, withoutFileName(byKey(hudiPendingRows.get())));
    assertEquals(instant + " 2", ran.get(), "Hudi compacted both file groups");
    Table after = Tables.open(path.toString(), SLUICE);
    assertTrue(after.compaction().pending().isEmpty());
    CommitMetadata md = metadata(after, instant);
    assertTrue(md.compacted());
    assertEquals(WriteOperationType.COMPACT, md.operationType());
    Map<String, Map<String, String>> sluiceRows = byKey(rows(after.newScan()));
    assertEquals(before, withoutFileName(sluiceRows), "the plan's compaction keeps every row");
    assertEquals(byKey(snapshot.get()), sluiceRows);
    assertEquals(byKey(ro.get()), byKey(rows(after.newScan().queryType(QueryType.READ_OPTIMIZED))));
    assertEquals(sluiceRows, byKey(ro.get()), "after compaction read-optimized is the snapshot");
  }

  /** A table Hudi wrote (an insert, updates and a delete in logs) with a compaction plan Hudi scheduled; its instant. */
  private static String hudiTableWithHudiPlan(Path path) {
    oracle.create(path, OracleTableSpec.builder("hudi_plan", SCHEMA).mergeOnRead().partitionBy("part")
        .payload(MergeMode.EVENT_TIME_ORDERING.payloadClass()).build());
    Map<String, String> conf = new LinkedHashMap<>(HUDI);
    conf.remove("hoodie.datasource.write.keygenerator.class");
    Map<String, String> deletes = new LinkedHashMap<>(conf);
    deletes.put("hoodie.datasource.write.payload.class", "org.apache.hudi.common.model.EmptyHoodieRecordPayload");
    OracleBatch writes = oracle.batch();
    writes.write(path, "insert", SCHEMA, List.of(row("h1", 1, "p1", "a"), row("h2", 1, "p1", "b"), row("h3", 1, "p2", "c"),
        row("h4", 1, "p2", "d")), conf);
    writes.write(path, "upsert", SCHEMA, List.of(row("h1", 4, "p1", "a4"), row("h3", 0, "p2", "late"),
        row("h4", 4, "p2", "d4")), conf);
    writes.write(path, "upsert", SCHEMA, List.of(row("h2", 5, "p1", null)), deletes);
    OracleBatch.Pending<String> scheduled = writes.compact(path, Optional.empty(), conf);
    writes.run();
    String instant = scheduled.get();
    assertNotEquals("none", instant);
    return instant;

  }

  @Test
  void sluiceRunsAPlanHudiScheduledAndBothReadTheResult() {
    Path path = dir.resolve("hudi_plan");
    String instant = hudiTableWithHudiPlan(path);

    Table t = Tables.open(path.toString(), SLUICE);
    assertEquals(List.of(instant), t.compaction().pending());
    CompactionPlan plan = TableInternals.compaction(t).plan(instant);
    assertEquals(2, plan.operations().size());
    assertTrue(plan.operations().stream().allMatch(op -> op.dataFileName().isPresent()
        && !op.deltaFileNames().isEmpty()));
    Map<String, Map<String, String>> before = withoutFileName(byKey(rows(t.newScan())));
    t.compaction().run(instant);
    Map<String, Map<String, String>> sluiceRows = byKey(rows(t.newScan()));
    assertEquals(before, withoutFileName(sluiceRows));
    assertEquals(sluiceRows, byKey(rows(t.newScan().queryType(QueryType.READ_OPTIMIZED))));

    OracleBatch reads = oracle.batch();
    OracleBatch.Pending<List<GenericRecord>> snapshot = reads.read(path, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> ro = reads.read(path, "read_optimized", Optional.empty(), false);
    OracleBatch.Pending<List<OracleFileSlice>> view = reads.fsview(path);
    OracleBatch.Pending<List<java.util.Map<String, String>>> timeline = reads.timeline(path);
    reads.run();
    assertEquals(sluiceRows, byKey(snapshot.get()), "Hudi reads Sluice's compaction of its plan");
    assertEquals(sluiceRows, byKey(ro.get()));
    assertEquals(slices(t), view.get());
    assertTrue(timeline.get().stream().anyMatch(m -> m.containsValue(instant)), timeline.get().toString());
  }

  @Test
  void hudiReadsASluiceCompactedTableWithLaterLogsAndCompactsItAgain() {
    Path path = dir.resolve("sluice_compacted");
    Table t = sluiceTableWithLogs(path);
    String first = t.compaction().scheduleNow().orElseThrow();
    // a write while the compaction is pending: it goes to the slices at the compaction instant
    t.upsert(List.of(row("k1", 8, "p1", "a8"), row("k7", 8, "p2", "new")).iterator());
    t.compaction().run(first);
    t.upsert(List.of(row("k4", 9, "p2", "d9"), row("k2", 3, "p1", "older")).iterator());
    Map<String, Map<String, String>> sluiceRows = byKey(rows(t.newScan()));
    Map<String, Map<String, String>> sluiceRo = byKey(rows(t.newScan().queryType(QueryType.READ_OPTIMIZED)));
    List<OracleFileSlice> sluiceSlices = slices(t);

    OracleBatch batch = oracle.batch();
    OracleBatch.Pending<List<GenericRecord>> snapshot = batch.read(path, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> ro = batch.read(path, "read_optimized", Optional.empty(), false);
    OracleBatch.Pending<List<OracleFileSlice>> view = batch.fsview(path);
    OracleBatch.Pending<String> scheduled = batch.compact(path, Optional.empty(), HUDI);
    batch.run();
    assertEquals(sluiceRows, byKey(snapshot.get()));
    assertEquals(sluiceRo, byKey(ro.get()));
    assertEquals(sluiceSlices, view.get());
    assertNotEquals("none", scheduled.get(), "Hudi plans over Sluice's compacted slices and their new logs");

    Table again = Tables.open(path.toString(), SLUICE);
    again.compaction().run(scheduled.get());
    assertEquals(withoutFileName(sluiceRows), withoutFileName(byKey(rows(again.newScan()))));
    assertEquals(withoutFileName(sluiceRows),
        withoutFileName(byKey(rows(again.newScan().queryType(QueryType.READ_OPTIMIZED)))));
  }

  private static CommitMetadata metadata(Table t, String time) {
    Instant i = TableInternals.timeline(t).find(time).orElseThrow();
    return new TimelineStore(t.storage(), t.location()).readCommitMetadata(i).orElseThrow();
  }

  /** The rows without {@code _hoodie_file_name}, which names the new base file after a compaction. */
  private static Map<String, Map<String, String>> withoutFileName(Map<String, Map<String, String>> rows) {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    rows.forEach((k, v) -> {
      Map<String, String> m = new LinkedHashMap<>(v);
      m.remove("_hoodie_file_name");
      out.put(k, m);
    });
    return out;
  }


  private static List<OracleFileSlice> slices(Table t) {
    FileSystemView view = TableInternals.fileSystemView(t);
    List<OracleFileSlice> out = new ArrayList<>();
    for (String p : view.partitions()) {
      for (FileSlice s : view.latestSlices(p)) {
        out.add(new OracleFileSlice(p, s.fileId(), s.baseInstant(), s.baseFile().map(b -> b.fileName()),
            s.logFiles().stream().map(LogFile::fileName).collect(Collectors.toList())));
      }
    }
    out.sort(Comparator.comparing(OracleFileSlice::partition).thenComparing(OracleFileSlice::fileId));
    return out;
  }

  /**
   * The units a cluster engine's tasks run ({@code TableCompaction.runWith}, {@code CompactionUnits.compact}) carry a
   * plan Hudi scheduled out as {@code run} does on a copy of the table: the same write stats but the file names'
   * tokens, the same rows; Hudi reads the result.
   */
  @Test
  void theCompactionUnitsRunAPlanHudiScheduled() throws IOException {
    Path path = dir.resolve("hudi_units");
    String instant = hudiTableWithHudiPlan(path);
    Path twinPath = dir.resolve("hudi_units_twin");
    try (java.util.stream.Stream<Path> walk = Files.walk(path)) {
      for (Path p : walk.toList()) {
        Path target = twinPath.resolve(path.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    Table t = Tables.open(path.toString(), SLUICE);
    CompactionInfo units = t.compaction().runWith(instant, slices -> {
      List<CompactedSlice> out = new ArrayList<>();
      for (CompactionSlice s : slices) {
        CompactionUnits.compact(s, new WriteToken(s.index(), 3, 40 + s.index())).ifPresent(out::add);
      }
      return out;
    });
    CompactionInfo local = Tables.open(twinPath.toString(), SLUICE).compaction().run(instant);
    assertEquals(stats(local), stats(units));
    Map<String, Map<String, String>> rows = byKey(rows(t.newScan()));
    assertEquals(withoutFileName(byKey(rows(Tables.open(twinPath.toString(), SLUICE).newScan()))),
        withoutFileName(rows));
    OracleBatch reads = oracle.batch();
    OracleBatch.Pending<List<GenericRecord>> snapshot = reads.read(path, "snapshot", Optional.empty(), false);
    reads.run();
    assertEquals(rows, byKey(snapshot.get()), "Hudi reads the units' compaction of its plan");
  }

  private static List<String> stats(CompactionInfo info) {
    List<String> out = new ArrayList<>();
    for (WriteStatInfo w : info.commit().stats()) {
      out.add(w.partitionPath() + " " + w.fileId() + "@" + w.prevCommit() + " " + w.numWrites() + "/" + w.numDeletes()
          + "/" + w.numUpdateWrites() + "/" + w.numInserts() + "/" + w.totalLogRecords() + "/" + w.totalLogBlocks());
    }
    out.sort(null);
    return out;
  }
}
