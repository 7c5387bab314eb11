package dev.sluice.api;

import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.table.TableConfigStore;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Table#repair}: every kind of damage it handles, found by a dry run that changes nothing and fixed by an
 * applied run that keeps every committed row; and corrupt log blocks reported by scans and inspections.
 */
class RepairTest {
  @TempDir
  Path dir;

  private Table morTable() {
    // repair runs on version 6 only (refused on 8 and 9)
    Table t = TripFixture.create(dir.resolve("t"), TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(6).build(),
        Map.of());
    t.insert(trips(0, 40, 2, 1).iterator());
    t.upsert(updates(0, 10, 10).iterator());
    t.upsert(updates(10, 20, 20).iterator());
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
    try (Stream<Path> s = Files.walk(dir.resolve("t"))) {
      Map<String, String> out = new TreeMap<>();
      for (Path p : s.toList()) {
        out.put(dir.relativize(p).toString(), Files.isDirectory(p) ? "dir" : Files.size(p) + ":"
            + Files.getLastModifiedTime(p).toMillis() + ":" + Arrays.hashCode(Files.readAllBytes(p)));
      }
      return out;
    }
  }

  private List<Path> files(String folder, String suffix) throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("t").resolve(folder))) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().collect(Collectors.toList());
    }
  }

  private static String time(Path instantFile) {
    String n = instantFile.getFileName().toString();
    return n.substring(0, n.indexOf('.'));
  }

  @Test
  void aDryRunChangesNothingAndAnAppliedRepairFixesEveryKindKeepingEveryCommittedRow() throws IOException {
    Table t = morTable();
    Map<String, String> expected = rows(t);
    Path meta = dir.resolve("t/.hoodie");
    List<Path> commits = files(".hoodie", ".deltacommit");
    String first = time(commits.get(0));
    String latest = time(commits.get(commits.size() - 1));
    // a broken old commit file
    Files.writeString(commits.get(1), "{\"partitionToWriteStats\": {");
    // a base file of an instant that is not on the timeline (a failed write whose instant files are gone)
    Path base = files("p0", ".parquet").get(0);
    String leftoverTime = Long.toString(Long.parseLong(first) + 1);
    Path leftoverBase = base.resolveSibling("0a0a0a0a-0000-0000-0000-000000000000-0_0-0-0_" + leftoverTime + ".parquet");
    Files.copy(base, leftoverBase);
    // an empty log file a crash left
    Path emptyLog = dir.resolve("t/p1/.0b0b0b0b-0000-0000-0000-000000000000-0_" + latest + ".log.1_0-0-0");
    Files.createFile(emptyLog);
    // markers and a heartbeat of a completed instant
    Files.createDirectories(meta.resolve(".temp/" + latest));
    Files.writeString(meta.resolve(".temp/" + latest + "/x.parquet.marker.CREATE"), "");
    Files.createDirectories(meta.resolve(".heartbeat"));
    Files.writeString(meta.resolve(".heartbeat/" + latest), "");
    // hoodie.properties damaged, its backup valid
    Files.copy(meta.resolve("hoodie.properties"), meta.resolve("hoodie.properties.backup"));
    Files.writeString(meta.resolve("hoodie.properties"),
        Files.readString(meta.resolve("hoodie.properties")).replaceAll("hoodie.table.checksum=\\d+", "hoodie.table.checksum=1"));
    // a pending clean whose plan does not decode
    Path clean = meta.resolve(Long.parseLong(latest) + 5 + ".clean.requested");
    Files.writeString(clean, "not avro");

    assertThrows(SluiceException.class, () -> t.inspect().completedCommits(), "the broken commit is in the way");
    Map<String, String> before = tree();
    RepairReport dry = t.repair(false);
    assertFalse(dry.applied());
    assertEquals(before, tree(), "a dry run changes nothing");
    Set<String> kinds = dry.items().stream().map(RepairItem::kind).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(Set.of("TABLE_CONFIG", "BROKEN_INSTANT", "LEFTOVER_FILE", "STALE_STATE"), kinds, dry.items().toString());
    Set<String> paths = dry.items().stream().map(RepairItem::path).collect(Collectors.toSet());
    for (Path p : List.of(commits.get(1), leftoverBase, emptyLog, meta.resolve("hoodie.properties"), clean,
        meta.resolve(".heartbeat/" + latest))) {
      assertTrue(paths.contains(p.toString()), p + " not in " + paths);
    }
    assertTrue(dry.items().stream().allMatch(RepairItem::fixable), dry.items().toString());

    RepairReport applied = t.repair(true);
    assertTrue(applied.applied());
    assertTrue(applied.items().stream().allMatch(RepairItem::fixed));
    assertEquals(expected, rows(t), "every committed row is intact");
    assertTrue(t.repair(false).sound(), t.repair(false).items().toString());
    assertFalse(Files.exists(leftoverBase) || Files.exists(emptyLog) || Files.exists(clean)
        || Files.exists(meta.resolve(".temp/" + latest)) || Files.exists(meta.resolve("hoodie.properties.backup")));
    assertEquals(TableConfigStore.ConfigState.SOUND, TableConfigStore.state(t.storage(), t.location()));
    // the rebuilt commit lists the log files the instant wrote, with its 10 updates
    CommitInfo rebuilt = t.inspect().completedCommits().get(time(commits.get(1)));
    assertEquals(10, rebuilt.stats().stream().mapToLong(WriteStatInfo::numWrites).sum());
    // the damaged originals were kept
    Path backup = Path.of(applied.backupFolder().orElseThrow());
    assertEquals("{\"partitionToWriteStats\": {", Files.readString(backup.resolve(".hoodie/" + commits.get(1).getFileName())));
    // and the table goes on: a write, a compaction, a clean
    t.upsert(updates(30, 35, 30).iterator());
    t.compaction().scheduleNow().orElseThrow();
    t.compaction().runPending();
    t.clean();
    expected = new TreeMap<>(expected);
    for (GenericRecord r : updates(30, 35, 30)) {
      expected.remove(r.get("id").toString());
    }
    Map<String, String> now = rows(t);
    assertEquals(40, now.size());
    assertTrue(now.entrySet().containsAll(expected.entrySet()));
  }

  @Test
  void aTruncatedBlockIsReportedByTheScanAndTheInspection() throws IOException {
    Table t = morTable();
    Path log = files("p0", "").stream().filter(p -> p.getFileName().toString().contains(".log.")).findFirst().orElseThrow();
    long size = Files.size(log);
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "rw")) {
      f.setLength(size - 10);
    }
    List<CorruptBlockInfo> seen = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().onCorruptBlock(seen::add).open()) {
      it.forEachRemaining(r -> { });
    }
    assertEquals(1, seen.size(), seen.toString());
    CorruptBlockInfo b = seen.get(0);
    assertEquals(log.toString(), b.path());
    assertEquals(0, b.offset());
    assertEquals(size - 10, b.size());
    assertTrue(b.committed() && b.instantTime().isPresent(), b.toString());
    assertEquals(seen, t.inspect().corruptLogBlocks());
    // a repair drops the damaged bytes; then nothing is reported
    RepairReport r = t.repair(true);
    assertEquals(List.of("CORRUPT_LOG_BLOCK"), r.items().stream().map(RepairItem::kind).toList());
    assertTrue(t.inspect().corruptLogBlocks().isEmpty());
    seen.clear();
    try (CloseableIterator<GenericRecord> it = t.newScan().onCorruptBlock(seen::add).open()) {
      it.forEachRemaining(x -> { });
    }
    assertTrue(seen.isEmpty());
  }
}
