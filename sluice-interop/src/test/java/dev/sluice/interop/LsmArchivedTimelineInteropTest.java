package dev.sluice.interop;

import static dev.sluice.interop.MergeOnReadInteropTest.SCHEMA;
import static dev.sluice.interop.MergeOnReadInteropTest.byKey;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static dev.sluice.interop.MergeOnReadInteropTest.rows;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.ArchivedInstantInfo;
import dev.sluice.api.CommitInfo;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.WriteStatInfo;
import dev.sluice.internal.service.TableInternals;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.lsm.LsmArchival;
import dev.sluice.internal.timeline.lsm.LsmManifest;
import dev.sluice.internal.timeline.lsm.LsmSettings;
import dev.sluice.internal.timeline.lsm.LsmTimeline;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LSM archived timeline of version-8/9 tables both ways with Hudi 1.1.1's Java client: Sluice reads the archive
 * Hudi's archival wrote (several snapshots, merged layers) as Hudi reads it; Hudi reads the archive Sluice's
 * {@link LsmArchival} wrote (a merged layer included) and its own archival goes on over Sluice's layers.
 *
 * <p>Archival settings keep the tables small: 2 to 3 commits on the active timeline, layers merged every 2 files.
 */
class LsmArchivedTimelineInteropTest {

  private static final Map<String, String> ARCHIVING = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3",
      "hoodie.cleaner.commits.retained", "1", "hoodie.timeline.compaction.batch.size", "2");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locateHudi1();
  }

  /** Writes {@code commits} upserts (the first an insert): an update of a rotating key and a new key each. */
  private static void writeCommits(OracleBatch batch, Path path, int from, int commits, Map<String, String> conf) {
    for (int i = from; i < from + commits; i++) {
      batch.write(path, i == 0 ? "insert" : "upsert", SCHEMA,
          List.of(row("k" + (i % 3), i, "p" + (i % 3 % 2), "v" + i), row("n" + i, i, "p1", "new" + i)), conf);
    }
  }

  private static void create(OracleBatch batch, Path path, String name, List<String> options) {
    batch.create(path, OracleTableSpec.builder(name, SCHEMA).recordKey("id").precombine("ts").mergeOnRead()
        .partitionBy("part").build(), options);
  }

  /** Sluice's archived timeline in the oracle's line format. */
  static List<Map<String, String>> sluiceArchived(Table table) {
    List<Map<String, String>> out = new ArrayList<>();
    for (ArchivedInstantInfo a : table.inspect().archivedTimeline()) {
      Map<String, String> line = new LinkedHashMap<>();
      line.put("time", a.instant().time());
      line.put("action", a.instant().action());
      line.put("state", a.instant().state().name());
      a.completionTime().ifPresent(c -> line.put("completionTime", c));
      boolean commit = a.instant().action().equals("commit") || a.instant().action().equals("deltacommit");
      if (commit && a.commit().isPresent()) {
        CommitInfo md = a.commit().get();
        line.put("recordsWritten", Long.toString(md.stats().stream().mapToLong(WriteStatInfo::numWrites).sum()));
      }
      out.add(line);
    }
    return out;
  }

  private static List<String> layers(Path table) {
    LsmTimeline lsm = LsmTimeline.of(new LocalStorage(), table.toString(),
        TableConfigStore.read(new LocalStorage(), table.toString()));
    return lsm.latestManifest().fileNames();
  }

  private static Path history(Path table) {
    return table.resolve(".hoodie/timeline/history");
  }

  private void sluiceReadsHudisArchive(String name, List<String> createOptions, int commits, int tableVersion)
      throws IOException {
    Path path = dir.resolve(name);
    OracleBatch batch = oracle.batch();
    create(batch, path, name, createOptions);
    writeCommits(batch, path, 0, commits, ARCHIVING);
    OracleBatch.Pending<List<Map<String, String>>> archived = batch.archivedTimeline(path);
    OracleBatch.Pending<List<GenericRecord>> snapshot = batch.read(path, "snapshot", Optional.empty(), false);
    batch.run();

    Table table = Tables.open(path.toString());
    assertEquals(tableVersion, table.tableVersion());
    List<Map<String, String>> hudi = archived.get();
    assertTrue(hudi.size() >= commits / 2, "Hudi archived several times: " + hudi);
    assertEquals(hudi, sluiceArchived(table), "archived instants, completion times and records: Sluice vs Hudi");
    assertTrue(layers(path).stream().anyMatch(f -> f.endsWith("_1.parquet")),
        "Hudi merged layer 0 into layer 1: " + layers(path));
    assertEquals(byKey(snapshot.get()), byKey(rows(table.newScan())), "snapshot with archived delta commits' logs");
    // the manifests Hudi wrote are the bytes Sluice writes for the same list
    try (Stream<Path> files = Files.list(history(path))) {
      for (Path m : files.filter(f -> f.getFileName().toString().matches("manifest_\\d+")).toList()) {
        byte[] bytes = Files.readAllBytes(m);
        assertArrayEquals(bytes, LsmManifest.parse(bytes, m.toString()).toJson(), m.toString());
      }
    }
  }

  @Test
  void sluiceReadsTheLsmArchiveHudiWroteVersion9() throws IOException {
    sluiceReadsHudisArchive("lsm_v9", List.of(), 8, 9);
  }

  @Test
  void sluiceReadsTheLsmArchiveHudiWroteVersion8() throws IOException {
    sluiceReadsHudisArchive("lsm_v8", List.of("--table-version", "8"), 6, 8);
  }

  /**
   * Hudi writes 7 commits without archiving; Sluice archives the first two, then the next two (its second archival
   * merges both layer-0 files into layer 1), moving the active instant files as Hudi does; Hudi reads Sluice's
   * archive and the table; then Hudi writes 3 more commits with its archival on, which archives twice and merges
   * its own files and Sluice's layer-1 file into layer 2; Sluice reads that archive as Hudi does.
   */
  @Test
  void hudiReadsAndContinuesTheLsmArchiveSluiceWrote() throws IOException {
    Path path = dir.resolve("lsm_sluice");
    Map<String, String> noArchival = new HashMap<>(ARCHIVING);
    noArchival.put("hoodie.archive.automatic", "false");
    OracleBatch batch = oracle.batch();
    create(batch, path, "lsm_sluice", List.of());
    writeCommits(batch, path, 0, 7, noArchival);
    OracleBatch.Pending<List<Map<String, String>>> activeBefore = batch.timeline(path);
    batch.run();

    Table table = Tables.open(path.toString());
    List<Instant> commits = TableInternals.timeline(table).completed().instants().stream()
        .filter(i -> i.action() == Action.DELTACOMMIT).toList();
    assertEquals(7, commits.size());
    LocalStorage storage = new LocalStorage();
    LsmArchival archival = LsmArchival.of(storage, path.toString(), TableConfigStore.read(storage, path.toString()),
        new LsmSettings("gzip", 2));
    LsmArchival.Result first = archival.archive(commits.subList(0, 2)).orElseThrow();
    assertEquals(List.of(), first.merged());
    LsmArchival.Result second = archival.archive(commits.subList(2, 4)).orElseThrow();
    assertEquals(1, second.merged().size(), "the second layer-0 file merges both into layer 1: " + second);
    assertEquals(List.of(second.merged().get(0)), layers(path));
    // every state file of the archived instants is gone from the active timeline, the rest is untouched
    try (Stream<Path> files = Files.list(path.resolve(".hoodie/timeline"))) {
      List<String> names = files.map(f -> f.getFileName().toString()).filter(f -> !f.startsWith(".")).toList();
      for (Instant i : commits.subList(0, 4)) {
        assertFalse(names.stream().anyMatch(n -> n.startsWith(i.time())), i + " left in " + names);
      }
      for (Instant i : commits.subList(4, 7)) {
        assertEquals(3, names.stream().filter(n -> n.startsWith(i.time())).count(), i + " in " + names);
      }
    }
    Map<String, String> completions = new HashMap<>();
    for (Map<String, String> line : activeBefore.get()) {
      if (line.containsKey("completionTime")) {
        completions.put(line.get("time"), line.get("completionTime"));
      }
    }

    OracleBatch read = oracle.batch();
    OracleBatch.Pending<List<Map<String, String>>> hudiArchived = read.archivedTimeline(path);
    OracleBatch.Pending<List<GenericRecord>> hudiRows = read.read(path, "snapshot", Optional.empty(), false);
    read.run();

    List<Map<String, String>> archivedBySluice = hudiArchived.get();
    assertEquals(commits.subList(0, 4).stream().map(Instant::time).toList(),
        archivedBySluice.stream().map(l -> l.get("time")).toList(), "Hudi reads the instants Sluice archived");
    for (Map<String, String> line : archivedBySluice) {
      assertEquals(completions.get(line.get("time")), line.get("completionTime"), "completion time of " + line);
      assertEquals("2", line.get("recordsWritten"), "Hudi decodes the archived commit metadata: " + line);
    }
    assertEquals(byKey(hudiRows.get()), byKey(rows(Tables.open(path.toString()).newScan())),
        "Hudi and Sluice read the table Sluice archived alike");

    OracleBatch more = oracle.batch();
    writeCommits(more, path, 7, 3, ARCHIVING);
    OracleBatch.Pending<List<Map<String, String>>> hudiArchivedAfter = more.archivedTimeline(path);
    OracleBatch.Pending<List<GenericRecord>> hudiRowsAfter = more.read(path, "snapshot", Optional.empty(), false);
    more.run();

    List<String> after = layers(path);
    assertTrue(after.stream().anyMatch(f -> f.endsWith("_2.parquet")),
        "Hudi's archival merged Sluice's layer-1 file with its own into layer 2: " + after);
    List<Map<String, String>> hudiAfter = hudiArchivedAfter.get();
    assertTrue(hudiAfter.size() >= 8, "Hudi archived on top of Sluice's archive: " + hudiAfter);
    assertEquals(archivedBySluice, hudiAfter.subList(0, 4), "Sluice's archived instants survive Hudi's merges");
    Table reopened = Tables.open(path.toString());
    assertEquals(hudiAfter, sluiceArchived(reopened), "Sluice reads the archive Hudi continued");
    assertEquals(byKey(hudiRowsAfter.get()), byKey(rows(reopened.newScan())), "rows after Hudi continued");
  }
}
