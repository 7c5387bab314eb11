package dev.sluice.api;

import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.table.TableConfigStore;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Table#repair} on a version 9 table (and one test on version 8, which has the same layout)
 * (timeline layout 2: instant files under {@code .hoodie/timeline}, completed
 * ones named {@code <requested>_<completion>.<action>} holding Avro, one log file per delta commit named after it):
 * each kind of damage, made on the files Sluice wrote, is found by a dry run that changes nothing, fixed by an
 * applied run after which the table reads the right rows, and the originals are in the repair's backup folder.
 */
class RepairV9Test {
  @TempDir
  Path dir;

  private Path root() {
    return dir.resolve("t");
  }

  /** A version-9 Merge-on-Read table: 40 inserted rows in p0/p1, then two delta commits of 10 updates each. */
  private Table table() {
    return table(Map.of());
  }

  private Table table(Map<String, String> options) {
    return table(9, options);
  }

  private Table table(int version, Map<String, String> options) {
    Table t = TripFixture.create(root(), TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(version)
        .build(), options);
    assertEquals(version, t.tableVersion());
    t.insert(trips(0, 40, 2, 1).iterator());
    t.upsert(updates(0, 10, 10).iterator());
    return t;
  }

  private static List<GenericRecord> updates(int from, int to, long ts) {
    List<GenericRecord> b = new ArrayList<>();
    for (int i = from; i < to; i++) {
      b.add(trip(String.format("id-%06d", i), ts, "p" + (i % 2), "upd" + ts + "-" + i, i + 0.5));
    }
    return b;
  }

