package dev.sluice.interop;

import static dev.sluice.interop.MergeOnReadInteropTest.SCHEMA;
import static dev.sluice.interop.MergeOnReadInteropTest.byKey;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static dev.sluice.interop.MergeOnReadInteropTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.MergeMode;
import dev.sluice.api.QueryType;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.UpgradeInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upgrades between Sluice and Hudi: a version-6 table Sluice wrote (Copy-on-Write and Merge-on-Read, with archived
 * instants, a metadata table and, for Merge-on-Read, log files) reads in Hudi 1.1.1 after {@code Table.upgrade(9)}
 * exactly as it read in Hudi 0.15 before (rows, archived instants and their commit metadata, completion times of the
 * active timeline), and Hudi 1.1.1 writes on it; a version-6 table Hudi 1.1.1's writer upgraded on its own opens in
 * Sluice, reads as Hudi reads it and takes Sluice's writes, with the {@code hoodie.properties} keys the upgrade sets
 * equal to those of Sluice's upgrade of the same table. Each Hudi version runs in one oracle JVM per phase.
 */
class UpgradeInteropTest {
  /**
   * Archival after a few commits; Merge-on-Read compacted every third delta commit (archival stops at the oldest
   * uncompacted one), so that the last writes stay in log files for the upgrade's own compaction.
   */
  private static final Map<String, String> SLUICE = Map.of("hoodie.index.bloom.num_entries", "1000",
      "hoodie.parquet.small.file.limit", "0", "hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3",
      "hoodie.cleaner.commits.retained", "1", "hoodie.compact.inline", "true", "hoodie.compact.inline.max.delta.commits",
      "3", "hoodie.metadata.enable", "true");
  private static final Map<String, String> HUDI = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000");
  /** The keys Hudi's upgrade 6 → 9 sets or removes. */
  private static final List<String> UPGRADE_KEYS = List.of("hoodie.table.version", "hoodie.table.initial.version",
      "hoodie.timeline.layout.version", "hoodie.timeline.path", "hoodie.record.merge.mode",
      "hoodie.table.ordering.fields", "hoodie.table.precombine.field", "hoodie.compaction.payload.class",
      "hoodie.table.legacy.payload.class", "hoodie.record.merge.strategy.id",
      "hoodie.compaction.record.merger.strategy", "hoodie.table.keygenerator.type", "hoodie.table.keygenerator.class",
      "hoodie.table.partial.update.mode");

