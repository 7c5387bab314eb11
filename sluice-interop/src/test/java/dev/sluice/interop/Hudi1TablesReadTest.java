package dev.sluice.interop;

import static dev.sluice.interop.MergeOnReadInteropTest.SCHEMA;
import static dev.sluice.interop.MergeOnReadInteropTest.byKey;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static dev.sluice.interop.MergeOnReadInteropTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.QueryType;
import dev.sluice.api.RepairReport;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.service.TableInternals;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice reads tables Hudi 1.1.1's Java client wrote at table versions 9 and 8 (timeline layout 2, log files per
 * delta commit, completion-time file slices, merge modes): the same rows as Hudi 1.1.1's own read (snapshot,
 * read-optimized, time travel), the same latest file slices, the same completion times; a write that did not commit
 * stays invisible to both. Table services on such tables are refused without touching them.
 *
 * <p>Each table is built and read by Hudi in one oracle JVM ({@link OracleBatch}).
 */
class Hudi1TablesReadTest {

  /** Updates go to logs (no small-file packing), the metadata table off unless a test turns it on. */
  private static final Map<String, String> HUDI = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locateHudi1();
  }

  /** What one table's batch wrote and what Hudi read back. */
  private record Written(Path path, String beforeCompaction, OracleBatch.Pending<List<GenericRecord>> snapshot,
      OracleBatch.Pending<List<GenericRecord>> readOptimized, OracleBatch.Pending<List<GenericRecord>> asOf,
      OracleBatch.Pending<List<OracleFileSlice>> slices, OracleBatch.Pending<List<Map<String, String>>> timeline) {
  }

  /**
   * Creates a table with Hudi 1.1.1 and writes: an insert, upserts (one with a lower ordering value than stored), a
   * delete, a soft delete, on Merge-on-Read a compaction followed by more updates, and last an upsert left
   * uncommitted; then Hudi reads it.
   */
  private Written write(String name, String type, List<String> partitionBy, List<String> createOptions,
      Map<String, String> conf) {
    Path path = dir.resolve(name);
    OracleTableSpec.Builder spec = OracleTableSpec.builder(name, SCHEMA).recordKey("id").precombine("ts");
    spec = type.equals("MERGE_ON_READ") ? spec.mergeOnRead() : spec.copyOnWrite();
    if (!partitionBy.isEmpty()) {
      spec.partitionBy(partitionBy.toArray(String[]::new));
    }
    OracleBatch batch = oracle.batch();
    batch.create(path, spec.build(), createOptions);
    batch.write(path, "insert", SCHEMA, List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p1", "b"),
        row("k3", 1, "p1", "c"), row("k4", 1, "p2", "d"), row("k5", 1, "p2", "e"), row("k6", 1, "p2", "f")), conf);
    batch.write(path, "upsert", SCHEMA, List.of(row("k1", 5, "p1", "a5", "x"), row("k4", 5, "p2", "d5"),
        row("k2", 0, "p1", "b0")), conf);
    batch.write(path, "delete", SCHEMA, List.of(row("k3", 0, "p1", null)), conf);
    GenericRecord softDelete = row("k5", 9, "p2", "gone");
    softDelete.put("_hoodie_is_deleted", true);
    OracleBatch.Pending<String> beforeCompaction = batch.write(path, "upsert", SCHEMA,
        List.of(softDelete, row("k6", 7, "p2", "f7"), row("k7", 6, "p1", "g")), conf);
    boolean mor = type.equals("MERGE_ON_READ");
    if (mor) {
      batch.write(path, "compact", SCHEMA, List.of(), conf);
    }
    batch.write(path, "upsert", SCHEMA, List.of(row("k1", 8, "p1", "a8"), row("k4", 2, "p2", "d2"),
        row("k8", 3, "p2", "h")), conf);
    batch.write(path, "upsert", SCHEMA, List.of(row("k2", 99, "p1", "never"), row("k9", 99, "p2", "never")), conf,
        List.of("--uncommitted"));
    OracleBatch.Pending<List<GenericRecord>> snapshot = batch.read(path, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> readOptimized = mor
        ? batch.read(path, "read_optimized", Optional.empty(), false) : snapshot;
    OracleBatch.Pending<List<OracleFileSlice>> slices = batch.fsview(path);
    OracleBatch.Pending<List<Map<String, String>>> timeline = batch.timeline(path);
    batch.run();
    // time travel to the last delta commit before the compaction: needs its instant, so a second batch
    OracleBatch travel = oracle.batch();
    OracleBatch.Pending<List<GenericRecord>> asOf = travel.read(path, "snapshot", Optional.of(beforeCompaction.get()),
        false);
    travel.run();
    return new Written(path, beforeCompaction.get(), snapshot, readOptimized, asOf, slices, timeline);
  }

  private static void assertSluiceReadsAsHudi(Written w, int tableVersion, boolean mor) {
    Table table = Tables.open(w.path().toString());
    assertEquals(tableVersion, table.tableVersion());
    Map<String, Map<String, String>> hudi = byKey(w.snapshot().get());
    Map<String, Map<String, String>> sluice = byKey(rows(table.newScan()));
    assertEquals(hudi, sluice, "snapshot: Sluice vs Hudi 1.1.1");
    assertFalse(sluice.containsKey("k3") || sluice.containsKey("k5") || sluice.containsKey("k9"),
        "deleted and uncommitted keys are not read: " + sluice.keySet());
    assertFalse(sluice.get("k2").get("name").contains("never"),
        "the uncommitted write is not read: " + sluice.get("k2"));
    assertEquals(byKey(w.readOptimized().get()), byKey(rows(table.newScan().queryType(QueryType.READ_OPTIMIZED))),
        "read-optimized: Sluice vs Hudi 1.1.1");
    assertEquals(byKey(w.asOf().get()), byKey(rows(table.newScan().asOf(w.beforeCompaction()))),
        "time travel to " + w.beforeCompaction());
    assertEquals(w.slices().get(), slices(table), "latest file slices: Sluice vs Hudi 1.1.1");
    assertEquals(completionTimes(w.timeline().get()), completionTimes(TableInternals.timeline(table)),
        "completion times of the completed instants");
    if (mor) {
      assertTrue(w.slices().get().stream().anyMatch(s -> s.baseFile().isPresent() && !s.logFiles().isEmpty()),
          "a slice has a compacted base file and logs written after the compaction: " + w.slices().get());
    }
  }

  @Test
  void mergeOnReadVersion9WithCompactionReadsAsHudi() {
    Written w = write("mor_v9", "MERGE_ON_READ", List.of("part"), List.of(), HUDI);
    assertSluiceReadsAsHudi(w, 9, true);
  }

  @Test
  void copyOnWriteVersion9ReadsAsHudi() {
    Written w = write("cow_v9", "COPY_ON_WRITE", List.of("part"), List.of(), HUDI);
    assertSluiceReadsAsHudi(w, 9, false);
  }

  @Test
  void mergeOnReadVersion8CommitTimeOrderingReadsAsHudi() {
    Written w = write("mor_v8", "MERGE_ON_READ", List.of(),
        List.of("--table-version", "8", "--merge-mode", "COMMIT_TIME_ORDERING"), HUDI);
    assertSluiceReadsAsHudi(w, 8, true);
    // commit-time ordering: the later upsert of k4 wins although its ordering value is lower
    assertEquals("\"d2\"", byKey(w.snapshot().get()).get("k4").get("name"));
  }

  /**
   * With Hudi 1.x's metadata table (on by default there): Sluice reads the rows Hudi reads (listing through the
   * metadata table, {@link Hudi1MetadataTableReadTest}), and a repair finds nothing to do on the table Hudi 1.1.1
   * wrote (none of its files taken for damage or a leftover) and changes nothing. Writes on version 9 are
   * Hudi1ReadsSluiceTablesTest's.
   */
  @Test
  void aRepairFindsNothingOnAVersion9TableHudiWroteAndChangesNothing() {
    Path path = dir.resolve("refused_v9");
    Map<String, String> conf = new HashMap<>(HUDI);
    conf.put("hoodie.metadata.enable", "true");
    OracleBatch batch = oracle.batch();
    batch.create(path, OracleTableSpec.builder("refused_v9", SCHEMA).mergeOnRead().partitionBy("part").build(),
        List.of());
    batch.write(path, "insert", SCHEMA, List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p2", "b")), conf);
    batch.write(path, "upsert", SCHEMA, List.of(row("k1", 2, "p1", "b")), conf);
    OracleBatch.Pending<List<GenericRecord>> hudi = batch.read(path, "snapshot", Optional.empty(), false);
    batch.run();
    assertTrue(Files.isDirectory(path.resolve(".hoodie/metadata/.hoodie/timeline")), "Hudi kept a metadata table");
    Map<String, Long> before = files(path);
    Table table = Tables.open(path.toString());
    assertEquals(byKey(hudi.get()), byKey(rows(table.newScan())), "Sluice reads what Hudi 1.1.1 reads");
    // repair runs on version 9 through the timeline layout (sluice-core RepairV9Test): Hudi's own files are sound
    RepairReport dry = table.repair(false);
    assertTrue(dry.sound(), dry.items().toString());
    assertEquals(before, files(path), "the dry run changed nothing");
    // applied, nothing to fix either (an applied repair drops the metadata table, on every version)
    RepairReport applied = table.repair(true);
    assertTrue(applied.sound() && applied.backupFolder().isEmpty(), applied.items().toString());
    assertEquals(List.of(), table.inspect().archivedTimeline(), "nothing archived yet: the LSM timeline reads empty");
    try (CloseableIterator<GenericRecord> it = table.newScan().open()) {
      assertEquals("b", String.valueOf(it.next().get("name")), "the table still reads");
    }
    assertEquals(byKey(hudi.get()), byKey(rows(table.newScan())), "and reads the same");
  }

  /** Sluice's latest slices in the oracle's form and order. */
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

  private static Map<String, String> completionTimes(List<Map<String, String>> hudiTimeline) {
    Map<String, String> out = new TreeMap<>();
    for (Map<String, String> i : hudiTimeline) {
      if (i.get("state").equals("COMPLETED")) {
        out.put(i.get("time") + " " + i.get("action"), i.get("completionTime"));
      }
    }
    return out;
  }

  private static Map<String, String> completionTimes(Timeline timeline) {
    Map<String, String> out = new TreeMap<>();
    for (Instant i : timeline.completed().instants()) {
      out.put(i.time() + " " + i.action().id(), timeline.completionTime(i.time()).orElse("none"));
    }
    return out;
  }

  private static Map<String, Long> files(Path location) {
    try (Stream<Path> paths = Files.walk(location)) {
      Map<String, Long> out = new TreeMap<>();
      for (Path p : paths.filter(Files::isRegularFile).collect(Collectors.toList())) {
        out.put(location.relativize(p).toString(), Files.size(p));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
