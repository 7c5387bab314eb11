package dev.sluice.crash;

import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.config.Config;
import dev.sluice.savepoint.Savepoints;
import dev.sluice.storage.CrashingStorage;
import dev.sluice.table.TableType;
import dev.sluice.timeline.Action;
import dev.sluice.timeline.Instant;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;

/** The crash-test scenarios: every kind of write and table action, on CoW and MoR tables. */
public final class Scenarios {
  /** Options of every scenario: small bloom filters, one writer thread (so kill points come in a fixed order). */
  static final Map<String, String> BASE = Map.of("hoodie.index.bloom.num_entries", "1000", "sluice.write.parallelism", "1");

  private Scenarios() {
  }

  /** All scenarios. */
  public static List<CrashScenario> all() {
    List<CrashScenario> out = new ArrayList<>();
    out.add(simple("cow-upsert", TableType.COPY_ON_WRITE, Map.of(), t -> t.upsert(upsertBatch().iterator())));
    out.add(simple("cow-insert", TableType.COPY_ON_WRITE, Map.of(), t -> t.insert(insertBatch().iterator())));
    out.add(simple("cow-bulk-insert", TableType.COPY_ON_WRITE, Map.of(), t -> t.bulkInsert(trips(500, 30, 3, 5).iterator())));
    out.add(simple("cow-delete", TableType.COPY_ON_WRITE, Map.of(), t -> t.delete(deleteBatch().iterator())));
    out.add(simple("mor-upsert", TableType.MERGE_ON_READ, Map.of("hoodie.parquet.small.file.limit", "0"),
        t -> t.upsert(upsertBatch().iterator())));
    out.add(simple("occ-upsert", TableType.COPY_ON_WRITE, occ(), t -> t.upsert(upsertBatch().iterator())));
    out.add(withFailedWrite("write-after-failure", TableType.COPY_ON_WRITE, t -> t.upsert(upsertBatch().iterator()), false));
    out.add(withFailedWrite("rollback-failed", TableType.COPY_ON_WRITE, Table::rollbackFailedWrites, true));
    out.add(withFailedWrite("mor-write-after-failure", TableType.MERGE_ON_READ, t -> t.upsert(upsertBatch().iterator()),
        false));
    out.add(withFailedWrite("mor-rollback-failed", TableType.MERGE_ON_READ, Table::rollbackFailedWrites, true)
        .appending("mor-rollback-failed-appending"));
    out.add(simple("mor-upsert-appending", TableType.MERGE_ON_READ, Map.of("hoodie.parquet.small.file.limit", "0"),
        t -> t.upsert(upsertBatch().iterator())).appending("mor-upsert-appending"));
    out.add(new CrashScenario("rollback-latest", options(Map.of()), (dir, crashing) -> {
      Table t = create(dir, TableType.COPY_ON_WRITE, options(Map.of()));
      t.insert(trips(0, 40, 2, 1).iterator());
      t.upsert(upsertBatch().iterator());
      return List.of(rows(t));
    }, t -> t.rollback(t.timeline().commitsTimeline().completed().lastInstant().orElseThrow().time()), false,
        Table::rollbackFailedWrites, true, false));
    out.add(new CrashScenario("savepoint", options(Map.of()), (dir, crashing) -> {
      Table t = create(dir, TableType.COPY_ON_WRITE, options(Map.of()));
      t.insert(trips(0, 40, 2, 1).iterator());
      t.upsert(upsertBatch().iterator());
      return List.of(rows(t));
    }, t -> t.savepoint(Optional.empty()), false, t -> { }, false, false));
    out.add(new CrashScenario("restore", options(Map.of()), (dir, crashing) -> {
      Table t = create(dir, TableType.COPY_ON_WRITE, options(Map.of()));
      List<Map<String, GenericRecord>> states = new ArrayList<>();
      t.insert(trips(0, 40, 2, 1).iterator());
      t.upsert(upsertBatch().iterator());
      t.savepoint(Optional.empty());
      states.add(rows(t));
      t.insert(insertBatch().iterator());
      states.add(rows(t));
      t.delete(deleteBatch().iterator());
      states.add(rows(t));
      return states;
    }, t -> t.restore(Savepoints.list(t.timeline()).get(0)), true, Scenarios::finishRestore, true, false));
    out.add(compaction());
    return out;
  }

  /**
   * Running a scheduled compaction of a MoR table: the rows never change; a killed run is rolled back and run again
   * from its plan by the recovery.
   */
  private static CrashScenario compaction() {
    Map<String, String> o = options(Map.of("hoodie.parquet.small.file.limit", "0"));
    return new CrashScenario("mor-compaction", o, (dir, crashing) -> {
      Table t = create(dir, TableType.MERGE_ON_READ, o);
      t.insert(trips(0, 40, 2, 1).iterator());
      t.upsert(upsertBatch().iterator());
      t.delete(deleteBatch().iterator());
      t.compaction().scheduleNow().orElseThrow();
      return List.of(rows(t));
    }, t -> t.compaction().runPending(), false, t -> t.compaction().runPending(), true, false);
  }

