package dev.sluice.crash;

import dev.sluice.testing.EngineSettings;
import dev.sluice.internal.service.TableInternals;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.archive.ArchiveLog;
import dev.sluice.internal.archive.ArchivedInstant;
import dev.sluice.internal.clean.CleanAvro;
import dev.sluice.internal.clean.CleanFile;
import dev.sluice.internal.clean.CleanPlan;
import dev.sluice.internal.compact.CompactionOperation;
import dev.sluice.api.Config;
import dev.sluice.internal.savepoint.Savepoints;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.CrashingStorage;
import dev.sluice.api.TableType;
import dev.sluice.internal.mdt.write.MetadataTableChecks;
import dev.sluice.internal.mdt.write.RecordIndexChecks;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.State;
import dev.sluice.internal.timeline.TimelineStore;
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
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;

/** The crash-test scenarios: every kind of write and table action, on CoW and MoR tables. */
public final class Scenarios {
  /** Options of every scenario: small bloom filters, one writer thread (so kill points come in a fixed order). */
  static final Map<String, String> BASE = Map.of("hoodie.index.bloom.num_entries", "1000", "sluice.write.parallelism", "1");

  private Scenarios() {
  }

  /** The table versions every scenario runs on: Hudi 0.14/0.15's and Hudi 1.1's. */
  public static final List<Integer> VERSIONS = List.of(6, 9);

  /** All scenarios, on every version of {@link #VERSIONS}. */
  public static List<CrashScenario> all() {
    List<CrashScenario> out = new ArrayList<>();
    VERSIONS.forEach(v -> out.addAll(forVersion(v)));
    return out;
  }

  /** The scenarios of {@code all()} on {@code version}. */
  public static List<CrashScenario> onVersion(int version) {
    return all().stream().filter(s -> versionOf(s.name()) == version).toList();
  }

  /** {@code name} on {@code version}: version 6 keeps the plain name, others get {@code -v<version>}. */
  public static String named(String name, int version) {
    return version == 6 ? name : name + "-v" + version;
  }

