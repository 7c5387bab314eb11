package dev.sluice.api;

import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.archive.ArchiveLog;
import dev.sluice.internal.archive.ArchivedInstant;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.lsm.LsmTimeline;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Table#upgrade} and {@link Table#downgrade}: a version-6 table (with an archive, a metadata table and, for
 * Merge-on-Read, log files) moved to version 8 or 9 reads the same rows, its timeline in layout 2 named with the old
 * files' modification times, its archive in the LSM history, its properties as Hudi 1.x's upgrade writes them; writes
 * go on at the new version; nothing but the upgrade changes a table's version.
 */
class UpgradeTest {
  private static final DateTimeFormatter INSTANT = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");
  /** Archival after a few commits, so that the version-6 table has an archive to convert. */
  static final Map<String, String> ARCHIVING = Map.of("hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3",
      "hoodie.cleaner.commits.retained", "1", "hoodie.compact.inline", "false", "hoodie.metadata.enable", "true");

  @TempDir
  Path dir;

  /** A version-6 table of {@code type} with eight writes: archived instants, a metadata table, log files (MoR). */
  static Table version6(Path base, TableType type) {
    Table t = TripFixture.create(base, TripFixture.spec().tableVersion(6).type(type).build(), ARCHIVING);
    t.insert(trips(0, 40, 4, 1).iterator());
    for (int i = 1; i <= 7; i++) {
      t.upsert(List.of(trip(String.format("id-%06d", i), 10 + i, "p" + (i % 4), "u" + i, i),
          trip(String.format("id-%06d", 100 + i), 1, "p" + (i % 4), "new" + i, i)).iterator());
    }
    t.delete(List.of(trip("id-000003", 99, "p3", "x", 0)).iterator());
    return t;
  }

  static Map<String, String> rowsText(Table t) {
    Map<String, String> out = new TreeMap<>();
    TripFixture.rows(t).forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  static Properties properties(Path base) throws IOException {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(base.resolve(".hoodie/hoodie.properties"))) {
      p.load(in);
    }
    return p;
  }

