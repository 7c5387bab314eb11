package dev.sluice.crash;

import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.lsm.LsmTimeline;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL-style crashes of {@code Table.upgrade(9)} of a version-6 Merge-on-Read table with an archive, a metadata
 * table and log files ({@link UpgradeChild} halted at a kill point): in the rollback and compaction before the move, after
 * the metadata table's compaction, after the first and last file of its new timeline and once it is staged, after the
 * first file of the data table's new timeline and its first LSM batch, just before and just after
 * {@code hoodie.properties} switches the version, after the metadata table's properties switch, and while the old
 * timeline files are deleted. After each crash the
 * table opens and reads the rows it had (at version 6 or 9), and running the upgrade again ends where an uncrashed
 * upgrade ends: version 9, the same rows, the same number of timeline files and archived instants, no old file left,
 * the metadata table at version 9, used for listings, with every HFile base file it had (kept, not rebuilt).
 * The default run kills once at each upgrade step's first point and at one point of the compaction before it;
 * {@code -Dsluice.crash.points=N} adds N points spread over the whole trace.
 */
class UpgradeKillPointsTest {
  private static final Map<String, String> OPTIONS = Map.of("hoodie.keep.min.commits", "2",
      "hoodie.keep.max.commits", "3", "hoodie.cleaner.commits.retained", "1", "hoodie.compact.inline", "true",
      "hoodie.compact.inline.max.delta.commits", "3",
      "hoodie.metadata.enable", "true", "hoodie.index.bloom.num_entries", "1000");

  @TempDir
  Path dir;

  private static void version6(Path base) {
    Table t = Tables.create(base.toString(), TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(6).build(),
        dev.sluice.api.Config.of(OPTIONS));
    t.insert(trips(0, 20, 2, 1).iterator());
    // compactions after the 3rd and 6th delta commit let archival go on; the last two stay in log files
    for (int i = 1; i <= 7; i++) {
      t.upsert(List.of(trip(String.format("id-%06d", i), 10 + i, "p" + (i % 2), "u" + i, i)).iterator());
    }
  }

  private static Map<String, String> rows(Path base) {
    Map<String, String> out = new TreeMap<>();
    TripFixture.rows(Tables.open(base.toString())).forEach((k, v) -> out.put(k, v.get("name") + "@" + v.get("ts")));
    return out;
  }

  /** What an upgraded table looks like, independent of the instant times its compaction got. */
  private static String end(Path base) throws IOException {
    LocalStorage storage = new LocalStorage();
    int archived = LsmTimeline.of(storage, base.toString(), TableConfigStore.read(storage, base.toString()))
        .instants().size();
    List<String> old;
    int timeline;
    try (Stream<Path> s = Files.list(base.resolve(".hoodie"))) {
      old = s.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d+\\..*")).toList();
    }
    try (Stream<Path> s = Files.list(base.resolve(".hoodie/timeline"))) {
      // completed writes and compactions (a crashed run adds rollbacks of what it left, not more commits)
      timeline = (int) s.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d+_\\d+\\.(deltacommit|commit)"))
          .count();
    }
    Path mdt = base.resolve(".hoodie/metadata/.hoodie");
    List<String> mdtOld;
    try (Stream<Path> s = Files.list(mdt)) {
      mdtOld = s.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d+\\..*")).toList();
    }
    Table t = Tables.open(base.toString());
    return "version " + t.tableVersion() + ", " + timeline + " completed commits, " + archived
        + " archived, old files " + old + ", metadata table version "
        + TableConfigStore.read(storage, mdt.getParent().toString()).tableVersion() + ", used "
        + t.metadataTable().usedForListings() + ", old metadata files " + mdtOld;
  }

  private static Set<String> hfiles(Path base) throws IOException {
    Path mdt = base.resolve(".hoodie/metadata");
    try (Stream<Path> s = Files.walk(mdt)) {
      return s.map(p -> mdt.relativize(p).toString()).filter(n -> n.endsWith(".hfile"))
          .collect(java.util.stream.Collectors.toSet());
    }
  }