  /** The scenario called {@code name}. */
  public static CrashScenario byName(String name) {
    return all().stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no crash scenario " + name));
  }

  private static CrashScenario simple(String name, TableType type, Map<String, String> extra, CrashScenario.Op op) {
    Map<String, String> o = options(extra);
    boolean lazy = extra.containsKey("hoodie.write.concurrency.mode");
    return new CrashScenario(name, o, (dir, crashing) -> {
      Table t = create(dir, type, o);
      t.insert(trips(0, 40, 2, 1).iterator());
      return List.of(rows(t));
    }, op, false, lazy ? Scenarios::ageHeartbeats : t -> { }, false, false);
  }

  /**
   * The table holds a write that died midway: on CoW after writing one base file, on MoR (where updates go to log
   * files) just before publishing; its instant, markers and files are left.
   */
  private static CrashScenario withFailedWrite(String name, TableType type, CrashScenario.Op op, boolean rollbackOnly) {
    boolean mor = type == TableType.MERGE_ON_READ;
    Map<String, String> o = options(mor ? Map.of("hoodie.parquet.small.file.limit", "0") : Map.of());
    return new CrashScenario(name, o, (dir, crashing) -> {
      Table t = create(dir, type, o);
      t.insert(trips(0, 40, 2, 1).iterator());
      crashing.crashAt(mor ? c -> c.startsWith("CREATE_EXCLUSIVE ") && c.endsWith(".deltacommit")
          : c -> c.startsWith("CREATE ") && c.endsWith(".parquet"), mor ? 1 : 2);
      Table dying = Tables.open(crashing, dir.toString(), Config.of(o));
      try {
        dying.upsert((mor ? upsertBatch() : insertBatch()).iterator());
        throw new AssertionError("the setup write was meant to crash");
      } catch (CrashingStorage.Crash expected) {
        crashing.restart();
      }
      return List.of(rows(t));
    }, op, false, t -> { }, rollbackOnly, false);
  }

  static Map<String, String> options(Map<String, String> extra) {
    Map<String, String> o = new HashMap<>(BASE);
    o.putAll(extra);
    return Map.copyOf(o);
  }

  private static Map<String, String> occ() {
    return Map.of("hoodie.write.concurrency.mode", "optimistic_concurrency_control",
        "hoodie.write.lock.provider", "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider",
        "hoodie.write.lock.wait_time_ms", "20000", "hoodie.write.lock.wait_time_ms_between_retry", "20");
  }

  private static Table create(Path dir, TableType type, Map<String, String> o) {
    return Tables.create(dir.toString(), TripFixture.spec().type(type).build(), Config.of(o));
  }

  /** 10 updates (ids 0..9, in p0 and p1) and 10 inserts, some into a new partition p2. */
  static List<GenericRecord> upsertBatch() {
    List<GenericRecord> b = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      b.add(trip(String.format("id-%06d", i), 10, "p" + (i % 2), "upd-" + i, i + 0.25));
    }
    for (int i = 0; i < 10; i++) {
      b.add(trip(String.format("new-%06d", i), 10, "p" + (i % 3), "new-" + i, i));
    }
    return b;
  }

  static List<GenericRecord> insertBatch() {
    List<GenericRecord> b = new ArrayList<>(trips(100, 12, 3, 3));
    b.add(trip("id-000020", 3, "p0", "again", 1));
    return b;
  }

  static List<GenericRecord> deleteBatch() {
    List<GenericRecord> b = new ArrayList<>();
    for (int i = 30; i < 36; i++) {
      b.add(trip(String.format("id-%06d", i), 0, "p" + (i % 2), null, 0));
    }
    return b;
  }

  /** The write every trial ends with: it must succeed and roll back whatever the crash left. */
  static List<GenericRecord> followUp() {
    List<GenericRecord> b = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      b.add(trip(String.format("id-%06d", i), 1000, "p" + (i % 2), "next-" + i, 1000 + i));
    }
    b.add(trip("next-a", 1000, "p0", "next-a", 1));
    b.add(trip("next-b", 1000, "p1", "next-b", 2));
    return b;
  }

  /** An interrupted restore blocks writes until it is run again. */
  private static void finishRestore(Table t) {
    boolean pending = t.timeline().filter(i -> i.action() == Action.RESTORE && !i.isCompleted()).lastInstant().isPresent();
    if (pending) {
      t.restore(Savepoints.list(t.timeline()).get(0));
    }
  }

  /** Lazy writers roll back only writes whose heartbeat expired: make the dead writer's heartbeat old. */
  private static void ageHeartbeats(Table t) {
    Path folder = Path.of(t.location(), ".hoodie", ".heartbeat");
    if (!Files.isDirectory(folder)) {
      return;
    }
    try (Stream<Path> s = Files.list(folder)) {
      for (Path p : s.toList()) {
        Files.setLastModifiedTime(p, FileTime.fromMillis(0));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The pending write instants of a table. */
  static List<Instant> pendingWrites(Table t) {
    return t.timeline().inflightWrites();
  }
}
