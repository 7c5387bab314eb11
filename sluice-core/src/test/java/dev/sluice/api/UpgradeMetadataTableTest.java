package dev.sluice.api;

import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Table#upgrade} keeps the metadata table, as Hudi 1.1.1's upgrade does: its slices compacted while the table
 * is version 6, its timeline moved to layout 2 ({@code .hoodie/metadata/.hoodie/timeline}, Avro commit metadata, no
 * layout-1 instant left), its own {@code hoodie.properties} at the new version ({@code CUSTOM} merging with the
 * metadata payload, initial version 6), its base HFiles and first instant kept; the upgraded table's reads list files
 * from it and its next writes go on with it (no rebuild), the record index included.
 */
class UpgradeMetadataTableTest {
  @TempDir
  Path dir;

  private static Properties properties(Path file) throws IOException {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(in);
    }
    return p;
  }

  /** The HFile base files under {@code .hoodie/metadata}, relative paths. */
  private static TreeSet<String> hfiles(Path base) throws IOException {
    Path mdt = base.resolve(".hoodie/metadata");
    try (Stream<Path> s = Files.walk(mdt)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".hfile")).map(p -> mdt.relativize(p).toString())
          .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    }
  }

  private static List<String> names(Path folder) throws IOException {
    try (Stream<Path> s = Files.list(folder)) {
      return s.filter(Files::isRegularFile).map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @ParameterizedTest(name = "{0} to {1}, record index {2}")
  @CsvSource({"MERGE_ON_READ, 9, false", "COPY_ON_WRITE, 9, true", "MERGE_ON_READ, 8, true", "COPY_ON_WRITE, 8, false"})
  void theMetadataTableIsUpgradedAndKept(TableType type, int version, boolean recordIndex) throws IOException {
    Path base = dir.resolve("t");
    Map<String, String> options = new HashMap<>(UpgradeTest.ARCHIVING);
    if (recordIndex) {
      options.put("hoodie.metadata.record.index.enable", "true");
      options.put("hoodie.index.type", "RECORD_INDEX");
    }
    Table t = TripFixture.create(base, TripFixture.spec().tableVersion(6).type(type).build(), options);
    t.insert(trips(0, 40, 4, 1).iterator());
    for (int i = 1; i <= 5; i++) {
      t.upsert(List.of(trip(String.format("id-%06d", i), 10 + i, "p" + (i % 4), "u" + i, i)).iterator());
    }
    MetadataTableView before = t.metadataTable();
    assertTrue(before.usedForListings(), before.status());
    List<String> partitions = before.partitionsEnabled();
    assertEquals(recordIndex, partitions.contains("record_index"), partitions.toString());
    TreeSet<String> hfilesBefore = hfiles(base);
    assertFalse(hfilesBefore.isEmpty());
    List<String> oldMdtTimeline = names(base.resolve(".hoodie/metadata/.hoodie")).stream()
        .filter(n -> n.matches("\\d+\\..*")).toList();
    String firstMdtInstant = oldMdtTimeline.get(0).substring(0, oldMdtTimeline.get(0).indexOf('.'));
    Map<String, String> rows = UpgradeTest.rowsText(t);
    var filesBefore = before.files();

    UpgradeInfo info = t.upgrade(version);

    assertTrue(info.metadataTableKept());
    assertFalse(info.metadataTableRemoved());
    Table up = Tables.open(base.toString());
    assertEquals(version, up.tableVersion());
    MetadataTableView after = up.metadataTable();
    assertTrue(after.usedForListings(), "the upgraded table lists files from the kept metadata table: " + after.status());
    assertEquals(partitions, after.partitionsEnabled());
    assertEquals(rows, UpgradeTest.rowsText(up));
    if (type == TableType.COPY_ON_WRITE) {
      assertEquals(filesBefore, after.files(), "the same file listing from the metadata table");
    }
    // not rebuilt: every HFile base file it had is still there, and its first instant too
    assertTrue(hfiles(base).containsAll(hfilesBefore), hfiles(base) + " ⊇ " + hfilesBefore);
    List<String> mdtTimeline = names(base.resolve(".hoodie/metadata/.hoodie/timeline"));
    assertTrue(mdtTimeline.stream().anyMatch(n -> n.startsWith(firstMdtInstant + "_")), firstMdtInstant + " in "
        + mdtTimeline);
    // compacted before the move, as Hudi compacts it: the newest metadata instant is a compaction after every deltacommit
    String lastDeltacommit = mdtTimeline.stream().filter(n -> n.matches("\\d+_\\d+\\.deltacommit"))
        .map(n -> n.split("_")[0]).max(String::compareTo).orElseThrow();
    assertTrue(mdtTimeline.stream().filter(n -> n.matches("\\d+_\\d+\\.commit")).map(n -> n.split("_")[0])
        .anyMatch(c -> c.compareTo(lastDeltacommit) > 0), "a compaction after " + lastDeltacommit + ": " + mdtTimeline);
    assertEquals(List.of(), names(base.resolve(".hoodie/metadata/.hoodie")).stream()
        .filter(n -> n.matches("\\d+\\..*")).toList(), "no layout-1 instant file left in the metadata table");
    Properties mp = properties(base.resolve(".hoodie/metadata/.hoodie/hoodie.properties"));
    assertEquals(Integer.toString(version), mp.getProperty("hoodie.table.version"));
    assertEquals("6", mp.getProperty("hoodie.table.initial.version"));
    assertEquals("2", mp.getProperty("hoodie.timeline.layout.version"));
    assertEquals("timeline", mp.getProperty("hoodie.timeline.path"));
    assertEquals("CUSTOM", mp.getProperty("hoodie.record.merge.mode"));
    assertEquals("org.apache.hudi.metadata.HoodieMetadataPayload", mp.getProperty("hoodie.compaction.payload.class"));
    // the payload-based strategy; at 9 under its alias key only, as Hudi 1.1.1's upgrade leaves it (UpgradeInteropTest)
    assertEquals("00000000-0000-0000-0000-000000000000", mp.getProperty("hoodie.compaction.record.merger.strategy"));
    assertEquals(version == 8 ? "00000000-0000-0000-0000-000000000000" : null,
        mp.getProperty("hoodie.record.merge.strategy.id"));
    assertEquals("HOODIE_TABLE_METADATA", mp.getProperty("hoodie.table.keygenerator.type"));

    // the next writes go on with it: mirrored as deltacommits in its layout-2 timeline, never rebuilt
    up.upsert(List.of(trip("id-000001", 50, "p1", "after", 1), trip("id-900001", 1, "p2", "new", 1)).iterator());
    up.delete(List.of(trip("id-000002", 99, "p2", "x", 0)).iterator());
    Table again = Tables.open(base.toString());
    MetadataTableView continued = again.metadataTable();
    assertTrue(continued.usedForListings(), continued.status());
    assertTrue(hfiles(base).containsAll(hfilesBefore), "no rebuild after the writes");
    List<String> mdtAfterWrites = names(base.resolve(".hoodie/metadata/.hoodie/timeline"));
    assertTrue(mdtAfterWrites.stream().anyMatch(n -> n.startsWith(firstMdtInstant + "_")), mdtAfterWrites.toString());
    assertTrue(mdtAfterWrites.size() > mdtTimeline.size(), "the writes' deltacommits: " + mdtAfterWrites);
    var now = TripFixture.rows(again);
    assertEquals("after", now.get("id-000001").get("name").toString());
    assertTrue(now.containsKey("id-900001"));
    assertFalse(now.containsKey("id-000002"));
    assertEquals(rows.size(), now.size());
    MetadataValidation v = continued.validate();
    assertTrue(v.matches(), "the kept metadata table lists what storage holds: " + v);
  }

  /** 6 to 8, 8 to 9, 9 back to 8: the metadata table follows each step's properties and stays in use. */
  @Test
  void theMetadataTableFollowsEachVersionStep() throws IOException {
    Path base = dir.resolve("steps");
    Table t = TripFixture.create(base, TripFixture.spec().tableVersion(6).type(TableType.MERGE_ON_READ).build(),
        UpgradeTest.ARCHIVING);
    t.insert(trips(0, 20, 2, 1).iterator());
    t.upsert(List.of(trip("id-000001", 10, "p1", "u", 1)).iterator());
    TreeSet<String> hfilesBefore = hfiles(base);
    Map<String, String> rows = UpgradeTest.rowsText(t);
    Path mdtProps = base.resolve(".hoodie/metadata/.hoodie/hoodie.properties");
    for (int[] step : new int[][] {{8, 1}, {9, 1}, {8, -1}}) {
      Table now = Tables.open(base.toString());
      UpgradeInfo info = step[1] > 0 ? now.upgrade(step[0]) : now.downgrade(step[0]);
      assertTrue(info.metadataTableKept(), "step to " + step[0]);
      Properties mp = properties(mdtProps);
      assertEquals(Integer.toString(step[0]), mp.getProperty("hoodie.table.version"), "step to " + step[0]);
      assertEquals("CUSTOM", mp.getProperty("hoodie.record.merge.mode"));
      assertEquals("6", mp.getProperty("hoodie.table.initial.version"));
      Table after = Tables.open(base.toString());
      assertTrue(after.metadataTable().usedForListings(), after.metadataTable().status());
      assertEquals(rows, UpgradeTest.rowsText(after), "step to " + step[0]);
      assertTrue(hfiles(base).containsAll(hfilesBefore), "step to " + step[0]);
    }
  }
}