  private static void copy(Path from, Path to) {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private int runChild(Path base, String killSpec) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        "-D" + KillPoints.PROPERTY + "=" + killSpec, UpgradeChild.class.getName(), base.toString(), "9"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile())
        .start();
    assertTrue(p.waitFor(2, TimeUnit.MINUTES), "child finished");
    return p.exitValue();
  }

  @Test
  void aKilledUpgradeLeavesAReadableTableAndFinishesWhenRunAgain() throws IOException, InterruptedException {
    Path template = dir.resolve("template");
    version6(template);
    Map<String, String> rows = rows(template);

    Path traced = dir.resolve("traced");
    copy(template, traced);
    KillPoints.startTrace();
    Tables.open(traced.toString()).upgrade(9);
    List<String> points = KillPoints.stopTrace();
    String expected = end(traced);
    assertEquals(rows, rows(traced));
    assertTrue(expected.startsWith("version 9,") && expected.endsWith("old files [], metadata table version 9, used true, "
        + "old metadata files []"), expected);
    Set<String> hfiles = hfiles(template);

    Set<String> chosen = new LinkedHashSet<>();
    // (upgrade.metadata.removed#1, just before the first of these, is among the extended run's points)
    // the metadata table's steps come first: its compaction, its timeline (instant files, archive batches), staged;
    // after the data table's switch its properties and its old files
    int mdtInstants = (int) points.stream().takeWhile(p -> !p.equals("upgrade.metadata.staged#1"))
        .filter(p -> p.startsWith("upgrade.timeline.instant#")).count();
    for (String step : List.of("upgrade.metadata.compacted#1", "upgrade.timeline.instant#1",
        "upgrade.timeline.instant#" + mdtInstants, "upgrade.metadata.staged#1", "upgrade.timeline.instant#"
        + (mdtInstants + 1), "upgrade.archive.batch#1", "upgrade.switch.before#1", "upgrade.switch.after#1",
        "upgrade.metadata.switched#1", "upgrade.old.deleted#1")) {
      assertTrue(points.contains(step), step + " in " + points);
      chosen.add(step);
    }
    // the metadata table's compaction's own points (after the data table's compaction): its last one
    int compacted = points.indexOf("upgrade.metadata.compacted#1");
    points.subList(0, compacted).stream().filter(p -> p.startsWith("metadata.")).reduce((a, b) -> b)
        .ifPresent(chosen::add);
    // one point of the rollback and compaction that run while the table is still version 6
    points.stream().filter(p -> !p.startsWith("upgrade.")).skip(points.size() / 8).findFirst().ifPresent(chosen::add);
    int extra = Integer.getInteger("sluice.crash.points", 0);
    for (int i = 0; i < extra && !points.isEmpty(); i++) {
      chosen.add(points.get((int) ((long) i * points.size() / extra)));
    }
    int n = 0;
    for (String point : chosen) {
      Path base = dir.resolve("kill" + n++);
      copy(template, base);
      assertEquals(KillPoints.EXIT_STATUS, runChild(base, point), "killed at " + point);
      int version = Tables.open(base.toString()).tableVersion();
      assertTrue(version == 6 || version == 9, "after a kill at " + point + ": version " + version);
      assertEquals(rows, rows(base), "after a kill at " + point + " (version " + version + "): the same rows");
      Tables.open(base.toString()).upgrade(9);
      assertEquals(expected, end(base), "upgrade run again after a kill at " + point);
      assertEquals(rows, rows(base), "upgrade run again after a kill at " + point);
      assertTrue(hfiles(base).containsAll(hfiles), "the metadata table kept, not rebuilt, after a kill at " + point);
    }
    System.out.println("upgrade: killed at " + chosen.size() + " of " + points.size() + " kill points: " + chosen);
  }
}