  private static HudiOracle hudi015;
  private static HudiOracle hudi111;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    hudi015 = HudiOracle.locate();
    hudi111 = HudiOracle.locateHudi1();
  }

  /** A version-6 table with nine writes: some archived, a metadata table, log files if Merge-on-Read. */
  private Table version6(String name, TableType type) {
    Table t = Tables.create(dir.resolve(name).toString(), TableSpec.builder(name).type(type).recordKey("id")
        .precombine("ts").partitionBy("part").schema(SCHEMA).mergeMode(MergeMode.EVENT_TIME_ORDERING).tableVersion(6).build(),
        Config.of(SLUICE));
    t.insert(List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p1", "b"), row("k3", 1, "p2", "c"),
        row("k4", 1, "p2", "d")).iterator());
    for (int i = 2; i <= 8; i++) {
      // a key stays in its partition (k1, k2 in p1; k3, k4 in p2): the bloom index is per partition
      int k = i % 4 + 1;
      t.upsert(List.of(row("k" + k, i, k <= 2 ? "p1" : "p2", "v" + i), row("n" + i, 1, "p1", "n")).iterator());
    }
    t.delete(List.of(row("k2", 0, "p1", null)).iterator());
    return t;
  }

  /**
   * Rows by key without {@code _hoodie_file_name}: the upgrade's compaction moves Merge-on-Read rows to new files; and
   * Hudi 1.1.1 puts an old (version-6, already compacted) log file whose base instant is archived into the latest
   * slice (it finds no completion time for it), so it reports such a record's file as the log's file group where
   * Sluice reports the base file; the values agree.
   */
  private static Map<String, Map<String, String>> content(List<GenericRecord> rows) {
    Map<String, Map<String, String>> out = byKey(rows);
    out.values().forEach(r -> r.remove("_hoodie_file_name"));
    return out;
  }

  /** Completed archived instants as Hudi lists them: time, action and records written. */
  private static Map<String, String> archived(List<Map<String, String>> timeline) {
    Map<String, String> out = new TreeMap<>();
    for (Map<String, String> i : timeline) {
      if ("COMPLETED".equals(i.get("state"))) {
        out.put(i.get("time"), i.get("action") + " " + i.getOrDefault("recordsWritten", "-"));
      }
    }
    return out;
  }

  private static Map<String, String> completionTimes(List<Map<String, String>> timeline) {
    Map<String, String> out = new TreeMap<>();
    timeline.stream().filter(i -> i.containsKey("completionTime"))
        .forEach(i -> out.put(i.get("time") + "." + i.get("action"), i.get("completionTime")));
    return out;
  }

  /** Requested time and action → completion time, from the names {@code <t>_<c>.<action>} in .hoodie/timeline. */
  private static Map<String, String> completionTimesOnDisk(Path table) {
    Map<String, String> out = new TreeMap<>();
    try (java.util.stream.Stream<Path> files = Files.list(table.resolve(".hoodie/timeline"))) {
      for (Path f : files.toList()) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)_(\\d+)\\.(\\w+)")
            .matcher(f.getFileName().toString());
        if (m.matches()) {
          out.put(m.group(1) + "." + m.group(3), m.group(2));
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out;
  }

  private static List<String> names(Path folder) throws IOException {
    try (java.util.stream.Stream<Path> s = Files.list(folder)) {
      return s.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  private static Properties properties(Path table) throws IOException {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(table.resolve(".hoodie/hoodie.properties"))) {
      p.load(in);
    }
    return p;
  }

  private static Map<String, String> upgradeKeys(Path table) throws IOException {
    Properties p = properties(table);
    Map<String, String> out = new LinkedHashMap<>();
    for (String k : UPGRADE_KEYS) {
      out.put(k, p.getProperty(k, "<absent>"));
    }
    return out;
  }

  @Test
  void sluicesUpgradeTo9ReadsInHudi111AsVersion6ReadInHudi015() {
    List<Table> tables = List.of(version6("cow", TableType.COPY_ON_WRITE), version6("mor", TableType.MERGE_ON_READ));
    OracleBatch before = hudi015.batch();
    List<OracleBatch.Pending<List<GenericRecord>>> snapshots015 = new ArrayList<>();
    List<OracleBatch.Pending<List<Map<String, String>>>> archived015 = new ArrayList<>();
    List<OracleBatch.Pending<List<OracleFileSlice>>> slices015 = new ArrayList<>();
    for (Table t : tables) {
      snapshots015.add(before.read(Path.of(t.location()), "snapshot", Optional.empty(), false));
      archived015.add(before.archivedTimeline(Path.of(t.location())));
      slices015.add(before.fsview(Path.of(t.location())));
    }
    before.run();

    List<Table> upgraded = new ArrayList<>();
    List<Map<String, String>> sluiceCompletion = new ArrayList<>();
    for (Table t : tables) {
      UpgradeInfo info = t.upgrade(9);
      assertTrue(info.archivedInstants() > 0, "instants were archived before the upgrade: " + info);
      assertTrue(info.metadataTableKept(), t.location());
      upgraded.add(Tables.open(t.location(), Config.of(SLUICE)));
      sluiceCompletion.add(completionTimesOnDisk(Path.of(t.location())));
    }
    OracleBatch after = hudi111.batch();
    List<OracleBatch.Pending<List<GenericRecord>>> snapshots = new ArrayList<>();
    List<OracleBatch.Pending<List<GenericRecord>>> readOptimized = new ArrayList<>();
    List<OracleBatch.Pending<List<Map<String, String>>>> archived = new ArrayList<>();
    List<OracleBatch.Pending<List<Map<String, String>>>> active = new ArrayList<>();
    List<OracleBatch.Pending<List<GenericRecord>>> afterHudiWrite = new ArrayList<>();
    List<OracleBatch.Pending<List<GenericRecord>>> withMetadata = new ArrayList<>();
    List<OracleBatch.Pending<List<OracleFileSlice>>> throughMetadata = new ArrayList<>();
    List<OracleBatch.Pending<List<OracleFileSlice>>> fromStorage = new ArrayList<>();
    List<OracleBatch.Pending<Map<String, Map<String, Long>>>> metadataFiles = new ArrayList<>();
    for (Table t : upgraded) {
      Path p = Path.of(t.location());
      // the metadata table Sluice upgraded, as Hudi 1.1.1 reads it (hoodie.metadata.enable=true)
      withMetadata.add(after.read(p, "snapshot", Optional.empty(), true));
      throughMetadata.add(after.fsviewThroughMetadata(p));
      fromStorage.add(after.fsview(p));
      metadataFiles.add(after.metadataListing(p));
      snapshots.add(after.read(p, "snapshot", Optional.empty(), false));
      readOptimized.add(after.read(p, "read_optimized", Optional.empty(), false));
      archived.add(after.archivedTimeline(p));
      active.add(after.timeline(p));
    }
    for (Table t : upgraded) {
      Path p = Path.of(t.location());
      after.write(p, "upsert", SCHEMA, List.of(row("k1", 50, "p1", "hudi"), row("h1", 1, "p1", "h")), HUDI);
      afterHudiWrite.add(after.read(p, "snapshot", Optional.empty(), false));
    }
    after.run();

    for (int i = 0; i < tables.size(); i++) {
      Table t = upgraded.get(i);
      String what = t.location() + " (" + t.type() + ")";
      assertEquals(9, t.tableVersion());
      assertEquals(content(snapshots015.get(i).get()), content(snapshots.get(i).get()),
          "Hudi 1.1.1 after Sluice's upgrade reads what Hudi 0.15 read before it: " + what);
      assertEquals(content(snapshots015.get(i).get()), content(withMetadata.get(i).get()),
          "the same with the metadata table on: " + what);
      assertEquals(fromStorage.get(i).get(), throughMetadata.get(i).get(),
          "Hudi 1.1.1's file slices through the upgraded metadata table are storage's: " + what);
      assertFalse(metadataFiles.get(i).get().isEmpty(), what);
      if (t.type() == TableType.COPY_ON_WRITE) {
        // nothing compacted: the slices Hudi 0.15 listed before the upgrade
        assertEquals(slices015.get(i).get(), throughMetadata.get(i).get(),
            "Hudi 1.1.1's slices through the metadata table are Hudi 0.15's before the upgrade: " + what);
      }
      assertEquals(content(snapshots015.get(i).get()), content(readOptimized.get(i).get()),
          "read-optimized: every slice was compacted before the move: " + what);
      Map<String, String> archivedBefore = archived(archived015.get(i).get());
      assertFalse(archivedBefore.isEmpty(), what);
      assertEquals(archivedBefore, archived(archived.get(i).get()),
          "the archive as Hudi 1.1.1 reads the LSM history: the same instants and commit metadata: " + what);
      assertEquals(sluiceCompletion.get(i), completionTimes(active.get(i).get()),
          "every completed instant's completion time (the old file's modification time) as Hudi parses it: " + what);
      assertEquals(content(afterHudiWrite.get(i).get()), content(rows(Tables.open(t.location()).newScan())),
          "Hudi 1.1.1 wrote on the upgraded table; Sluice reads what Hudi reads: " + what);
      assertEquals("\"hudi\"", byKey(afterHudiWrite.get(i).get()).get("k1").get("name"), what);
    }
  }

  @Test
  void aTableHudi111UpgradedFrom6OpensInSluiceWithTheKeysSluicesUpgradeWrites() throws IOException {
    Table byHudi = version6("hudi_mor", TableType.MERGE_ON_READ);
    Table bySluice = version6("sluice_mor", TableType.MERGE_ON_READ);
    Path h = Path.of(byHudi.location());
    Map<String, String> upgradeByHudi = new HashMap<>(HUDI);
    // the Java client's own default is version 9 with auto-upgrade; the oracle pins the table's version unless told
    upgradeByHudi.put("hoodie.write.table.version", "9");
    // with the metadata table on, Hudi upgrades it alongside the data table (and keeps it)
    upgradeByHudi.put("hoodie.metadata.enable", "true");
    OracleBatch batch = hudi111.batch();
    batch.write(h, "upsert", SCHEMA, List.of(row("k1", 60, "p1", "by-hudi")), upgradeByHudi);
    OracleBatch.Pending<List<GenericRecord>> hudiRead = batch.read(h, "snapshot", Optional.empty(), false);
    batch.run();
    bySluice.upgrade(9);

    Path s = Path.of(bySluice.location());
    assertEquals(upgradeKeys(h), upgradeKeys(s),
        "hoodie.properties keys of Hudi 1.1.1's upgrade vs Sluice's, same v6 table: " + properties(h));
    Path hm = h.resolve(".hoodie/metadata");
    Path sm = s.resolve(".hoodie/metadata");
    assertEquals(upgradeKeys(hm), upgradeKeys(sm),
        "the metadata table's hoodie.properties after Hudi's upgrade and after Sluice's: " + properties(hm));
    Table t = Tables.open(h.toString(), Config.of(SLUICE));
    assertEquals(9, t.tableVersion());
    assertTrue(t.metadataTable().usedForListings(), "the metadata table Hudi upgraded: " + t.metadataTable().status());
    List<String> hudiFiles = names(hm.resolve("files")).stream().filter(n -> n.endsWith(".hfile")).toList();
    assertFalse(hudiFiles.isEmpty(), "Hudi's upgrade left base HFiles in files/: " + names(hm.resolve("files")));
    // _hoodie_file_name left out (see content())
    assertEquals(content(hudiRead.get()), content(rows(t.newScan())), "Sluice reads Hudi's upgraded table as Hudi does");
    assertEquals("\"by-hudi\"", byKey(hudiRead.get()).get("k1").get("name"));
    assertEquals(byKey(hudiRead.get()).keySet(), byKey(rows(Tables.open(bySluice.location()).newScan())).keySet());
    String sluiceWrite = t.upsert(List.of(row("k3", 70, "p2", "by-sluice"), row("s1", 1, "p1", "s")).iterator())
        .instantTime();
    // Sluice's write went on with Hudi's upgraded metadata table: mirrored there, nothing rebuilt (its HFiles stay; its
    // oldest instants may go to its archive by Sluice's archival of the metadata timeline)
    List<String> afterSluice = names(hm.resolve(".hoodie/timeline"));
    assertTrue(names(hm.resolve("files")).containsAll(hudiFiles), hudiFiles + " / " + names(hm.resolve("files")));
    assertTrue(afterSluice.stream().anyMatch(n -> n.startsWith(sluiceWrite + "_") && n.endsWith(".deltacommit")),
        afterSluice.toString());
    Table reopened = Tables.open(h.toString(), Config.of(SLUICE));
    assertTrue(reopened.metadataTable().usedForListings(), reopened.metadataTable().status());
    assertTrue(reopened.metadataTable().validate().matches(), reopened.metadataTable().validate().toString());
    OracleBatch read = hudi111.batch();
    OracleBatch.Pending<List<GenericRecord>> again = read.read(h, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> againWithMetadata = read.read(h, "snapshot", Optional.empty(), true);
    OracleBatch.Pending<List<OracleFileSlice>> slices = read.fsview(h);
    OracleBatch.Pending<List<OracleFileSlice>> slicesThroughMetadata = read.fsviewThroughMetadata(h);
    read.run();
    assertEquals(content(again.get()), content(againWithMetadata.get()), "Hudi reads it the same with its metadata on");
    assertEquals(slices.get(), slicesThroughMetadata.get(), "Hudi's slices through the metadata table Sluice continued");
    assertEquals(content(again.get()), content(rows(t.newScan())), "Hudi reads Sluice's write on Hudi's upgraded table");
    assertEquals("\"by-sluice\"", byKey(again.get()).get("k3").get("name"));
    assertEquals(byKey(rows(t.newScan().queryType(QueryType.SNAPSHOT))).size(), again.get().size());
  }
}