  private static Map<String, String> rows(Table t) {
    Map<String, String> out = new TreeMap<>();
    TripFixture.rows(t).forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  private Map<String, String> tree() throws IOException {
    try (Stream<Path> s = Files.walk(root())) {
      Map<String, String> out = new TreeMap<>();
      for (Path p : s.toList()) {
        out.put(dir.relativize(p).toString(), Files.isDirectory(p) ? "dir" : Files.size(p) + ":"
            + Files.getLastModifiedTime(p).toMillis() + ":" + Arrays.hashCode(Files.readAllBytes(p)));
      }
      return out;
    }
  }

  private Path timeline() {
    return root().resolve(".hoodie/timeline");
  }

  /** The timeline files of the instant at {@code time} (every state). */
  private List<Path> instantFiles(String time) throws IOException {
    try (Stream<Path> s = Files.list(timeline())) {
      return s.filter(p -> p.getFileName().toString().startsWith(time + "_")
          || p.getFileName().toString().startsWith(time + ".")).sorted().collect(Collectors.toList());
    }
  }

  /** The completed delta commit files, oldest first: {@code <requested>_<completion>.deltacommit}. */
  private List<Path> completedDeltaCommits() throws IOException {
    try (Stream<Path> s = Files.list(timeline())) {
      return s.filter(p -> p.getFileName().toString().matches("\\d+_\\d+\\.deltacommit")).sorted()
          .collect(Collectors.toList());
    }
  }

  private static String time(Path instantFile) {
    String n = instantFile.getFileName().toString();
    return n.substring(0, Math.min(n.indexOf('.'), n.indexOf('_') < 0 ? n.length() : n.indexOf('_')));
  }

  /** The log files a delta commit wrote (on version 9 each is named after its own delta commit). */
  private List<Path> logsOf(String time) throws IOException {
    try (Stream<Path> s = Files.walk(root())) {
      return s.filter(p -> !p.toString().contains("/.hoodie/") && p.getFileName().toString().contains("_" + time
          + ".log.")).sorted().collect(Collectors.toList());
    }
  }

  private static List<String> kinds(RepairReport r) {
    return r.items().stream().map(RepairItem::kind).distinct().sorted().toList();
  }

  /** A dry run finds exactly {@code kind} at {@code paths} and changes nothing; the applied run fixes all of it. */
  private RepairReport repair(Table t, String kind, Path... paths) throws IOException {
    Map<String, String> before = tree();
    RepairReport dry = t.repair(false);
    assertFalse(dry.applied());
    assertEquals(before, tree(), "a dry run changes nothing");
    assertEquals(List.of(kind), kinds(dry), dry.items().toString());
    List<String> found = dry.items().stream().map(RepairItem::path).toList();
    for (Path p : paths) {
      assertTrue(found.contains(p.toString()), p + " not in " + found);
    }
    assertTrue(dry.items().stream().allMatch(RepairItem::fixable), dry.items().toString());
    RepairReport applied = t.repair(true);
    assertTrue(applied.applied());
    assertTrue(applied.items().stream().allMatch(RepairItem::fixed), applied.items().toString());
    RepairReport again = t.repair(false);
    assertTrue(again.sound(), again.items().toString());
    return applied;
  }

  private static Path backup(RepairReport r) {
    return Path.of(r.backupFolder().orElseThrow());
  }

  private Path inBackup(RepairReport r, Path original) {
    return backup(r).resolve(root().relativize(original).toString());
  }

  @Test
  void aSoundVersion9TableHasNothingToRepair() throws IOException {
    Table t = table();
    t.compaction().scheduleNow().orElseThrow();
    t.compaction().runPending();
    t.upsert(updates(20, 25, 30).iterator());
    Map<String, String> expected = rows(t);
    Map<String, String> before = tree();
    RepairReport r = t.repair(false);
    assertTrue(r.sound(), r.items().toString());
    Map<String, String> after = tree();
    Map<String, String> changed = new TreeMap<>();
    before.forEach((k, v) -> {
      if (!v.equals(after.get(k))) {
        changed.put(k, v + " -> " + after.get(k));
      }
    });
    after.keySet().stream().filter(k -> !before.containsKey(k)).forEach(k -> changed.put(k, "new"));
    assertEquals(Map.of(), changed, "nothing of a version 9 table is taken for damage or a leftover");
    // applied, it finds nothing to fix either (it drops the metadata table, as on every version: a later write
    // builds it again) and the table reads the same
    RepairReport applied = t.repair(true);
    assertTrue(applied.sound() && applied.backupFolder().isEmpty(), applied.items().toString());
    assertEquals(expected, rows(t));
  }

  @Test
  void aDamagedHoodiePropertiesIsRestoredFromItsBackup() throws IOException {
    Table t = table();
    Map<String, String> expected = rows(t);
    Path props = root().resolve(".hoodie/hoodie.properties");
    Files.copy(props, root().resolve(".hoodie/hoodie.properties.backup"));
    String damaged = Files.readString(props).replaceAll("hoodie.table.checksum=\\d+", "hoodie.table.checksum=1");
    Files.writeString(props, damaged);
    RepairReport r = repair(t, "TABLE_CONFIG", props);
    assertEquals(TableConfigStore.ConfigState.SOUND, TableConfigStore.state(t.storage(), t.location()));
    assertEquals(damaged, Files.readString(inBackup(r, props)), "the damaged original is kept");
    assertTrue(Files.readString(props).contains("hoodie.table.version=9"));
    assertEquals(expected, rows(Tables.open(t.location())));
  }

  @Test
  void aDamagedCompletedDeltaCommitIsRebuiltInAvro() throws IOException {
    Table t = table();
    t.upsert(updates(10, 20, 20).iterator());
    Map<String, String> expected = rows(t);
    Path middle = completedDeltaCommits().get(1);
    String time = time(middle);
    byte[] original = Files.readAllBytes(middle);
    byte[] damaged = Arrays.copyOf(original, original.length / 2);
    Files.write(middle, damaged);
    assertThrows(SluiceException.class, () -> t.inspect().completedCommits(), "the broken commit is in the way");
    RepairReport r = repair(t, "BROKEN_INSTANT", middle);
    assertTrue(r.items().get(0).action().contains("rebuild its commit metadata"), r.items().toString());
    assertArrayEquals(damaged, Files.readAllBytes(inBackup(r, middle)), "the damaged original is kept");
    byte[] rebuilt = Files.readAllBytes(middle);
    // the layout's encoding: an Avro object container (magic Obj 1), as Hudi 1.x reads commit metadata
    assertArrayEquals(new byte[] {'O', 'b', 'j', 1}, Arrays.copyOf(rebuilt, 4));
    CommitInfo info = t.inspect().completedCommits().get(time);
    assertEquals(10, info.stats().stream().mapToLong(WriteStatInfo::numWrites).sum());
    // each log file the delta commit wrote, in the slice of the base file it joins
    String insert = time(completedDeltaCommits().get(0));
    for (WriteStatInfo s : info.stats()) {
      assertTrue(s.path().orElseThrow().contains("_" + time + ".log."), s.toString());
      assertEquals(insert, s.prevCommit(), "the slice is the insert's base file: " + s);
    }
    assertEquals(expected, rows(t));
    // and the table goes on: a write, a compaction (which reads the rebuilt metadata's files), a clean
    t.upsert(updates(30, 35, 30).iterator());
    t.compaction().scheduleNow().orElseThrow();
    t.compaction().runPending();
    t.clean();
    Map<String, String> now = rows(t);
    assertEquals(40, now.size());
    for (int i = 0; i < 30; i++) {
      String k = String.format("id-%06d", i);
      assertEquals(expected.get(k), now.get(k));
    }
  }

  @Test
  void onVersion8TooADamagedDeltaCommitIsRebuiltAndAFailedWritesLeftoversGo() throws IOException {
    // version 8 shares layout 2 with 9: the same repair, asked of the same seam
    Table t = table(8, Map.of());
    Map<String, String> expected = rows(t);
    Path last = completedDeltaCommits().get(completedDeltaCommits().size() - 1);
    byte[] damaged = Arrays.copyOf(Files.readAllBytes(last), (int) Files.size(last) / 2);
    Files.write(last, damaged);
    RepairReport r = repair(t, "BROKEN_INSTANT", last);
    assertArrayEquals(damaged, Files.readAllBytes(inBackup(r, last)));
    assertEquals(10, t.inspect().completedCommits().get(time(last)).stats().stream()
        .mapToLong(WriteStatInfo::numWrites).sum());
    assertEquals(expected, rows(t));
    t.upsert(updates(10, 20, 20).iterator());
    String time = time(completedDeltaCommits().get(completedDeltaCommits().size() - 1));
    List<Path> logs = logsOf(time);
    for (Path p : instantFiles(time)) {
      Files.delete(p);
    }
    repair(t, "LEFTOVER_FILE", logs.toArray(Path[]::new));
    assertEquals(expected, rows(t));
    assertEquals(8, Tables.open(t.location()).tableVersion());
  }

  @Test
  void anEmptyCompletedDeltaCommitThatWroteFilesIsRebuilt() throws IOException {
    Table t = table();
    Map<String, String> expected = rows(t);
    Path last = completedDeltaCommits().get(completedDeltaCommits().size() - 1);
    // Hudi 1.x reads an empty commit file as empty metadata (no failure): the instant's files stay visible to
    // readers, but incremental queries, cleaning and archival would miss them; the repair lists them again
    Files.write(last, new byte[0]);
    RepairReport r = repair(t, "BROKEN_INSTANT", last);
    assertTrue(r.items().get(0).problem().contains("empty"), r.items().toString());
    assertEquals(0, Files.size(inBackup(r, last)));
    assertArrayEquals(new byte[] {'O', 'b', 'j', 1}, Arrays.copyOf(Files.readAllBytes(last), 4));
    assertEquals(10, t.inspect().completedCommits().get(time(last)).stats().stream()
        .mapToLong(WriteStatInfo::numWrites).sum());
    assertEquals(expected, rows(t));
  }

  @Test
  void aFailedWriteWithADamagedInflightFileIsRolledBack() throws IOException {
    Table t = table();
    Map<String, String> expected = rows(t);
    t.upsert(updates(10, 20, 20).iterator());
    Path completed = completedDeltaCommits().get(completedDeltaCommits().size() - 1);
    String time = time(completed);
    List<Path> logs = logsOf(time);
    assertFalse(logs.isEmpty());
    // the writer stopped before completing, and its inflight file is damaged
    Files.delete(completed);
    Path inflight = timeline().resolve(time + ".deltacommit.inflight");
    Files.writeString(inflight, "not avro");
    RepairReport r = repair(t, "BROKEN_INSTANT", inflight);
    assertTrue(r.items().get(0).action().contains("roll back"), r.items().toString());
    assertEquals("not avro", Files.readString(inBackup(r, inflight)));
    assertEquals(List.of(), instantFiles(time).stream().filter(p -> p.getFileName().toString().contains("deltacommit"))
        .toList(), "the failed write is gone from the timeline");
    for (Path l : logs) {
      assertFalse(Files.exists(l), "version 9 rolls back by deleting the write's log files: " + l);
    }
    assertEquals(expected, rows(t));
  }

  @Test
  void aPendingCleanWhosePlanDoesNotDecodeIsRemoved() throws IOException {
    Table t = table();
    Map<String, String> expected = rows(t);
    String latest = time(completedDeltaCommits().get(completedDeltaCommits().size() - 1));
    Path clean = timeline().resolve(Long.parseLong(latest) + 5 + ".clean.requested");
    Files.writeString(clean, "not avro");
    RepairReport r = repair(t, "BROKEN_INSTANT", clean);
    assertFalse(Files.exists(clean));
    assertEquals("not avro", Files.readString(inBackup(r, clean)));
    assertEquals(expected, rows(t));
    t.clean();
  }

  @Test
  void aGarbledLogBlockIsDroppedAndItsFileKeptInTheBackup() throws IOException {
    Table t = table();
    Map<String, String> expected = rows(t);
    t.upsert(updates(10, 20, 20).iterator());
    String time = time(completedDeltaCommits().get(completedDeltaCommits().size() - 1));
    List<Path> logs = logsOf(time);
    assertEquals(2, logs.size(), logs.toString());
    List<byte[]> originals = new ArrayList<>();
    for (Path log : logs) {
      try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
        f.seek(f.length() / 2);
        f.write(new byte[64]);
      }
      originals.add(Files.readAllBytes(log));
    }
    assertThrows(SluiceException.class, () -> rows(t), "a query fails on the garbled blocks");
    RepairReport r = repair(t, "CORRUPT_LOG_BLOCK", logs.toArray(Path[]::new));
    assertTrue(r.items().get(0).action().contains("[" + time + "]"), "names the committed instant whose rows go: "
        + r.items());
    for (int i = 0; i < logs.size(); i++) {
      // one block per log file on version 9: with it damaged, the file goes (its original kept)
      assertFalse(Files.exists(logs.get(i)));
      assertArrayEquals(originals.get(i), Files.readAllBytes(inBackup(r, logs.get(i))));
    }
    assertEquals(expected, rows(t), "the garbled delta commit's updates are lost; everything else reads");
    assertTrue(t.inspect().corruptLogBlocks().isEmpty());
  }

