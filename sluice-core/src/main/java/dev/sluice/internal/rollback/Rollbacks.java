package dev.sluice.internal.rollback;

import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.timeline.avro.RollbackPlan;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.commit.Heartbeats;
import dev.sluice.internal.commit.Markers;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.avro.AvroContainer;
import dev.sluice.internal.util.KillPoints;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.avro.generic.GenericRecord;

/**
 * Rollback of instants as Hudi 0.15 does it: a {@code <ts>.rollback.requested} plan (from the markers of a pending
 * write, or a listing for a completed one), an empty {@code .rollback.inflight}, the plan carried out, then
 * {@code <ts>.rollback} with the metadata and the rolled-back instant's timeline files and markers gone.
 * A rollback that died midway is finished from its plan by the next call that reaches it.
 */
public final class Rollbacks {
  private final Storage storage;
  private final String basePath;
  private final TimelineStore store;
  private final InstantLifecycle lifecycle;

  /** Rollbacks for the table at {@code basePath} that one process writes; does no I/O. */
  public Rollbacks(Storage storage, String basePath) {
    this(storage, basePath, false);
  }

  /**
   * Rollbacks for the table at {@code basePath}; with {@code concurrentWriters} (optimistic concurrency control) a
   * rollback instant never takes a time another process's instant has. They take no lock: a caller that shares the
   * table with other writers runs them inside {@link InstantLifecycle#locked}. Does no I/O.
   */
  public Rollbacks(Storage storage, String basePath, boolean concurrentWriters) {
    this.storage = storage;
    this.basePath = basePath;
    this.store = new TimelineStore(storage, basePath);
    this.lifecycle = InstantLifecycle.withoutLock(storage, basePath, concurrentWriters);
  }

  /** A rollback that was planned but not finished. */
  private record Pending(Instant rollback, RollbackPlan plan) {
  }

  /**
   * Rolls back {@code instantTime}: a pending write (commit, deltacommit, replacecommit) or the latest completed one.
   * Refuses a savepointed instant, a completed instant with later completed writes, and any rollback while a
   * restore is pending.
   */
  public RollbackMetadata rollback(String instantTime) {
    Timeline tl = store.load();
    requireNoPendingRestore(tl, "Rolling back instant " + instantTime);
    Map<String, Pending> pending = pendingRollbacks(tl);
    Optional<Instant> target = tl.filter(i -> i.time().equals(instantTime) && i.action().writesData()).lastInstant();
    if (target.isEmpty() && !pending.containsKey(instantTime)) {
      throw Errors.badRequest("Rolling back instant " + instantTime, "the table has no write at that instant (its "
          + "timeline: " + describe(tl) + ")", "Name a pending or the latest completed commit (sluice timeline TABLE).");
    }
    if (target.isPresent()) {
      validate(tl, target.get());
    }
    return rollbackTarget(tl, instantTime, target, pending, false, true);
  }

  /**
   * Rolls back every failed write that {@code eligible} accepts (pending commits, deltacommits and non-clustering
   * replacecommits; pending compactions are left to compaction), newest first, and finishes every interrupted
   * rollback. Also removes stale markers and heartbeats of instants that are no longer pending.
   */
  public List<RollbackMetadata> rollbackFailedWrites(Predicate<Instant> eligible) {
    Timeline tl = store.load();
    requireNoPendingRestore(tl, "Rolling back failed writes of " + basePath);
    Map<String, Pending> pending = pendingRollbacks(tl);
    Map<String, Optional<Instant>> targets = new TreeMap<>(Comparator.reverseOrder());
    for (Instant i : tl.inflightWrites()) {
      if (!isClustering(i) && eligible.test(i)) {
        targets.put(i.time(), Optional.of(i));
      }
    }
    for (String t : pending.keySet()) {
      targets.putIfAbsent(t, tl.filter(i -> i.time().equals(t) && i.action().writesData() && !i.isCompleted()).lastInstant());
    }
    List<RollbackMetadata> out = new ArrayList<>();
    for (Map.Entry<String, Optional<Instant>> e : targets.entrySet()) {
      out.add(rollbackTarget(tl, e.getKey(), e.getValue(), pending, false, true));
      new Heartbeats(storage, basePath).delete(e.getKey());
    }
    cleanStale();
    return out;
  }

