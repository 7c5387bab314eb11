package dev.sluice.internal.commit;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.api.Config;
import dev.sluice.crash.TableChecks;
import dev.sluice.internal.timeline.Action;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Several writers on one table under optimistic concurrency control, as threads of one JVM and as separate
 * processes: every committed record is there exactly once, no committed write is lost, conflicts are reported as
 * CONFLICT errors (the loser's files rolled back, a rollback instant on the timeline) and retried, and writers on
 * different file groups all commit without conflicts.
 */
class ConcurrentWritersTest {
  @TempDir
  Path dir;

  private static Map<String, String> options(String provider) {
    Map<String, String> o = new HashMap<>();
    o.put("hoodie.index.bloom.num_entries", "1000");
    o.put("sluice.write.parallelism", "1");
    // inserts always open new file groups: only the hot key makes writers meet
    o.put("hoodie.parquet.small.file.limit", "0");
    o.put("hoodie.write.concurrency.mode", "optimistic_concurrency_control");
    o.put("hoodie.write.lock.provider", "org.apache.hudi.client.transaction.lock." + provider);
    o.put("hoodie.write.lock.wait_time_ms_between_retry", "5");
    // a hot run may meet more than 30 conflicts: archival must not take rollback instants before they are counted
    o.put("hoodie.keep.min.commits", "200");
    o.put("hoodie.keep.max.commits", "210");
    return o;
  }

  private Table create(Map<String, String> o) {
    Table t = Tables.create(dir.toString(), TripFixture.spec().build(), Config.of(o));
    t.insert(List.of(trip("hot", 0, "p0", "start", 0), trip("seed-1", 0, "p1", "s", 0)).iterator());
    return t;
  }

  @ParameterizedTest(name = "{0} writers x {1} writes, hot key {2}, {3}")
  @CsvSource({"4, 4, true, InProcessLockProvider", "4, 4, true, FileSystemBasedLockProvider",
      "4, 3, false, FileSystemBasedLockProvider"})
  void threadsWritingTheSameTable(int writers, int writes, boolean hot, String provider)
      throws InterruptedException, ExecutionException {
    Map<String, String> o = options(provider);
    create(o);
    AtomicLong clock = new AtomicLong(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<List<WriterWorkload.Outcome>>> futures = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      String name = "t" + w;
      Table t = Tables.open(dir.toString(), Config.of(o));
      futures.add(pool.submit(() -> WriterWorkload.run(t, name, writes, hot, clock::incrementAndGet, name.hashCode())));
    }
    List<WriterWorkload.Outcome> outcomes = new ArrayList<>();
    for (Future<List<WriterWorkload.Outcome>> f : futures) {
      outcomes.addAll(f.get());
    }
    pool.shutdown();
    int conflicts = verify(Tables.open(dir.toString(), Config.of(o)), outcomes, writers * writes, hot);
    System.out.println("threads, " + provider + ", hot=" + hot + ": " + outcomes.size() + " commits, " + conflicts
        + " conflicts");
    if (!hot) {
      assertEquals(0, conflicts, "writers on different file groups never conflict");
    }
  }

  @ParameterizedTest(name = "{0} processes x {1} writes, hot key {2}")
  @CsvSource({"3, 4, true", "3, 3, false"})
  void processesWritingTheSameTable(int writers, int writes, boolean hot) throws IOException, InterruptedException {
    Map<String, String> o = options("FileSystemBasedLockProvider");
    create(o);
    List<Process> procs = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
          ConcurrentWriterMain.class.getName(), dir.toString(), "proc" + w, Integer.toString(writes), Boolean.toString(hot)));
      o.forEach((k, v) -> cmd.add(k + "=" + v));
      procs.add(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start());
    }
    List<WriterWorkload.Outcome> outcomes = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      Process p = procs.get(w);
      List<String> lines = new ArrayList<>();
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          lines.add(line);
        }
      }
      assertTrue(p.waitFor(3, TimeUnit.MINUTES));
      assertEquals(0, p.exitValue(), "writer " + w + " failed: " + lines);
      assertEquals("END", lines.get(lines.size() - 1), lines.toString());
      List<String> messages = new ArrayList<>();
      for (String line : lines) {
        if (line.startsWith("CONFLICT ")) {
          messages.add(line.substring(9));
        }
      }
      for (String line : lines) {
        String[] f = line.split(" ");
        if (f[0].equals("COMMIT")) {
          int write = Integer.parseInt(f[1]);
          long ts = Long.parseLong(f[3]);
          List<String> keys = WriterWorkload.records("proc" + w, write, hot, ts).stream().map(x -> x.get("id").toString())
              .toList();
          outcomes.add(new WriterWorkload.Outcome("proc" + w, write, f[2], keys, ts, Integer.parseInt(f[4]),
              write == 0 ? messages : List.of()));
        }
      }
    }
    int conflicts = verify(Tables.open(dir.toString(), Config.of(o)), outcomes, writers * writes, hot);
    System.out.println("processes, hot=" + hot + ": " + outcomes.size() + " commits, " + conflicts + " conflicts");
    if (!hot) {
      assertEquals(0, conflicts, "writers on different file groups never conflict");
    }
  }

  /** Checks the table against what the writers committed; returns the number of conflicts they met. */
  private static int verify(Table t, List<WriterWorkload.Outcome> outcomes, int expectedWrites, boolean hot) {
    assertEquals(expectedWrites, outcomes.size(), "every write eventually committed");
    Map<String, GenericRecord> rows = rows(t);
    int conflicts = 0;
    WriterWorkload.Outcome newestHot = null;
    for (WriterWorkload.Outcome o : outcomes) {
      conflicts += o.conflicts();
      for (String key : o.keys()) {
        if (!key.equals("hot")) {
          GenericRecord r = rows.get(key);
          assertTrue(r != null, "committed key " + key + " of " + o.instant() + " is lost");
          assertEquals(o.writer() + "/" + o.write(), r.get("name").toString());
        }
      }
      if (hot && (newestHot == null || o.hotTs() > newestHot.hotTs())) {
        newestHot = o;
      }
      for (String m : o.conflictMessages()) {
        assertTrue(m.contains("also wrote file group") && m.contains("in partition 'p0'"), m);
      }
    }
    assertEquals(2 + outcomes.size() * 3, rows.size(), "every committed record once, nothing else");
    if (hot) {
      assertEquals(newestHot.writer() + "/" + newestHot.write(), rows.get("hot").get("name").toString(),
          "the hot key holds the committed version with the largest ts");
    }
    long commits = TableInternals.timeline(t).filter(i -> i.action() == Action.COMMIT && i.isCompleted()).instants().size();
    assertEquals(1 + outcomes.size(), commits, "one commit per successful write");
    long rollbacks = TableInternals.timeline(t).filter(i -> i.action() == Action.ROLLBACK && i.isCompleted()).instants().size();
    assertEquals(conflicts, rollbacks, "each conflict rolled its write back through a rollback instant");
    assertTrue(TableInternals.timeline(t).filter(i -> !i.isCompleted()).isEmpty(), "nothing pending: " + TableInternals.timeline(t));
    assertEquals(List.of(), TableChecks.unreferenced(Path.of(t.location()), false),
        "data files that no instant references; timeline: " + TableInternals.timeline(t));
    return conflicts;
  }
}
