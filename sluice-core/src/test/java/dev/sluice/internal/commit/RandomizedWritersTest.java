package dev.sluice.internal.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.crash.TableChecks;
import dev.sluice.internal.service.TableInternals;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The race left to chance: three writers (threads, or child JVMs) write one table at once in each concurrency mode
 * (single writer, the default; optimistic concurrency control with the in-process lock; with the file-system lock)
 * on Copy-on-Write and Merge-on-Read, each write updating a random handful of keys of one shared file group. After
 * each run the snapshot must equal the model of the committed writes (per key, the committed version with the
 * largest ordering value; records lost = keys that differ), every key once, nothing pending, no unreferenced file.
 *
 * <p>The default run does one run per mode and way (six); {@code -Dsluice.concurrency.runs=N} does N per mode, cycling
 * through threads and processes, CoW and MoR ({@code -Dsluice.concurrency.seed=S} replays; the seed is printed).
 */
class RandomizedWritersTest {
  private static final String[] MODES = {"single", "occ-inprocess", "occ-fs"};
  private static final int WRITERS = 3;
  private static final int WRITES = 3;

  @TempDir
  Path dir;

  @Test
  void concurrentWritersLoseNothingInAnyMode()
      throws IOException, InterruptedException, ExecutionException, TimeoutException {
    int perMode = Integer.getInteger("sluice.concurrency.runs", 2);
    String seedProp = System.getProperty("sluice.concurrency.seed", "1");
    long seed = seedProp.equals("random") ? System.nanoTime() : Long.parseLong(seedProp);
    System.out.println("concurrency runs seed " + seed + " (replay: -Dsluice.concurrency.seed=" + seed + ")");
    Random random = new Random(seed);
    Map<String, int[]> figures = new TreeMap<>();
    for (String mode : MODES) {
      for (int r = 0; r < perMode; r++) {
        boolean processes = r % 2 == 1;
        TableType type = (r / 2 + List.of(MODES).indexOf(mode)) % 2 == 0 ? TableType.COPY_ON_WRITE
            : TableType.MERGE_ON_READ;
        Path table = WritersRaceTest.seed(dir.resolve(mode + "-" + r), type);
        long runSeed = random.nextLong();
        List<RandomWriter.Outcome> outcomes = processes ? inProcesses(table, mode, runSeed)
            : inThreads(table, mode, runSeed);
        int[] f = figures.computeIfAbsent(mode, m -> new int[4]);
        int lost = check(table, outcomes, mode + " run " + r + " (" + (processes ? "processes" : "threads") + ", "
            + type + ", seed " + runSeed + ")");
        f[0]++;
        f[1] += outcomes.stream().mapToInt(o -> o.commits().size()).sum();
        f[2] += outcomes.stream().mapToInt(RandomWriter.Outcome::conflicts).sum();
        f[3] += lost;
      }
    }
    figures.forEach((mode, f) -> System.out.println("concurrency " + mode + ": " + f[0] + " runs, " + f[1]
        + " commits, " + f[2] + " conflicts or refusals retried, " + f[3] + " records lost"));
    figures.forEach((mode, f) -> assertEquals(0, f[3], mode + ": records lost"));
  }

  private List<RandomWriter.Outcome> inThreads(Path table, String mode, long seed)
      throws IOException, InterruptedException, ExecutionException, TimeoutException {
    AtomicLong clock = new AtomicLong(1);
    List<CompletableFuture<RandomWriter.Outcome>> futures = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      String name = "w" + w;
      long s = seed + w;
      Table t = Tables.open(table.toString(), Config.of(WritersRaceTest.mode(mode)));
      futures.add(CompletableFuture.supplyAsync(() -> RandomWriter.run(t, name, WRITES, s, clock::incrementAndGet)));
    }
    List<RandomWriter.Outcome> out = new ArrayList<>();
    for (CompletableFuture<RandomWriter.Outcome> f : futures) {
      out.add(f.get(3, TimeUnit.MINUTES));
    }
    return out;
  }

  private List<RandomWriter.Outcome> inProcesses(Path table, String mode, long seed) throws IOException,
      InterruptedException {
    List<Process> procs = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
          RandomWriter.class.getName(), table.toString(), "w" + w, Integer.toString(WRITES), Long.toString(seed + w)));
      WritersRaceTest.mode(mode).forEach((k, v) -> cmd.add(k + "=" + v));
      procs.add(new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }
    List<RandomWriter.Outcome> out = new ArrayList<>();
    for (Process p : procs) {
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(3, TimeUnit.MINUTES), "writer process ended");
      assertEquals(0, p.exitValue(), text);
      List<RandomWriter.Committed> commits = new ArrayList<>();
      int conflicts = 0;
      for (String line : text.split("\n")) {
        if (line.startsWith("COMMIT ")) {
          commits.add(RandomWriter.Committed.parse(line));
        } else if (line.startsWith("CONFLICTS ")) {
          conflicts = Integer.parseInt(line.substring(10).trim());
        }
      }
      assertEquals(WRITES, commits.size(), text);
      out.add(new RandomWriter.Outcome(commits, conflicts));
    }
    return out;
  }

  /** Compares the table with the model of the committed writes; returns the records lost (asserting the rest). */
  private static int check(Path table, List<RandomWriter.Outcome> outcomes, String run) {
    Map<String, String> expected = new TreeMap<>();
    Map<String, Long> ts = new TreeMap<>();
    for (int i = 0; i < RaceWriter.SHARED; i++) {
      expected.put("s" + i, "seed");
      ts.put("s" + i, 0L);
    }
    int commits = 0;
    for (RandomWriter.Outcome o : outcomes) {
      for (RandomWriter.Committed c : o.commits()) {
        commits++;
        c.values().forEach((k, v) -> {
          if (c.ts() > ts.getOrDefault(k, Long.MIN_VALUE)) {
            expected.put(k, v);
            ts.put(k, c.ts());
          }
        });
      }
    }
    Table t = Tables.open(table.toString());
    Map<String, String> actual = WritersRaceTest.names(t);
    int lost = 0;
    for (Map.Entry<String, String> e : expected.entrySet()) {
      if (!e.getValue().equals(actual.get(e.getKey()))) {
        lost++;
      }
    }
    System.out.println(run + ": " + commits + " commits, " + lost + " records lost");
    assertEquals(WRITERS * WRITES, commits, run);
    assertEquals(expected, actual, run + ": the snapshot is the model of the committed writes");
    assertTrue(TableInternals.timeline(t).filter(i -> !i.isCompleted()).isEmpty(), run + ": " + TableInternals
        .timeline(t));
    if (!run.contains("MERGE_ON_READ")) {
      // MoR: a rolled-back writer's blocks may sit in a log file version it shared with the winner (undone by a
      // rollback block there); concurrent log versions are another part of issue 18. The rows are checked above
      assertEquals(List.of(), TableChecks.unreferenced(table, false), run + ": unreferenced files");
    }
    return lost;
  }
}