  /**
   * Rolls back one pending write this process knows failed (a writer undoing its own instant); empty if the instant
   * is gone already (another writer rolled it back).
   */
  public Optional<RollbackMetadata> rollbackFailed(Instant target) {
    Timeline tl = store.load();
    Optional<Instant> now = tl.filter(i -> i.time().equals(target.time()) && i.action() == target.action()).lastInstant();
    if (now.isPresent() && now.get().isCompleted()) {
      throw Errors.internal("instant " + target.time() + " completed; it is not a failed write", null);
    }
    Map<String, Pending> pending = pendingRollbacks(tl);
    if (now.isEmpty() && !pending.containsKey(target.time())) {
      return Optional.empty();
    }
    return Optional.of(rollbackTarget(tl, target.time(), now, pending, false, true));
  }

  /**
   * Undoes the partial output of an inflight compaction so that it can run again from its plan (Hudi's
   * {@code rollbackInflightCompaction}): a rollback instant deletes the files the compaction's markers name (or, with
   * no markers, its base files), then the compaction is back to requested with its plan kept. Empty if the compaction
   * is not inflight (any more).
   */
  public Optional<RollbackMetadata> rollbackInflightCompaction(String compactionTime) {
    Timeline tl = store.load();
    requireNoPendingRestore(tl, "Rolling back the inflight compaction " + compactionTime);
    Optional<Instant> target = tl.filter(i -> i.time().equals(compactionTime) && i.action() == Action.COMPACTION
        && i.isInflight()).lastInstant();
    Map<String, Pending> pending = pendingRollbacks(tl);
    if (target.isEmpty() && !pending.containsKey(compactionTime)) {
      return Optional.empty();
    }
    return Optional.of(rollbackTarget(tl, compactionTime, target, pending, false, true));
  }

  /**
   * Rolls back {@code target} for a restore: planned from a listing (markers for a pending instant that has them),
   * and left inflight; the restore removes the rollback instants when it completes.
   */
  public RollbackMetadata rollbackForRestore(Instant target) {
    Timeline tl = store.load();
    return rollbackTarget(tl, target.time(), Optional.of(target), Map.of(), true, false);
  }

  private RollbackMetadata rollbackTarget(Timeline tl, String time, Optional<Instant> target, Map<String, Pending> pending,
      boolean restore, boolean publish) {
    Pending p = pending.get(time);
    Instant rollback;
    RollbackPlan plan;
    if (p != null) {
      rollback = p.rollback();
      plan = p.plan();
    } else {
      Instant t = target.orElseThrow(() -> Errors.internal("nothing to roll back at " + time, null));
      plan = new RollbackPlanner(storage, basePath, tableType()).plan(t, tl, restore);
      rollback = lifecycle.request(Action.ROLLBACK, InstantTimes::newInstantTime, tl, plan.toAvroBytes());
      KillPoints.reach("rollback.requested");
    }
    return new RollbackExecutor(storage, basePath, lifecycle).execute(rollback, plan, target, publish);
  }

  private TableType tableType() {
    return TableConfigStore.read(storage, basePath).type();
  }

  private Map<String, Pending> pendingRollbacks(Timeline tl) {
    Map<String, Pending> out = new LinkedHashMap<>();
    for (Instant r : tl.filter(i -> i.action() == Action.ROLLBACK && !i.isCompleted()).instants()) {
      Instant req = Instant.requested(r.time(), Action.ROLLBACK);
      Optional<byte[]> bytes = store.readIfExists(req);
      if (bytes.isEmpty() || bytes.get().length == 0) {
        continue;
      }
      RollbackPlan plan = RollbackPlan.fromAvroBytes(bytes.get(), store.pathOf(req));
      if (!plan.instantToRollback().commitTime().isEmpty()) {
        out.putIfAbsent(plan.instantToRollback().commitTime(), new Pending(r, plan));
      }
    }
    return out;
  }