  @Test
  void filesOfAnInstantNoLongerOnTheTimelineAreDeleted() throws IOException {
    Table t = table();
    Map<String, String> expected = rows(t);
    t.upsert(updates(10, 20, 20).iterator());
    String time = time(completedDeltaCommits().get(completedDeltaCommits().size() - 1));
    List<Path> logs = logsOf(time);
    // a failed write whose instant files are gone (rolled back by a tool that stopped halfway): its log files stay
    for (Path p : instantFiles(time)) {
      Files.delete(p);
    }
    // and a base file of an instant that was never on the timeline
    Path base;
    try (Stream<Path> s = Files.list(root().resolve("p0"))) {
      base = s.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    String first = time(completedDeltaCommits().get(0));
    Path leftoverBase = base.resolveSibling("0a0a0a0a-0000-0000-0000-000000000000-0_0-0-0_" + (Long.parseLong(first) + 1)
        + ".parquet");
    Files.copy(base, leftoverBase);
    List<Path> leftovers = new ArrayList<>(logs);
    leftovers.add(leftoverBase);
    List<byte[]> originals = new ArrayList<>();
    for (Path p : leftovers) {
      originals.add(Files.readAllBytes(p));
    }
    RepairReport r = repair(t, "LEFTOVER_FILE", leftovers.toArray(Path[]::new));
    assertEquals(leftovers.size(), r.items().size(), r.items().toString());
    for (int i = 0; i < leftovers.size(); i++) {
      assertFalse(Files.exists(leftovers.get(i)));
      assertArrayEquals(originals.get(i), Files.readAllBytes(inBackup(r, leftovers.get(i))));
    }
    assertEquals(expected, rows(t));
  }

  @Test
  void staleMarkersHeartbeatsAndTempFilesAreDeleted() throws IOException {
    Table t = table();
    Map<String, String> expected = rows(t);
    String latest = time(completedDeltaCommits().get(completedDeltaCommits().size() - 1));
    Path meta = root().resolve(".hoodie");
    Path marker = meta.resolve(".temp/" + latest + "/p0/x.parquet.marker.CREATE");
    Files.createDirectories(marker.getParent());
    Files.writeString(marker, "m");
    Path heartbeat = meta.resolve(".heartbeat/" + latest);
    Files.createDirectories(heartbeat.getParent());
    Files.writeString(heartbeat, "hb");
    // a temp file of a timeline write that stopped, in the version 9 timeline folder, old enough not to be running
    Path temp = timeline().resolve("." + latest + "_1.deltacommit.tmp");
    Files.writeString(temp, "tmp");
    Files.setLastModifiedTime(temp, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000L));
    RepairReport r = repair(t, "STALE_STATE", heartbeat, temp, meta.resolve(".temp/" + latest));
    assertFalse(Files.exists(marker) || Files.exists(heartbeat) || Files.exists(temp));
    assertEquals("m", Files.readString(inBackup(r, marker)));
    assertEquals("hb", Files.readString(inBackup(r, heartbeat)));
    assertEquals("tmp", Files.readString(inBackup(r, temp)));
    assertEquals(expected, rows(t));
  }

  @Test
  void aPartitionWithoutItsMetadataFileIsSeenAgain() throws IOException {
    // without the metadata table, readers list partitions by their .hoodie_partition_metadata
    Table t = table(Map.of("hoodie.metadata.enable", "false"));
    Map<String, String> expected = rows(t);
    Path pm = root().resolve("p1/.hoodie_partition_metadata");
    assertTrue(Files.exists(pm));
    Files.delete(pm);
    assertEquals(20, rows(Tables.open(t.location())).size(), "readers no longer see p1");
    RepairReport r = repair(t, "PARTITION_METADATA", root().resolve("p1"));
    assertTrue(Files.exists(pm));
    // the repair writes a file that was missing: there is no original, and nothing else was changed
    assertTrue(r.backupFolder().isEmpty() || !Files.exists(inBackup(r, pm)));
    assertEquals(expected, rows(Tables.open(t.location())));
  }
}
