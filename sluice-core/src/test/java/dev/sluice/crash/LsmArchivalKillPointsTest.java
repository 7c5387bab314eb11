package dev.sluice.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.lsm.LsmInstant;
import dev.sluice.internal.timeline.lsm.LsmTimeline;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL-style crashes of an LSM archival on a version-9 table ({@link LsmArchivalChild} halted at a kill point:
 * before and after its data files, manifest, {@code _version_}, each active file deleted, the layer merge and the
 * cleaning). After each crash the archive reads, every instant is on the active or the archived timeline with its
 * completion time, and running the archival again ends where an uncrashed archival ends. The default run tries 5
 * points spread over the trace; {@code -Dsluice.crash.points=N} tries up to N (all of them with a large N).
 */
class LsmArchivalKillPointsTest {
  /** Six delta commits, each completed 5 ms after it was requested. */
  private static final List<String> TIMES = List.of("20261205000000100", "20261205000000200", "20261205000000300",
      "20261205000000400", "20261205000000500", "20261205000000600");

  @TempDir
  Path dir;

  private static String completion(String time) {
    return Long.toString(Long.parseLong(time) + 5);
  }

  /** A v9 table with every delta commit on the active timeline, then the first two archived (one layer-0 file). */
  private static void table(Path base) {
    try {
      Path timeline = Files.createDirectories(base.resolve(".hoodie/timeline"));
      Files.writeString(base.resolve(".hoodie/hoodie.properties"), "hoodie.table.name=t\nhoodie.table.version=9\n"
          + "hoodie.table.type=MERGE_ON_READ\nhoodie.timeline.layout.version=2\n");
      for (String t : TIMES) {
        Files.writeString(timeline.resolve(t + ".deltacommit.requested"), "");
        Files.writeString(timeline.resolve(t + ".deltacommit.inflight"), "profile " + t);
        Files.writeString(timeline.resolve(t + "_" + completion(t) + ".deltacommit"), "metadata " + t);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    LsmArchivalChild.archive(base.toString(), TIMES.subList(0, 2));
  }

  /** Requested → completion time of every completed instant, active or archived; the archive must read. */
  private static Map<String, String> state(Path base) throws IOException {
    Map<String, String> out = new TreeMap<>();
    LocalStorage storage = new LocalStorage();
    LsmTimeline lsm = LsmTimeline.of(storage, base.toString(), TableConfigStore.read(storage, base.toString()));
    for (LsmInstant i : lsm.instantsWithDetails()) {
      assertEquals("metadata " + i.instantTime(), new String(i.metadata().orElseThrow()), "archived bytes");
      out.put(i.instantTime(), i.completionTime());
    }
    try (Stream<Path> files = Files.list(base.resolve(".hoodie/timeline"))) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if (name.endsWith(".deltacommit") && name.contains("_")) {
          out.put(name.substring(0, name.indexOf('_')), name.substring(name.indexOf('_') + 1, name.indexOf('.')));
        }
      }
    }
    return out;
  }

  private int runChild(Path base, String killSpec) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        "-D" + KillPoints.PROPERTY + "=" + killSpec, LsmArchivalChild.class.getName(), base.toString()));
    cmd.addAll(TIMES.subList(2, 4));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile())
        .start();
    assertTrue(p.waitFor(2, TimeUnit.MINUTES), "child finished");
    return p.exitValue();
  }

  @Test
  void aKilledArchivalLeavesAReadableArchiveAndCompletesWhenRunAgain() throws IOException, InterruptedException {
    Map<String, String> expected = new TreeMap<>();
    for (String t : TIMES) {
      expected.put(t, completion(t));
    }
    // the points an archival that also merges layers and cleans passes, in order
    Path traced = dir.resolve("traced");
    table(traced);
    KillPoints.startTrace();
    LsmArchivalChild.archive(traced.toString(), TIMES.subList(2, 4));
    List<String> points = KillPoints.stopTrace();
    assertTrue(points.contains("lsm.merged.written#1") && points.contains("lsm.version.deleted#2"), points.toString());
    Map<String, String> done = state(traced);
    assertEquals(expected, done);

    int budget = Integer.getInteger("sluice.crash.points", 5);
    int step = Math.max(1, points.size() / budget);
    int tried = 0;
    for (int i = 0; i < points.size() && tried < budget; i += step, tried++) {
      Path base = dir.resolve("kill" + i);
      table(base);
      String point = points.get(i);
      assertEquals(KillPoints.EXIT_STATUS, runChild(base, point), "killed at " + point);
      assertEquals(expected, state(base), "after a kill at " + point + ": every instant active or archived");
      LsmArchivalChild.archive(base.toString(), TIMES.subList(2, 4));
      assertEquals(expected, state(base), "archival run again after a kill at " + point);
      LocalStorage storage = new LocalStorage();
      List<String> archived = LsmTimeline.of(storage, base.toString(), TableConfigStore.read(storage, base.toString()))
          .instants().stream().map(LsmTimeline.Archived::instantTime).toList();
      assertEquals(TIMES.subList(0, 4), archived, "after a kill at " + point + " and a second run");
    }
    System.out.println("LSM archival: killed at " + tried + " of " + points.size() + " kill points");
    assertTrue(tried >= Math.min(budget, points.size()), "tried " + tried + " of " + points);
  }
}