  private void validate(Timeline tl, Instant target) {
    if (!target.action().writesData() || target.action() == Action.COMPACTION || target.action() == Action.LOGCOMPACTION) {
      throw Errors.unsupported("Rolling back a " + target.action().id() + " (instant " + target.time() + ")",
          "Sluice rolls back commits, deltacommits and replacecommits.");
    }
    boolean savepointed = tl.filter(i -> i.action() == Action.SAVEPOINT && i.isCompleted()
        && i.time().equals(target.time())).lastInstant().isPresent();
    if (savepointed) {
      throw Errors.badRequest("Rolling back instant " + target.time(), "it is savepointed",
          "Delete the savepoint first (sluice savepoint TABLE " + target.time() + " --delete).");
    }
    if (target.isCompleted()) {
      List<Instant> later = tl.commitsTimeline().completed().after(target.time()).instants();
      if (!later.isEmpty()) {
        throw Errors.badRequest("Rolling back instant " + target.time(), "later commits completed after it ("
            + later.get(later.size() - 1).time() + " is the latest)", "Roll back the later commits first, newest "
            + "first, or restore to a savepoint.");
      }
    }
  }

  /** Fails if a restore is pending: the table is half restored and only finishing the restore may touch it. */
  public static void requireNoPendingRestore(Timeline tl, String what) {
    Optional<Instant> restore = tl.filter(i -> i.action() == Action.RESTORE && !i.isCompleted()).lastInstant();
    if (restore.isPresent()) {
      throw Errors.badTable(what, "a restore (instant " + restore.get().time() + ") did not finish, so the table is "
          + "partly restored", "Run the restore again to finish it (sluice restore TABLE <savepoint>).");
    }
  }

  /**
   * True for a pending replacecommit that is a clustering: its requested file holds a clustering plan. Those are
   * finished or rolled back by clustering, not as failed writes.
   */
  private boolean isClustering(Instant i) {
    if (i.action() != Action.REPLACECOMMIT) {
      return false;
    }
    Instant req = Instant.requested(i.time(), Action.REPLACECOMMIT);
    Optional<byte[]> bytes = store.readIfExists(req);
    if (bytes.isEmpty() || bytes.get().length == 0) {
      return false;
    }
    GenericRecord r = AvroContainer.readRequired(bytes.get(), store.pathOf(req));
    return r.getSchema().getField("clusteringPlan") != null && r.get("clusteringPlan") != null;
  }

  /**
   * Deletes marker folders and heartbeat files of instants that are not pending any more (a writer that died after
   * publishing, or a rollback that died after its metadata): nothing reads them, they only mislead later checks.
   * The folders are listed before the timeline is loaded: a writer creates its instant before its markers, so every
   * marker folder listed belongs to an instant the timeline shows if it is still pending. Heartbeats (written before
   * the instant) are removed only once expired.
   */
  public void cleanStale() {
    List<String> markerDirs = names(TableLayout.tempFolder(basePath));
    List<String> beats = names(TableLayout.heartbeatFolder(basePath));
    if (markerDirs.isEmpty() && beats.isEmpty()) {
      return;
    }
    Timeline tl = store.load();
    for (String name : markerDirs) {
      if (name.chars().allMatch(Character::isDigit) && !tl.isInflight(name)) {
        new Markers(storage, basePath, name).deleteAll();
      }
    }
    Heartbeats hb = new Heartbeats(storage, basePath);
    for (String name : beats) {
      if (name.chars().allMatch(Character::isDigit) && !tl.isInflight(name) && hb.isExpired(name)) {
        hb.delete(name);
      }
    }
  }

  private List<String> names(String dir) {
    List<String> out = new ArrayList<>();
    try {
      for (FileInfo f : storage.list(dir)) {
        out.add(f.name());
      }
    } catch (IOException e) {
      throw Errors.storage("list", dir, e);
    }
    return out;
  }

  private static String describe(Timeline tl) {
    List<String> parts = new ArrayList<>();
    for (Instant i : tl.instants()) {
      parts.add(i.time() + " " + i.action().id() + (i.isCompleted() ? "" : " (" + i.state().name().toLowerCase(
          java.util.Locale.ROOT) + ")"));
    }
    return parts.isEmpty() ? "empty" : String.join(", ", parts);
  }
}
