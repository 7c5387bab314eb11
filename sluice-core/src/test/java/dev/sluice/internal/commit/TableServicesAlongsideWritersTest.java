package dev.sluice.internal.commit;

import dev.sluice.testing.EngineSettings;
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
import dev.sluice.storage.LocalStorage;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.Action;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Ingestion while the cleaner and the archiver run over and over in another thread (and after every commit in the
 * writers, as configured by default): writers on their own file groups under optimistic concurrency control keep
 * rewriting their rows with one commit retained, so every clean has files to delete and archival has instants to
 * move. Every write commits, no service run fails, the table holds exactly the last version of every row, and no
 * file is left that no instant (active or archived) names.
 */
class TableServicesAlongsideWritersTest {
  private static final int WRITERS = 2;
  private static final int WRITES = 6;
  private static final int KEYS = 8;

  @TempDir
  Path dir;

  private static Map<String, String> options() {
    Map<String, String> o = new HashMap<>();
    o.put("hoodie.index.bloom.num_entries", "1000");
    o.put("sluice.write.parallelism", "1");
    o.put("hoodie.write.concurrency.mode", "optimistic_concurrency_control");
    o.put("hoodie.write.lock.provider", "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider");
    o.put("hoodie.write.lock.wait_time_ms_between_retry", "5");
    o.put("hoodie.cleaner.commits.retained", "1");
    o.put("hoodie.keep.min.commits", "2");
    o.put("hoodie.keep.max.commits", "3");
    return o;
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void writesCommitAndServicesSucceedWhileTheyRunTogether(TableType type)
      throws InterruptedException, ExecutionException {
    Map<String, String> o = options();
    // version 6: TableChecks.unreferenced reads version 6's archive only (on 9 the LSM history's files would show
    // as unreferenced)
    Table created = Tables.create(dir.toString(), TripFixture.spec().type(type).tableVersion(6).build(), Config.of(o));
    List<GenericRecord> seed = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      seed.addAll(version(w, 0));
    }
    created.insert(seed.iterator());

    AtomicBoolean writing = new AtomicBoolean(true);
    List<String> serviceErrors = Collections.synchronizedList(new ArrayList<>());
    List<String> conflictMessages = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
    Future<int[]> services = pool.submit(() -> {
      int[] runs = new int[2];
      LocalStorage storage = new LocalStorage();
      while (writing.get()) {
        try {
          runs[0] += EngineSettings.cleaner(storage, dir.toString(), Config.of(o)).clean().completed().size();
          runs[1] += EngineSettings.archiver(storage, dir.toString(), Config.of(o)).archive().archived().size();
        } catch (RuntimeException e) {
          serviceErrors.add(String.valueOf(e));
        }
      }
      return runs;
    });
    List<Future<Integer>> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      writers.add(pool.submit(() -> {
        int conflicts = 0;
        for (int v = 1; v <= WRITES; v++) {
          Table t = Tables.open(dir.toString(), Config.of(o));
          while (true) {
            try {
              t.upsert(version(writer, v).iterator());
              break;
            } catch (dev.sluice.api.SluiceException e) {
              if (e.kind() != dev.sluice.api.SluiceException.Kind.CONFLICT) {
                throw e;
              }
              conflicts++;
              conflictMessages.add(e.getMessage());
            }
          }
        }
        return conflicts;
      }));
    }
    int conflicts = 0;
    try {
      for (Future<Integer> f : writers) {
        conflicts += f.get();
      }
    } finally {
      writing.set(false);
    }
    int[] runs = services.get();
    pool.shutdown();

    assertTrue(serviceErrors.isEmpty(), "the cleaner and archiver ran without errors: " + serviceErrors);
    assertEquals(0, conflicts, "writers on different file groups never conflict, whatever the services do: "
        + conflictMessages);
    Table t = Tables.open(dir.toString(), Config.of(o));
    Map<String, String> expected = new TreeMap<>();
    for (int w = 0; w < WRITERS; w++) {
      for (int v = 0; v <= WRITES; v++) {
        for (GenericRecord r : version(w, v)) {
          expected.put(r.get("id").toString(), r.get("name").toString());
        }
      }
    }
    Map<String, String> got = new TreeMap<>();
    rows(t).forEach((k, r) -> got.put(k, r.get("name").toString()));
    assertEquals(expected, got, "the last version of every row, once");
    long commits = TableInternals.timeline(t).filter(i -> i.action().writesData() && i.isCompleted()).instants().size()
        // archived: .hoodie/archived (version 6) or the LSM history (8/9, the default), through the inspection
        + Tables.open(dir.toString()).inspect().archivedTimeline().stream()
            .filter(a -> Action.fromId(a.instant().action()).map(Action::writesData).orElse(false)
                && a.instant().state() == dev.sluice.api.InstantInfo.State.COMPLETED).count();
    assertEquals(1 + WRITERS * WRITES, commits, "every write committed once (active or archived)");
    assertTrue(TableInternals.timeline(t).inflightWrites().isEmpty(), TableInternals.timeline(t).toString());
    assertTrue(TableInternals.timeline(t).filter(i -> i.action() == Action.CLEAN && i.isCompleted()).instants().size()
        + runs[0] > 0, "something was cleaned");
    assertTrue(TableChecks.unreferenced(dir, true).isEmpty(), "unreferenced: " + TableChecks.unreferenced(dir, true));
    System.out.println(type + ": " + runs[0] + " cleans and " + runs[1] + " archived instants by the service thread,"
        + " alongside " + WRITERS * WRITES + " writes");
  }

  /**
   * Version {@code v} of writer {@code w}'s rows, all in its own partition, and one new row: with an insert in every
   * batch, Merge-on-Read rewrites the small file group's base file too (a new file slice the cleaner can remove).
   */
  private static List<GenericRecord> version(int w, int v) {
    List<GenericRecord> out = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      out.add(trip("w" + w + "-" + k, v, "p" + w, "w" + w + "-v" + v, v + k));
    }
    out.add(trip("w" + w + "-new-" + v, v, "p" + w, "w" + w + "-new", v));
    return out;
  }
}