  static List<String> names(Path folder) throws IOException {
    try (Stream<Path> s = Files.list(folder)) {
      return s.filter(Files::isRegularFile).map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  /** The version-6 instant files still directly in {@code .hoodie/}. */
  static List<String> oldInstantFiles(Path base) throws IOException {
    return names(base.resolve(".hoodie")).stream().filter(n -> n.matches("\\d+\\..*")).toList();
  }

  @Test
  void mergeOnReadVersion6UpgradesTo9AndReadsTheSame() throws IOException {
    Path base = dir.resolve("t");
    Table t = version6(base, TableType.MERGE_ON_READ);
    assertTrue(Files.isDirectory(base.resolve(".hoodie/metadata")), "the v6 table keeps a metadata table");
    List<ArchivedInstant> archived = ArchiveLog.of(new LocalStorage(), base.toString()).read();
    TreeSet<String> archivedTimes = new TreeSet<>();
    archived.stream().filter(a -> a.instant().isCompleted()).forEach(a -> archivedTimes.add(a.instant().time()));
    assertTrue(archivedTimes.size() >= 3, "instants were archived: " + archivedTimes);
    // completed files and the modification times the upgrade names them with
    Map<String, String> completion = new TreeMap<>();
    for (String n : oldInstantFiles(base)) {
      if (n.matches("\\d+\\.(commit|deltacommit|clean|rollback)")) {
        FileTime m = Files.getLastModifiedTime(base.resolve(".hoodie").resolve(n));
        completion.put(n, LocalDateTime.ofInstant(m.toInstant(), ZoneId.systemDefault()).format(INSTANT));
      }
    }
    Map<String, String> before = rowsText(t);

    UpgradeInfo info = t.upgrade(9);

    assertEquals(6, info.fromVersion());
    assertEquals(9, info.toVersion());
    assertFalse(info.compactions().isEmpty(), "the log files were compacted while the table was version 6");
    assertTrue(info.metadataTableKept(), "the metadata table is upgraded with the table (UpgradeMetadataTableTest)");
    assertFalse(info.metadataTableRemoved());
    assertEquals(archivedTimes.size(), info.archivedInstants());
    assertTrue(Files.exists(base.resolve(".hoodie/metadata/.hoodie/timeline")));
    assertEquals(List.of(), oldInstantFiles(base), "no layout-1 instant file left in .hoodie/");
    Table up = Tables.open(base.toString());
    assertEquals(9, up.tableVersion());
    assertEquals(before, rowsText(up), "the same rows after the upgrade");
    List<String> timeline = names(base.resolve(".hoodie/timeline"));
    completion.forEach((old, c) -> {
      String time = old.substring(0, old.indexOf('.'));
      String action = old.substring(old.indexOf('.'));
      assertTrue(timeline.contains(time + "_" + c + action), old + " → " + time + "_" + c + action + " in " + timeline);
    });
    LocalStorage storage = new LocalStorage();
    List<String> lsm = LsmTimeline.of(storage, base.toString(), TableConfigStore.read(storage, base.toString()))
        .instants().stream().map(LsmTimeline.Archived::instantTime).toList();
    assertEquals(List.copyOf(archivedTimes), lsm, "the archive converted into the LSM history");

    Properties p = properties(base);
    assertEquals("9", p.getProperty("hoodie.table.version"));
    assertEquals("6", p.getProperty("hoodie.table.initial.version"));
    assertEquals("2", p.getProperty("hoodie.timeline.layout.version"));
    assertEquals("timeline", p.getProperty("hoodie.timeline.path"));
    assertEquals("EVENT_TIME_ORDERING", p.getProperty("hoodie.record.merge.mode"));
    assertEquals("ts", p.getProperty("hoodie.table.ordering.fields"));
    assertEquals("SIMPLE", p.getProperty("hoodie.table.keygenerator.type"));
    assertFalse(p.containsKey("hoodie.table.precombine.field"), p.toString());
    assertFalse(p.containsKey("hoodie.record.merge.strategy.id"), p.toString());
    assertEquals("files", p.getProperty("hoodie.table.metadata.partitions", ""));

    // writes go on at version 9: a log file named after its own delta commit, in the layout-2 timeline
    up.upsert(List.of(trip("id-000001", 50, "p1", "after", 1)).iterator());
    assertEquals(9, Tables.open(base.toString()).tableVersion());
    assertEquals("after", TripFixture.rows(up).get("id-000001").get("name").toString());
    assertEquals(List.of(), oldInstantFiles(base));
  }

  @Test
  void aMergeOnReadVersion9TableIsCompactedThenDowngradedTo8() throws IOException {
    Path base = dir.resolve("t");
    Table t = TripFixture.create(base, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(9).build(),
        Map.of("hoodie.compact.inline", "false"));
    t.insert(trips(0, 20, 2, 1).iterator());
    t.upsert(trips(0, 5, 2, 2).iterator());
    Map<String, String> before = rowsText(t);
    UpgradeInfo to8 = t.downgrade(8);
    assertFalse(to8.compactions().isEmpty(), "the slices with log files were compacted first, as Hudi does");
    assertEquals("8", properties(base).getProperty("hoodie.table.version"));
    Table reopened = Tables.open(base.toString());
    assertEquals(before, rowsText(reopened));
    assertTrue(reopened.fileSystemView().partitions().stream()
        .flatMap(p -> reopened.fileSystemView().latestSlices(p).stream()).allMatch(s -> s.logFiles().isEmpty()),
        "no log files left in the latest slices");
  }

  @Test
  void copyOnWriteGoesTo8Then9ThenBackTo8() throws IOException {
    Path base = dir.resolve("t");
    Table t = version6(base, TableType.COPY_ON_WRITE);
    Map<String, String> before = rowsText(t);
    Properties p6 = properties(base);
    UpgradeInfo to8 = t.upgrade(8);
    assertEquals(List.of(), to8.compactions());
    Properties p8 = properties(base);
    assertEquals("8", p8.getProperty("hoodie.table.version"));
    assertEquals("6", p8.getProperty("hoodie.table.initial.version"));
    // Copy-on-Write: the merge mode follows the payload class (the fixture's is event-time ordered: Hudi's default one)
    assertEquals("org.apache.hudi.common.model.DefaultHoodieRecordPayload", p6.getProperty("hoodie.compaction.payload.class"));
    assertEquals("EVENT_TIME_ORDERING", p8.getProperty("hoodie.record.merge.mode"));
    assertEquals("org.apache.hudi.common.model.DefaultHoodieRecordPayload",
        p8.getProperty("hoodie.compaction.payload.class"));
    assertEquals("eeb8d96f-b1e4-49fd-bbf8-28ac514178e5", p8.getProperty("hoodie.record.merge.strategy.id"));
    assertEquals("ts", p8.getProperty("hoodie.table.precombine.field"));
    assertEquals(before, rowsText(Tables.open(base.toString())));

    Table at8 = Tables.open(base.toString());
    assertEquals(8, at8.upgrade(9).fromVersion());
    Properties p9 = properties(base);
    assertEquals("9", p9.getProperty("hoodie.table.version"));
    assertEquals("ts", p9.getProperty("hoodie.table.ordering.fields"));
    assertEquals("org.apache.hudi.common.model.DefaultHoodieRecordPayload",
        p9.getProperty("hoodie.table.legacy.payload.class"));
    assertFalse(p9.containsKey("hoodie.compaction.payload.class"));
    assertFalse(p9.containsKey("hoodie.record.merge.strategy.id"));
    assertEquals(before, rowsText(Tables.open(base.toString())));

    UpgradeInfo down = Tables.open(base.toString()).downgrade(8);
    assertEquals(9, down.fromVersion());
    assertEquals(p8.getProperty("hoodie.record.merge.strategy.id"), properties(base)
        .getProperty("hoodie.record.merge.strategy.id"));
    assertEquals("ts", properties(base).getProperty("hoodie.table.precombine.field"));
    assertEquals(before, rowsText(Tables.open(base.toString())));
    SluiceException to6 = assertThrows(SluiceException.class, () -> Tables.open(base.toString()).downgrade(6));
    assertEquals(SluiceException.Kind.UNSUPPORTED, to6.kind());
  }

  @Test
  void writesKeepTheTableVersionAndAStaleHandleRefusesToWrite() throws IOException {
    Path base = dir.resolve("t");
    Table t = TripFixture.create(base, TripFixture.spec().tableVersion(6).build(), Map.of());
    t.insert(trips(0, 4, 2, 1).iterator());
    t.upsert(trips(0, 2, 2, 2).iterator());
    assertEquals("6", properties(base).getProperty("hoodie.table.version"), "writes do not upgrade");
    assertFalse(Files.exists(base.resolve(".hoodie/timeline")));

    Tables.open(base.toString()).upgrade(9);
    SluiceException stale = assertThrows(SluiceException.class, () -> t.upsert(trips(0, 1, 2, 3).iterator()));
    assertEquals(SluiceException.Kind.CONFLICT, stale.kind());
    assertTrue(stale.getMessage().contains("version 9"), stale.getMessage());
    assertEquals(List.of(), oldInstantFiles(base), "the stale handle wrote nothing into .hoodie/");
    Table reopened = Tables.open(base.toString());
    reopened.upsert(trips(0, 1, 2, 3).iterator());
    assertEquals("9", properties(base).getProperty("hoodie.table.version"));
    SluiceException bad = assertThrows(SluiceException.class, () -> reopened.upgrade(7));
    assertEquals(SluiceException.Kind.BAD_CONFIG, bad.kind(), "a bad --to is an input error");
    assertEquals(9, reopened.upgrade(9).toVersion(), "upgrading to the version it has changes nothing");
  }
}