  /** The version of the scenario called {@code name}. */
  public static int versionOf(String name) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(".*-v(\\d+)$").matcher(name);
    return m.matches() ? Integer.parseInt(m.group(1)) : 6;
  }

  /** The scenario called {@code base} (its version-6 name) on {@code version}. */
  public static CrashScenario byName(String base, int version) {
    return byName(named(base, version));
  }

  private static List<CrashScenario> forVersion(int version) {
    List<CrashScenario> out = new ArrayList<>();
    out.add(simple(version, named("cow-upsert", version), TableType.COPY_ON_WRITE, Map.of(), t -> t.upsert(upsertBatch().iterator())));
    out.add(simple(version, named("cow-insert", version), TableType.COPY_ON_WRITE, Map.of(), t -> t.insert(insertBatch().iterator())));
    out.add(simple(version, named("cow-bulk-insert", version), TableType.COPY_ON_WRITE, Map.of(),
        t -> t.bulkInsert(trips(500, 30, 3, 5).iterator())));
    out.add(simple(version, named("cow-delete", version), TableType.COPY_ON_WRITE, Map.of(), t -> t.delete(deleteBatch().iterator())));
    out.add(simple(version, named("mor-upsert", version), TableType.MERGE_ON_READ, Map.of("hoodie.parquet.small.file.limit", "0"),
        t -> t.upsert(upsertBatch().iterator())));
    out.add(simple(version, named("occ-upsert", version), TableType.COPY_ON_WRITE, occ(), t -> t.upsert(upsertBatch().iterator())));
    out.add(withFailedWrite(version, named("write-after-failure", version), TableType.COPY_ON_WRITE,
        t -> t.upsert(upsertBatch().iterator()), false));
    out.add(withFailedWrite(version, named("rollback-failed", version), TableType.COPY_ON_WRITE,
        Table::rollbackFailedWrites, true));
    out.add(withFailedWrite(version, named("mor-write-after-failure", version), TableType.MERGE_ON_READ,
        t -> t.upsert(upsertBatch().iterator()), false));
    out.add(withFailedWrite(version, named("mor-rollback-failed", version), TableType.MERGE_ON_READ, Table::rollbackFailedWrites, true)
        .appending(named("mor-rollback-failed-appending", version)));
    out.add(simple(version, named("mor-upsert-appending", version), TableType.MERGE_ON_READ, Map.of("hoodie.parquet.small.file.limit", "0"),
        t -> t.upsert(upsertBatch().iterator())).appending(named("mor-upsert-appending", version)));
    out.add(metadataTable(version, named("cow-upsert-mdt", version), TableType.COPY_ON_WRITE));
    out.add(metadataTable(version, named("mor-upsert-mdt", version), TableType.MERGE_ON_READ));
    out.add(metadataServices(version, named("cow-upsert-mdt-services", version)));
    out.add(recordIndex(version, named("cow-upsert-ri", version), TableType.COPY_ON_WRITE, false));
    out.add(recordIndex(version, named("mor-upsert-ri-compaction", version), TableType.MERGE_ON_READ, true));
    out.add(new CrashScenario(named("rollback-latest", version), options(Map.of()), (dir, crashing) -> {
      Table t = create(dir, TableType.COPY_ON_WRITE, options(Map.of()), version);
      t.insert(trips(0, 40, 2, 1).iterator());
      t.upsert(upsertBatch().iterator());
      return List.of(rows(t));
    }, t -> t.rollback(TableInternals.timeline(t).commitsTimeline().completed().lastInstant().orElseThrow().time()), false,
        Table::rollbackFailedWrites, true, false));
    out.add(new CrashScenario(named("savepoint", version), options(Map.of()), (dir, crashing) -> {
      Table t = create(dir, TableType.COPY_ON_WRITE, options(Map.of()), version);
      t.insert(trips(0, 40, 2, 1).iterator());
      t.upsert(upsertBatch().iterator());
      return List.of(rows(t));
    }, t -> t.savepoint(Optional.empty()), false, t -> { }, false, false));
    out.add(new CrashScenario(named("restore", version), options(Map.of()), (dir, crashing) -> {
      Table t = create(dir, TableType.COPY_ON_WRITE, options(Map.of()), version);
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
    }, t -> t.restore(Savepoints.list(TableInternals.timeline(t)).get(0)), true, Scenarios::finishRestore, true, false));
    out.add(clean(version, named("cow-clean", version), TableType.COPY_ON_WRITE));
    out.add(clean(version, named("mor-clean", version), TableType.MERGE_ON_READ));
    out.add(archive(version, named("cow-archive", version)));
    out.add(compaction(version));
    out.add(repair(version, named("cow-repair", version), TableType.COPY_ON_WRITE));
    out.add(repair(version, named("mor-repair", version), TableType.MERGE_ON_READ));
    return out;
  }

  /**
   * {@code Table.repair(true)} of a table with damage of every kind it fixes without changing a row: a broken old
   * commit file (rebuilt), a leftover base file of an instant that is gone, stale markers, a damaged
   * {@code hoodie.properties} with a valid backup, an undecodable pending clean, and on MoR a partial block at the end
   * of a log file (a crashed append). Killed anywhere, the table reads as before; running the repair again finishes it.
   */
  private static CrashScenario repair(int version, String name, TableType type) {
    Map<String, String> o = options(type == TableType.MERGE_ON_READ ? Map.of("hoodie.parquet.small.file.limit", "0")
        : Map.of());
    return new CrashScenario(name, o, (dir, crashing) -> {
      Table t = create(dir, type, o, version);
      t.insert(trips(0, 40, 2, 1).iterator());
      t.upsert(upsertBatch().iterator());
      t.upsert(updates(10, 20, 20).iterator());
      try {
        damage(dir, type, version);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return List.of(rows(t));
    }, t -> t.repair(true), false, t -> t.repair(true), true, false)
        .withFinalCheck(t -> t.repair(false).items().stream().map(i -> "left after repair: " + i).toList());
  }

  private static void damage(Path dir, TableType type, int version) throws IOException {
    Path meta = dir.resolve(".hoodie");
    // versions 8/9 keep the instants in .hoodie/timeline; a completed one is <requested>_<completion>.<action>
    Path timeline = Path.of(new TimelineStore(new dev.sluice.storage.LocalStorage(), dir.toString()).layout()
        .folder(dir.toString()));
    String suffix = type == TableType.MERGE_ON_READ ? ".deltacommit" : ".commit";
    List<Path> commits;
    try (Stream<Path> s = Files.list(timeline)) {
      commits = s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
    Files.writeString(commits.get(1), "{\"partitionToWriteStats\": {");
    String first = commits.get(0).getFileName().toString().substring(0, 17);
    String latest = commits.get(commits.size() - 1).getFileName().toString().substring(0, 17);
    Path base;
    try (Stream<Path> s = Files.list(dir.resolve("p0"))) {
      base = s.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    Files.copy(base, base.resolveSibling("0a0a0a0a-0000-0000-0000-000000000000-0_0-0-0_"
        + (Long.parseLong(first) + 1) + ".parquet"));
    Files.createDirectories(meta.resolve(".temp/" + latest));
    Files.writeString(meta.resolve(".temp/" + latest + "/x.parquet.marker.CREATE"), "");
    Files.copy(meta.resolve("hoodie.properties"), meta.resolve("hoodie.properties.backup"));
    Files.writeString(meta.resolve("hoodie.properties"), Files.readString(meta.resolve("hoodie.properties"))
        .replaceAll("hoodie.table.checksum=\\d+", "hoodie.table.checksum=1"));
    Files.writeString(timeline.resolve(Long.parseLong(latest) + 5 + ".clean.requested"), "not avro");
    if (type == TableType.MERGE_ON_READ) {
      Path log;
      try (Stream<Path> s = Files.list(dir.resolve("p1"))) {
        log = s.filter(p -> p.getFileName().toString().contains(".log.")).sorted().reduce((a, b) -> b).orElseThrow();
      }
      byte[] bytes = Files.readAllBytes(log);
      // the first 100 bytes of its own block again: an append that died midway
      byte[] all = java.util.Arrays.copyOf(bytes, bytes.length + 100);
      System.arraycopy(bytes, 0, all, bytes.length, 100);
      Files.write(log, all);
    }
  }

  /**
   * A clean of a table with two superseded file versions per group (one commit retained): killed while planning,
   * deleting or completing; the next write's automatic clean finishes it from its plan.
   */
  private static CrashScenario clean(int version, String name, TableType type) {
    Map<String, String> o = options(Map.of("hoodie.cleaner.commits.retained", "1"));
    Map<String, String> setup = new HashMap<>(o);
    setup.put("hoodie.clean.automatic", "false");
    return new CrashScenario(name, o, (dir, crashing) -> {
      Table t = create(dir, type, setup, version);
      t.insert(trips(0, 40, 2, 1).iterator());
      t.upsert(upsertBatch().iterator());
      t.upsert(updates(10, 20, 20).iterator());
      return List.of(rows(t));
    }, t -> EngineSettings.cleaner(t.storage(), t.location(), Config.of(o)).clean(), false, t -> { }, false, false)
        .withFinalCheck(Scenarios::plannedFilesGone);
  }

  /**
   * Archival of a table with more commits than {@code hoodie.keep.max.commits}: killed while writing the archive
   * file or deleting the archived instants' files; the next write's automatic archival finishes it.
   */
  private static CrashScenario archive(int version, String name) {
    // the metadata table (on by default) compacted every second deltacommit: the data table's archival never passes
    // its latest compaction, and with the default (10) nothing of these five commits could be archived
    Map<String, String> o = options(Map.of("hoodie.cleaner.commits.retained", "1", "hoodie.keep.min.commits", "2",
        "hoodie.keep.max.commits", "3", "hoodie.commits.archival.batch", "2",
        "hoodie.metadata.compact.max.delta.commits", "2"));
    Map<String, String> setup = new HashMap<>(o);
    setup.put("hoodie.archive.automatic", "false");
    return new CrashScenario(name, o, (dir, crashing) -> {
      Table t = create(dir, TableType.COPY_ON_WRITE, setup, version);
      t.insert(trips(0, 40, 2, 1).iterator());
      t.upsert(upsertBatch().iterator());
      for (int round = 0; round < 3; round++) {
        t.upsert(updates(10 + 5 * round, 15 + 5 * round, 20 + round).iterator());
      }
      return List.of(rows(t));
    }, t -> EngineSettings.archiver(t.storage(), t.location(), Config.of(o)).archive(), false, t -> { }, false, false)
        .withFinalCheck(t -> everyCommitOnceActiveOrArchived(t, 5 + 1));
  }

  /** Updates of ids {@code from} (inclusive) to {@code to}, at ordering value {@code ts}. */
  private static List<GenericRecord> updates(int from, int to, long ts) {
    List<GenericRecord> b = new ArrayList<>();
    for (int i = from; i < to; i++) {
      b.add(trip(String.format("id-%06d", i), ts, "p" + (i % 2), "upd" + ts + "-" + i, i + 0.5));
    }
    return b;
  }

  /** Every file a completed clean planned to delete is gone, and there is such a clean. */
  private static List<String> plannedFilesGone(Table t) {
    TimelineStore store = new TimelineStore(t.storage(), t.location());
    List<Instant> cleans = TableInternals.timeline(t).filter(i -> i.action() == Action.CLEAN && i.isCompleted()).instants();
    if (cleans.isEmpty()) {
      return List.of("no completed clean");
    }
    List<String> problems = new ArrayList<>();
    for (Instant c : cleans) {
      Instant requested = c.toState(State.REQUESTED);
      CleanPlan plan = CleanAvro.decodePlan(store.read(requested), t.location(), store.pathOf(requested)).orElseThrow();
      for (List<CleanFile> files : plan.filesToDelete().values()) {
        for (CleanFile f : files) {
          try {
            if (t.storage().info(f.path()).isPresent()) {
              problems.add("clean " + c.time() + " completed but its planned file " + f.path() + " is still there");
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    }
    return problems;
  }

  /** The table's commits are each either on the active timeline or archived, never both, and none is lost. */
  private static List<String> everyCommitOnceActiveOrArchived(Table t, int commits) {
    Set<String> active = new TreeSet<>();
    TableInternals.timeline(t).filter(i -> i.action() == Action.COMMIT && i.isCompleted()).instants().forEach(i -> active.add(i.time()));
    Set<String> archived = new TreeSet<>();
    if (new TimelineStore(t.storage(), t.location()).layout().slicesByCompletionTime()) {
      // versions 8/9: the LSM timeline holds completed instants only
      dev.sluice.internal.table.TableConfig config = dev.sluice.internal.table.TableConfigStore.read(t.storage(),
          t.location());
      dev.sluice.internal.timeline.lsm.LsmTimeline.of(t.storage(), t.location(), config).instants().stream()
          .filter(a -> a.action().equals(Action.COMMIT.id())).forEach(a -> archived.add(a.instantTime()));
    } else {
      for (ArchivedInstant a : ArchiveLog.of(t.storage(), t.location()).read()) {
        if (a.instant().action() == Action.COMMIT && a.instant().isCompleted()) {
          archived.add(a.instant().time());
        }
      }
    }
    List<String> problems = new ArrayList<>();
    Set<String> both = new TreeSet<>(active);
    both.retainAll(archived);
    if (!both.isEmpty()) {
      problems.add("commits both active and archived: " + both);
    }
    Set<String> all = new TreeSet<>(active);
    all.addAll(archived);
    if (all.size() != commits) {
      problems.add("expected " + commits + " commits active or archived, found " + all.size() + ": active " + active
          + ", archived " + archived);
    }
    if (archived.isEmpty()) {
      problems.add("nothing was archived");
    }
    return problems;
  }

  /**
   * Running a scheduled compaction of a MoR table: the rows never change; a killed run is rolled back and run again
   * from its plan by the recovery.
   */
  private static CrashScenario compaction(int version) {
    Map<String, String> o = options(Map.of("hoodie.parquet.small.file.limit", "0"));
    return new CrashScenario(named("mor-compaction", version), o, (dir, crashing) -> {
      Table t = create(dir, TableType.MERGE_ON_READ, o, version);
      t.insert(trips(0, 40, 2, 1).iterator());
      t.upsert(upsertBatch().iterator());
      t.delete(deleteBatch().iterator());
      t.compaction().scheduleNow().orElseThrow();
      return List.of(rows(t));
    }, t -> t.compaction().runPending(), false, t -> t.compaction().runPending(), true, false)
        .withFinalCheck(Scenarios::compactedAsPlanned);
  }

  /**
   * After recovery no compaction is pending, every planned compaction completed as a commit, and each of its planned
   * file groups has exactly one base file at the compaction instant (the re-run from the plan left no duplicate).
   */
  private static List<String> compactedAsPlanned(Table t) {
    List<String> problems = new ArrayList<>();
    if (!t.compaction().pending().isEmpty()) {
      problems.add("compactions still pending: " + t.compaction().pending());
    }
    List<String> plans = new ArrayList<>();
    try {
      for (FileInfo f : t.storage().list(new TimelineStore(t.storage(), t.location()).layout().folder(t.location()))) {
        if (f.name().endsWith(".compaction.requested")) {
          plans.add(f.name().substring(0, f.name().indexOf('.')));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (plans.isEmpty()) {
      problems.add("no compaction plan on the timeline");
    }
    for (String time : plans) {
      boolean committed = TableInternals.timeline(t).filter(i -> i.time().equals(time) && i.action() == Action.COMMIT
          && i.isCompleted()).lastInstant().isPresent();
      if (!committed) {
        problems.add("compaction " + time + " did not complete");
        continue;
      }
      for (CompactionOperation op : TableInternals.compaction(t).plan(time).operations()) {
        String dir = op.partitionPath().isEmpty() ? t.location() : t.location() + "/" + op.partitionPath();
        long files;
        try {
          files = t.storage().list(dir).stream().filter(f -> f.name().startsWith(op.fileId() + "_")
              && f.name().endsWith("_" + time + ".parquet")).count();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        if (files != 1) {
          problems.add("file group " + op.fileId() + " has " + files + " base files of compaction " + time);
        }
      }
    }
    return problems;
  }

  /**
   * An upsert with the metadata table kept ({@code hoodie.metadata.enable=true}) on a table written without it: the
   * upsert bootstraps the metadata table, then mirrors itself. Whatever point it is killed at, the recovered table's
   * metadata table lists exactly what is on storage.
   */
  private static CrashScenario metadataTable(int version, String name, TableType type) {
    Map<String, String> without = options(type == TableType.MERGE_ON_READ ? Map.of("hoodie.parquet.small.file.limit",
        "0") : Map.of());
    Map<String, String> with = new java.util.HashMap<>(without);
    with.put("hoodie.metadata.enable", "true");
    return new CrashScenario(name, Map.copyOf(with), (dir, crashing) -> {
      Table t = create(dir, type, without, version);
      t.insert(trips(0, 40, 2, 1).iterator());
      return List.of(rows(t));
    }, t -> t.upsert(upsertBatch().iterator()), false, t -> { }, false, false)
        .withFinalCheck(t -> MetadataTableChecks.problems(t.storage(), t.location()));
  }

  /**
   * An upsert that first cleans the metadata table ({@code <t>002}), compacts it and archives its timeline: the setup
   * writes until the metadata clean and archival are both due, so the upsert's kill points include theirs.
   */
  private static CrashScenario metadataServices(int version, String name) {
    Map<String, String> with = new java.util.HashMap<>(options(Map.of()));
    with.putAll(Map.of("hoodie.metadata.enable", "true", "hoodie.metadata.compact.max.delta.commits", "3",
        "hoodie.keep.min.commits", "20", "hoodie.keep.max.commits", "21", "hoodie.cleaner.commits.retained", "1"));
    Config config = Config.of(with);
    return new CrashScenario(name, Map.copyOf(with), (dir, crashing) -> {
      Table t = create(dir, TableType.COPY_ON_WRITE, with, version);
      t.insert(trips(0, 40, 2, 1).iterator());
      dev.sluice.storage.Storage storage = new dev.sluice.storage.LocalStorage();
      dev.sluice.internal.clean.MetadataCleaner cleaner = dev.sluice.internal.clean.MetadataCleaner.of(storage,
          dir.toString(), dev.sluice.internal.clean.CleanSettings.from(config));
      dev.sluice.internal.archive.Archiver archiver = dev.sluice.internal.archive.Archiver.ofMetadataTable(storage,
          dir.toString(), dev.sluice.internal.archive.ArchiveSettings.from(config), cleaner.settings(), 3);
      for (int i = 2; ; i++) {
        dev.sluice.internal.timeline.Timeline mdt = new TimelineStore(storage, dir.resolve(".hoodie/metadata")
            .toString()).load();
        if (cleaner.due(mdt) && archiver.wouldArchive(mdt)) {
          break;
        }
        if (i > 80) {
          throw new AssertionError("the metadata clean and archival were never due together: " + mdt);
        }
        t.upsert(trips(0, 40, 2, i).iterator());
      }
      return List.of(rows(t));
    }, t -> t.upsert(upsertBatch().iterator()), false, t -> { }, false, false)
        .withFinalCheck(t -> MetadataTableChecks.problems(t.storage(), t.location()));
  }

  /**
   * An upsert that keeps the record index: on a table without a metadata table (the write bootstraps both partitions,
   * then appends its changes to the shards), or on one whose metadata table is due for compaction (the write compacts
   * the {@code files} slice and every record-index shard first). After the next write the record index holds exactly
   * the table's live keys at their file groups, and the metadata table lists what is on storage.
   */
  private static CrashScenario recordIndex(int version, String name, TableType type, boolean compaction) {
    Map<String, String> without = options(type == TableType.MERGE_ON_READ ? Map.of("hoodie.parquet.small.file.limit",
        "0") : Map.of());
    Map<String, String> with = new java.util.HashMap<>(without);
    with.put("hoodie.metadata.enable", "true");
    with.put("hoodie.metadata.record.index.enable", "true");
    with.put("hoodie.metadata.record.index.min.filegroup.count", "3");
    // deltacommits 010, 011 and the setup's two writes: the crashing write's prepare compacts the metadata table
    with.put("hoodie.metadata.compact.max.delta.commits", "4");
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      keys.add(String.format("id-%06d", i));
      keys.add(String.format("new-%06d", i));
    }
    return new CrashScenario(name, Map.copyOf(with), (dir, crashing) -> {
      Table t = Tables.create(dir.toString(), TripFixture.spec().type(type).tableVersion(version).build(),
          Config.of(compaction ? with : without));
      t.insert(trips(0, 40, 2, 1).iterator());
      if (compaction) {
        t.upsert(trips(30, 20, 2, 2).iterator());
      }
      return List.of(rows(t));
    }, t -> t.upsert(upsertBatch().iterator()), false, t -> { }, false, false)
        .withFinalCheck(t -> {
          List<String> problems = new ArrayList<>(MetadataTableChecks.problems(t.storage(), t.location()));
          problems.addAll(RecordIndexChecks.problems(t, keys));
          return problems;
        });
  }

  /** The scenario called {@code name}. */
  public static CrashScenario byName(String name) {
    return all().stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no crash scenario " + name));
  }

  private static CrashScenario simple(int version, String name, TableType type, Map<String, String> extra, CrashScenario.Op op) {
    Map<String, String> o = options(extra);
    boolean lazy = extra.containsKey("hoodie.write.concurrency.mode");
    return new CrashScenario(name, o, (dir, crashing) -> {
      Table t = create(dir, type, o, version);
      t.insert(trips(0, 40, 2, 1).iterator());
      return List.of(rows(t));
    }, op, false, lazy ? Scenarios::ageHeartbeats : t -> { }, false, false);
  }

  /**
   * The table holds a write that died midway: on CoW after writing one base file, on MoR (where updates go to log
   * files) just before publishing; its instant, markers and files are left.
   */
  private static CrashScenario withFailedWrite(int version, String name, TableType type, CrashScenario.Op op, boolean rollbackOnly) {
    boolean mor = type == TableType.MERGE_ON_READ;
    Map<String, String> o = options(mor ? Map.of("hoodie.parquet.small.file.limit", "0") : Map.of());
    return new CrashScenario(name, o, (dir, crashing) -> {
      Table t = create(dir, type, o, version);
      t.insert(trips(0, 40, 2, 1).iterator());
      crashing.crashAt(mor ? c -> c.startsWith("CREATE_EXCLUSIVE ") && c.endsWith(".deltacommit")
          : c -> c.startsWith("CREATE ") && c.endsWith(".parquet"), mor ? 1 : 2);
      Table dying = Tables.open(crashing.storage(), dir.toString(), Config.of(o));
      try {
        dying.upsert((mor ? upsertBatch() : insertBatch()).iterator());
        throw new AssertionError("the setup write was meant to crash");
      } catch (CrashingStorage.Crash expected) {
        crashing.restart();
      }
      asIfTheWriterDied(dir);
      return List.of(rows(t));
    }, op, false, t -> { }, rollbackOnly, false);
  }

  /**
   * The simulated crash killed a write of this JVM, which lives on, and the operation runs in a child JVM: there the
   * heartbeat and a lock file the crash left name a live process, so the failed write would stay live until its
   * heartbeat expired and the lock until this JVM ends. A writer that really died stops beating and its lock is
   * broken at once by the next writer on its host: the heartbeat is made as old as a dead writer's gets, and the
   * lock file goes.
   */
  private static void asIfTheWriterDied(Path dir) {
    try {
      java.nio.file.Files.deleteIfExists(dir.resolve(".hoodie/lock"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Path folder = dir.resolve(".hoodie/.heartbeat");
    if (!java.nio.file.Files.isDirectory(folder)) {
      return;
    }
    try (var files = java.nio.file.Files.list(folder)) {
      for (Path f : files.toList()) {
        java.nio.file.Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.fromMillis(
            System.currentTimeMillis() - 3_600_000L));
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
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

  private static Table create(Path dir, TableType type, Map<String, String> o, int version) {
    return Tables.create(dir.toString(), TripFixture.spec().type(type).tableVersion(version).build(), Config.of(o));
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
    boolean pending = TableInternals.timeline(t).filter(i -> i.action() == Action.RESTORE && !i.isCompleted()).lastInstant().isPresent();
    if (pending) {
      t.restore(Savepoints.list(TableInternals.timeline(t)).get(0));
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
    return TableInternals.timeline(t).inflightWrites();
  }
}
