package dev.sluice.interop;

import static dev.sluice.interop.MergeOnReadInteropTest.SCHEMA;
import static dev.sluice.interop.MergeOnReadInteropTest.byKey;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static dev.sluice.interop.MergeOnReadInteropTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.MergeMode;
import dev.sluice.api.QueryType;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.service.TableInternals;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.storage.LocalStorage;
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
 * Hudi 1.1.1 reads and continues the version-8 and version-9 tables Sluice writes: the same rows (meta columns
 * included), the same latest file slices and the same completion times as Sluice, for Copy-on-Write and
 * Merge-on-Read, partitioned and not; its Java client upserts on top of a Sluice table and Sluice on top of that; a
 * Sluice write that died before its commit stays invisible to Hudi and is rolled back (its files deleted, a layout-2
 * rollback instant) by Sluice's next write.
 *
 * <p>The Hudi side of each test runs in one or two oracle JVMs ({@link OracleBatch}).
 */
class Hudi1ReadsSluiceTablesTest {
  private static final Map<String, String> SLUICE = Map.of("hoodie.index.bloom.num_entries", "1000",
      "hoodie.parquet.small.file.limit", "0");
  private static final Map<String, String> HUDI = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locateHudi1();
  }

  Table create(String name, TableType type, int version, boolean partitioned, MergeMode mode) {
    TableSpec.Builder spec = TableSpec.builder(name).type(type).recordKey("id").precombine("ts").schema(SCHEMA)
        .mergeMode(mode).tableVersion(version);
    if (partitioned) {
      spec.partitionBy("part");
    }
    return Tables.create(dir.resolve(name).toString(), spec.build(), Config.of(SLUICE));
  }

  /** Insert, upsert (one lower ordering value), delete, soft delete, bulk insert, upsert. */
  static void writeAll(Table t) {
    t.insert(List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p1", "b"), row("k3", 1, "p1", "c"),
        row("k4", 1, "p2", "d"), row("k5", 1, "p2", "e"), row("k6", 1, "p2", "f")).iterator());
    t.upsert(List.of(row("k1", 5, "p1", "a5", "x"), row("k4", 5, "p2", "d5"), row("k2", 0, "p1", "b0")).iterator());
    t.delete(List.of(row("k3", 0, "p1", null)).iterator());
    GenericRecord soft = row("k5", 9, "p2", "gone");
    soft.put("_hoodie_is_deleted", true);
    t.upsert(List.of(soft, row("k6", 7, "p2", "f7")).iterator());
    t.bulkInsert(List.of(row("k7", 1, "p1", "g"), row("k8", 1, "p2", "h")).iterator());
    t.upsert(List.of(row("k1", 8, "p1", "a8"), row("k7", 2, "p1", "g2")).iterator());
  }

  /** What Hudi read of one table. */
  record HudiView(OracleBatch.Pending<List<GenericRecord>> snapshot,
      Optional<OracleBatch.Pending<List<GenericRecord>>> readOptimized, OracleBatch.Pending<List<OracleFileSlice>> slices,
      OracleBatch.Pending<List<Map<String, String>>> timeline) {
  }

  static HudiView ask(OracleBatch batch, Table t, boolean useMetadata) {
    Path p = Path.of(t.location());
    return new HudiView(batch.read(p, "snapshot", Optional.empty(), useMetadata),
        t.type() == TableType.MERGE_ON_READ ? Optional.of(batch.read(p, "read_optimized", Optional.empty(), false))
            : Optional.empty(), batch.fsview(p), batch.timeline(p));
  }

  static void assertSame(HudiView hudi, Table t) {
    String what = t.location() + " (table version " + t.tableVersion() + ")";
    assertEquals(byKey(hudi.snapshot().get()), byKey(rows(t.newScan())), "snapshot, Hudi 1.1.1 vs Sluice: " + what);
    hudi.readOptimized().ifPresent(ro -> assertEquals(byKey(ro.get()),
        byKey(rows(t.newScan().queryType(QueryType.READ_OPTIMIZED))), "read-optimized: " + what));
    assertEquals(hudi.slices().get(), slices(t), "latest file slices: " + what);
    assertEquals(completionTimes(hudi.timeline().get()), completionTimes(TableInternals.timeline(t)),
        "completion times Hudi parsed from Sluice's timeline file names: " + what);
    assertEquals(commitContents(t), hudiCommitContents(hudi.timeline().get()),
        "each commit's metadata as Hudi's serde decodes it (operation, records, write stats): " + what);
  }

  /** Sluice's completed commits: operation type, records written and write stats, in the oracle's form. */
  static Map<String, String> commitContents(Table t) {
    Map<String, String> out = new TreeMap<>();
    t.inspect().completedCommits().forEach((time, c) -> {
      long written = c.stats().stream().mapToLong(s -> s.numWrites()).sum();
      String stats = c.stats().stream().map(s -> s.partitionPath() + "/" + s.fileId() + ":" + s.prevCommit() + ":"
          + s.numWrites() + ":" + s.numDeletes()).sorted().collect(Collectors.joining(","));
      out.put(time, c.operation() + " " + written + " " + stats);
    });
    return out;
  }

  static Map<String, String> hudiCommitContents(List<Map<String, String>> hudiTimeline) {
    Map<String, String> out = new TreeMap<>();
    for (Map<String, String> i : hudiTimeline) {
      if (i.containsKey("operationType")) {
        out.put(i.get("time"), i.get("operationType") + " " + i.get("recordsWritten") + " " + i.get("writeStats"));
      }
    }
    return out;
  }

  @Test
  void hudiReadsSluicesVersion8And9TablesAsSluiceDoes() {
    List<Table> tables = List.of(
        create("mor_v9_part", TableType.MERGE_ON_READ, 9, true, MergeMode.EVENT_TIME_ORDERING),
        create("cow_v9", TableType.COPY_ON_WRITE, 9, false, MergeMode.EVENT_TIME_ORDERING),
        create("mor_v8", TableType.MERGE_ON_READ, 8, false, MergeMode.COMMIT_TIME_ORDERING),
        create("cow_v8_part", TableType.COPY_ON_WRITE, 8, true, MergeMode.EVENT_TIME_ORDERING));
    tables.forEach(Hudi1ReadsSluiceTablesTest::writeAll);
    OracleBatch batch = oracle.batch();
    List<HudiView> views = tables.stream().map(t -> ask(batch, t, false)).toList();
    batch.run();
    for (int i = 0; i < tables.size(); i++) {
      assertSame(views.get(i), tables.get(i));
    }
    Map<String, Map<String, String>> morV9 = byKey(views.get(0).snapshot().get());
    assertEquals(List.of("k1", "k2", "k4", "k6", "k7", "k8"), List.copyOf(morV9.keySet()));
    assertEquals("\"b\"", morV9.get("k2").get("name"), "event time: the lower ordering value lost in Hudi's read too");
    assertEquals("\"b0\"", byKey(views.get(2).snapshot().get()).get("k2").get("name"),
        "commit time (v8): the later write won in Hudi's read");
    // Merge-on-Read: the slices have logs, each named after its own delta commit (Hudi's slicing agrees above)
    assertTrue(views.get(0).slices().get().stream().anyMatch(s -> s.logFiles().size() >= 2),
        "a slice with logs of two delta commits: " + views.get(0).slices().get());
  }

  /**
   * Sluice creates a version-9 table with its metadata table (Hudi 1.x's form); Hudi 1.1.1 lists it through that
   * metadata table as storage holds it; Hudi's Java client upserts on top and keeps Sluice's metadata table (its
   * initialization and Sluice's deltacommits stay, Hudi's deltacommits follow: no rebuild); Sluice's next upsert keeps
   * it too (dropping the partitions it does not maintain), and Hudi, reading and listing through it, reads what Sluice
   * reads.
   */
  @Test
  void hudiAndSluiceContinueEachOthersVersion9Table() throws IOException {
    Table t = create("shared_v9", TableType.MERGE_ON_READ, 9, true, MergeMode.EVENT_TIME_ORDERING);
    Path p = Path.of(t.location());
    String first = t.insert(List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p2", "b"), row("k3", 1, "p2", "c"))
        .iterator()).instantTime();
    Path mdtTimeline = p.resolve(".hoodie/metadata/.hoodie/timeline");
    List<String> sluiceMdt = names(mdtTimeline);
    assertTrue(sluiceMdt.stream().anyMatch(n -> n.matches("00000000000000000_\\d{17}\\.deltacommit")), sluiceMdt
        .toString());
    assertTrue(sluiceMdt.stream().anyMatch(n -> n.matches(first + "_\\d{17}\\.deltacommit")), sluiceMdt.toString());
    Map<String, String> hudiWithMetadata = new HashMap<>(HUDI);
    hudiWithMetadata.put("hoodie.metadata.enable", "true");
    OracleBatch hudiWrites = oracle.batch();
    OracleBatch.Pending<Map<String, Map<String, Long>>> sluiceListing = hudiWrites.metadataListing(p);
    hudiWrites.write(p, "upsert", SCHEMA, List.of(row("k1", 2, "p1", "a2"), row("k4", 1, "p1", "d")), hudiWithMetadata);
    hudiWrites.write(p, "delete", SCHEMA, List.of(row("k3", 0, "p2", null)), hudiWithMetadata);
    OracleBatch.Pending<List<GenericRecord>> afterHudi = hudiWrites.read(p, "snapshot", Optional.empty(), true);
    OracleBatch.Pending<Map<String, Map<String, Long>>> hudiListing = hudiWrites.metadataListing(p);
    hudiWrites.run();
    assertFalse(sluiceListing.get().isEmpty(), "Hudi listed Sluice's metadata table");
    List<String> afterHudiMdt = names(mdtTimeline);
    assertTrue(afterHudiMdt.containsAll(sluiceMdt.stream().filter(n -> n.endsWith(".deltacommit")).toList()),
        "Hudi kept Sluice's metadata table, no rebuild: " + sluiceMdt + " / " + afterHudiMdt);
    assertEquals(1, afterHudiMdt.stream().filter(n -> n.matches("00000000000000000_\\d{17}\\.deltacommit")).count(),
        afterHudiMdt.toString());
    assertTrue(afterHudiMdt.stream().filter(n -> n.matches("\\d{17}_\\d{17}\\.deltacommit")).count()
        >= sluiceMdt.stream().filter(n -> n.matches("\\d{17}_\\d{17}\\.deltacommit")).count() + 2,
        "Hudi's two writes mirrored into it: " + afterHudiMdt);
    assertEquals(MetadataListingOracleTest.listing(p), hudiListing.get(), "Hudi's metadata listing is storage's");
    assertEquals(byKey(afterHudi.get()), byKey(rows(t.newScan())), "Sluice reads Hudi's writes on its table");

    String last = t.upsert(List.of(row("k2", 5, "p2", "b5"), row("k1", 1, "p1", "older"), row("k5", 1, "p2", "e"))
        .iterator()).instantTime();
    List<String> afterSluice = names(mdtTimeline);
    assertTrue(afterSluice.containsAll(afterHudiMdt.stream().filter(n -> n.endsWith(".deltacommit")).toList()),
        "Sluice kept Hudi's metadata timeline: " + afterSluice);
    assertTrue(afterSluice.stream().anyMatch(n -> n.matches(last + "_\\d{17}\\.deltacommit")), afterSluice.toString());
    String props = Files.readString(p.resolve(".hoodie/hoodie.properties"));
    assertTrue(props.contains("hoodie.table.metadata.partitions=files\n"), "only files is listed: " + props);
    OracleBatch read = oracle.batch();
    HudiView hudi = ask(read, t, true);
    OracleBatch.Pending<List<OracleFileSlice>> throughMetadata = read.fsviewThroughMetadata(p);
    OracleBatch.Pending<Map<String, Map<String, Long>>> listing = read.metadataListing(p);
    read.run();
    assertSame(hudi, t);
    assertEquals(hudi.slices().get(), throughMetadata.get(), "Hudi's slices through Sluice's metadata table");
    assertEquals(MetadataListingOracleTest.listing(p), listing.get(), "Hudi's metadata listing is storage's");
    Map<String, Map<String, String>> rows = byKey(hudi.snapshot().get());
    assertEquals("\"a2\"", rows.get("k1").get("name"), "Hudi's update with the larger ordering value stays");
    assertEquals("\"b5\"", rows.get("k2").get("name"));
    assertFalse(rows.containsKey("k3"), "Hudi's delete stays");
  }

  /**
   * A version-9 table partitioned by two fields with one record key field (Hudi's complex key generator): Sluice
   * writes its keys as {@code id:value}, as Hudi 1.1.1 does, so Hudi's upsert of a key Sluice wrote updates that row
   * and Sluice's upsert of it after Hudi's does too (with plain values each side would have added a second row).
   */
  @Test
  void aSingleFieldComplexKeyOnVersion9IsTheKeyHudiWrites() {
    Table t = Tables.create(dir.resolve("complex_v9").toString(), TableSpec.builder("complex_v9")
        .type(TableType.MERGE_ON_READ).recordKey("id").precombine("ts").schema(SCHEMA)
        .mergeMode(MergeMode.EVENT_TIME_ORDERING).tableVersion(9).partitionBy("part", "name").build(), Config.of(SLUICE));
    Path p = Path.of(t.location());
    t.insert(List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p2", "b")).iterator());
    OracleBatch hudiWrites = oracle.batch();
    hudiWrites.write(p, "upsert", SCHEMA, List.of(row("k1", 2, "p1", "a", "by-hudi")), HUDI);
    hudiWrites.run();
    t.upsert(List.of(row("k1", 3, "p1", "a", "by-sluice"), row("k2", 2, "p2", "b", "by-sluice")).iterator());
    OracleBatch read = oracle.batch();
    HudiView hudi = ask(read, t, false);
    read.run();
    assertSame(hudi, t);
    Map<String, Map<String, String>> rows = byKey(hudi.snapshot().get());
    assertEquals(List.of("id:k1", "id:k2"), List.copyOf(rows.keySet()), "one row per key, keys as Hudi 1.1.1 makes them");
    assertEquals("[\"by-sluice\"]", rows.get("id:k1").get("tags"), "Sluice's update replaced Hudi's");
    assertEquals("[\"by-sluice\"]", rows.get("id:k2").get("tags"));
  }

  private static List<String> names(Path folder) throws IOException {
    try (Stream<Path> s = Files.list(folder)) {
      return s.filter(Files::isRegularFile).map(f -> f.getFileName().toString()).filter(n -> !n.startsWith("."))
          .sorted().toList();
    }
  }

  /**
   * Sluice continues a version-9 table Hudi 1.1.1 created and wrote with its metadata table: the metadata table is
   * kept (Hudi's initialization and deltacommits stay, Sluice's follow, only {@code files} stays listed), and Hudi
   * reads the result, its file-system view and metadata listing through it equal to storage.
   */
  @Test
  void sluiceContinuesAHudiVersion9Table() throws IOException {
    Path p = dir.resolve("hudi_v9");
    Map<String, String> hudiWithMetadata = new HashMap<>(HUDI);
    hudiWithMetadata.put("hoodie.metadata.enable", "true");
    OracleBatch batch = oracle.batch();
    batch.create(p, OracleTableSpec.builder("hudi_v9", SCHEMA).recordKey("id").precombine("ts").mergeOnRead()
        .partitionBy("part").build(), List.of());
    batch.write(p, "insert", SCHEMA, List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p2", "b")), hudiWithMetadata);
    batch.write(p, "upsert", SCHEMA, List.of(row("k1", 2, "p1", "a2")), hudiWithMetadata);
    batch.run();
    Path mdtTimeline = p.resolve(".hoodie/metadata/.hoodie/timeline");
    List<String> hudiMdt = names(mdtTimeline).stream().filter(n -> n.endsWith(".deltacommit")).toList();
    Table t = Tables.open(p.toString(), Config.of(SLUICE));
    assertEquals(9, t.tableVersion());
    String first = t.upsert(List.of(row("k1", 3, "p1", "a3"), row("k3", 1, "p1", "c")).iterator()).instantTime();
    t.delete(List.of(row("k2", 0, "p2", null)).iterator());
    List<String> after = names(mdtTimeline);
    assertTrue(after.containsAll(hudiMdt), "Hudi's metadata timeline kept, no rebuild: " + hudiMdt + " / " + after);
    assertTrue(after.stream().anyMatch(n -> n.matches(first + "_\\d{17}\\.deltacommit")), after.toString());
    assertTrue(Files.readString(p.resolve(".hoodie/hoodie.properties"))
        .contains("hoodie.table.metadata.partitions=files\n"));
    OracleBatch read = oracle.batch();
    HudiView hudi = ask(read, t, true);
    OracleBatch.Pending<List<OracleFileSlice>> throughMetadata = read.fsviewThroughMetadata(p);
    OracleBatch.Pending<Map<String, Map<String, Long>>> listing = read.metadataListing(p);
    read.run();
    assertSame(hudi, t);
    assertEquals(hudi.slices().get(), throughMetadata.get(), "Hudi's slices through the metadata table Sluice kept");
    assertEquals(MetadataListingOracleTest.listing(p), listing.get(), "Hudi's metadata listing is storage's");
    assertEquals(List.of("k1", "k3"), List.copyOf(byKey(hudi.snapshot().get()).keySet()));
  }

  /**
   * A Sluice write on a version-9 table that dies as it publishes its completed delta commit: Hudi reads the table as
   * before it (its log file is not committed), and Sluice's next write rolls it back by deleting that log file
   * (Hudi 1.x's rollback: no command block), recording a rollback instant Hudi parses.
   */
  @Test
  void aFailedSluiceWriteOnVersion9IsInvisibleToHudiAndRolledBackByTheNextWrite() {
    Table t = create("failed_v9", TableType.MERGE_ON_READ, 9, true, MergeMode.EVENT_TIME_ORDERING);
    Path p = Path.of(t.location());
    t.insert(List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p2", "b")).iterator());
    t.upsert(List.of(row("k1", 2, "p1", "a2")).iterator());
    CrashingStorage crashing = new CrashingStorage(new LocalStorage(),
        path -> path.contains("/.hoodie/timeline/") && path.matches(".*/\\d+_\\d+\\.deltacommit"));
    Table dying = Tables.open(crashing.storage(), p.toString(), Config.of(SLUICE));
    assertThrows(RuntimeException.class, () -> dying.upsert(List.of(row("k1", 9, "p1", "never"),
        row("k2", 9, "p2", "never")).iterator()));
    assertTrue(crashing.crashed());
    List<Path> failedLogs = logFiles(p).stream().filter(l -> l.getFileName().toString().contains("_"
        + pendingDeltaCommit(p) + ".log.")).toList();
    assertEquals(2, failedLogs.size(), "the failed write left a log file in each partition: " + logFiles(p));

    OracleBatch before = oracle.batch();
    HudiView hudiBefore = ask(before, t, false);
    before.run();
    assertSame(hudiBefore, t);
    assertFalse(byKey(hudiBefore.snapshot().get()).toString().contains("never"), "the failed write is not read");

    t.upsert(List.of(row("k2", 3, "p2", "b3")).iterator());
    failedLogs.forEach(l -> assertFalse(Files.exists(l), "the rollback deleted " + l));
    OracleBatch after = oracle.batch();
    HudiView hudiAfter = ask(after, t, false);
    after.run();
    assertSame(hudiAfter, t);
    assertTrue(hudiAfter.timeline().get().stream().anyMatch(i -> "rollback".equals(i.get("action"))
        && "COMPLETED".equals(i.get("state")) && i.get("completionTime") != null),
        "Hudi parsed Sluice's rollback instant: " + hudiAfter.timeline().get());
  }

  private static String pendingDeltaCommit(Path table) {
    try (Stream<Path> s = Files.list(table.resolve(".hoodie/timeline"))) {
      return s.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".deltacommit.inflight"))
          .map(n -> n.substring(0, n.indexOf('.'))).max(Comparator.naturalOrder()).orElseThrow();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> logFiles(Path table) {
    try (Stream<Path> s = Files.walk(table)) {
      return s.filter(f -> !f.toString().contains("/.hoodie/") && f.getFileName().toString().contains(".log."))
          .sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sluice's latest slices in the oracle's form and order. */
  static List<OracleFileSlice> slices(Table t) {
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

  static Map<String, String> completionTimes(List<Map<String, String>> hudiTimeline) {
    Map<String, String> out = new TreeMap<>();
    for (Map<String, String> i : hudiTimeline) {
      if (i.get("state").equals("COMPLETED")) {
        out.put(i.get("time") + " " + i.get("action"), i.get("completionTime"));
      }
    }
    return out;
  }

  static Map<String, String> completionTimes(Timeline timeline) {
    Map<String, String> out = new TreeMap<>();
    for (Instant i : timeline.completed().instants()) {
      out.put(i.time() + " " + i.action().id(), timeline.completionTime(i.time()).orElse("none"));
    }
    return out;
  }
}
