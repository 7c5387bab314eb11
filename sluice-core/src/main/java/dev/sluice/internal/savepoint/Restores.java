package dev.sluice.internal.savepoint;

import dev.sluice.internal.timeline.avro.RestoreMetadata;
import dev.sluice.internal.timeline.avro.RestorePlan;
import dev.sluice.internal.commit.InstantAction;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.commit.Publish;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.mdt.write.MetadataTableWriter;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.api.TableType;
import java.io.IOException;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.rollback.Rollbacks;
import dev.sluice.storage.Storage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.State;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.avro.InstantInfo;
import dev.sluice.internal.util.KillPoints;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Restore to a savepoint as Hudi 0.15 does it ({@code RestorePlanActionExecutor}, {@code BaseRestoreActionExecutor}):
 * {@code <ts>.restore.requested} lists every write instant after the savepoint, newest first; {@code .restore.inflight};
 * each is rolled back in turn (a rollback instant that stays inflight); {@code <ts>.restore} with every rollback's
 * metadata; then the rollback instants after the savepoint are deleted. A restore is not atomic for readers: while it
 * runs they see the table as of some commit between the savepoint and the latest. A restore that died is finished by
 * running it again; until then writes are refused. On versions 8/9 the plan is Hudi 1.x's: the writes that completed
 * after the savepointed commit did, newest completion first ({@link #laterByCompletion}); the instant files keep
 * layout 2's names (completed ones with their completion times).
 */
public final class Restores {
  private final Storage storage;
  private final String basePath;
  private final TimelineStore store;
  private final InstantLifecycle lifecycle;

  /**
   * Restores of the table at {@code basePath}; they take no lock (a caller that shares the table with other writers
   * runs them inside {@link InstantLifecycle#locked}). Does no I/O.
   */
  public Restores(Storage storage, String basePath) {
    this.storage = storage;
    this.basePath = basePath;
    this.store = new TimelineStore(storage, basePath);
    this.lifecycle = InstantLifecycle.withoutLock(storage, basePath, false);
  }

  /** Restores the table to the savepoint at {@code savepointTime}, finishing an interrupted restore to it first. */
  public RestoreMetadata restore(String savepointTime) {
    long start = System.currentTimeMillis();
    Timeline tl = store.load();
    if (!Savepoints.list(tl).contains(savepointTime)) {
      throw Errors.badRequest("Restoring to " + savepointTime, "there is no savepoint at that instant (savepoints: "
          + Savepoints.list(tl) + ")", "Savepoint a commit first (sluice savepoint TABLE [INSTANT]).");
    }
    Instant restore;
    RestorePlan plan;
    Optional<Instant> pending = tl.filter(i -> i.action() == Action.RESTORE && !i.isCompleted()).lastInstant();
    if (pending.isPresent()) {
      Instant req = Instant.requested(pending.get().time(), Action.RESTORE);
      plan = RestorePlan.fromAvroBytes(store.read(req), store.pathOf(req));
      if (!plan.savepointToRestoreTimestamp().equals(savepointTime)) {
        throw Errors.badRequest("Restoring to " + savepointTime, "the restore " + pending.get().time() + " to "
            + plan.savepointToRestoreTimestamp() + " did not finish", "Finish it first (sluice restore TABLE "
            + plan.savepointToRestoreTimestamp() + ").");
      }
      restore = pending.get();
    } else {
      plan = plan(tl, savepointTime);
      restore = lifecycle.request(Action.RESTORE, InstantTimes::newInstantTime, tl, plan.toAvroBytes());
    }
    RestorePlan planned = plan;
    RestoreMetadata md = lifecycle.run(restore, Publish.DIRECT, "restore to " + savepointTime,
        new InstantAction<RestoreMetadata>() {
          @Override
          public RestoreMetadata execute(Instant inflight) {
            return rollBackAll(inflight, planned, start);
          }

          @Override
          public byte[] metadata(RestoreMetadata result) {
            return result.toAvroBytes();
          }

          @Override
          public void beforePublish(Instant inflight, RestoreMetadata result) {
            // the rollbacks inside a restore are not mirrored one by one: the metadata table is re-synced with a
            // listing at the restore's instant (the caller holds the lock)
            if (metadataTablePresent()) {
              MetadataTableWriter.of(storage, basePath).restore(inflight.time());
            }
          }
        });
    // pending or completed rollbacks after the savepoint would otherwise look unfinished or refer to deleted instants
    for (Instant r : store.load().filter(i -> i.action() == Action.ROLLBACK
        && InstantTimes.isBefore(savepointTime, i.time())).instants()) {
      store.deleteInstantFiles(new Instant(r.time(), Action.ROLLBACK, State.COMPLETED));
    }
    return md;
  }

  private boolean metadataTablePresent() {
    String folder = TableLayout.metadataTableFolder(basePath);
    try {
      return storage.info(folder).isPresent();
    } catch (IOException e) {
      throw Errors.storage("check for the metadata table at", folder, e);
    }
  }

  /** Rolls back every instant of {@code plan} still on the timeline (the restore is inflight); the restore's metadata. */
  private RestoreMetadata rollBackAll(Instant restore, RestorePlan plan, long start) {
    KillPoints.reach("restore.inflight");
    Map<String, List<RollbackMetadata>> done = new LinkedHashMap<>();
    List<InstantInfo> rolledBack = new ArrayList<>();
    Rollbacks rollbacks = new Rollbacks(storage, basePath);
    for (InstantInfo info : plan.instantsToRollback()) {
      Timeline now = store.load();
      Optional<Instant> target = now.writeTimeline().filter(i -> i.time().equals(info.commitTime())
          && i.action().id().equals(info.action())).lastInstant();
      if (target.isEmpty()) {
        // rolled back by an earlier attempt of this restore
        continue;
      }
      done.put(info.commitTime(), List.of(rollbacks.rollbackForRestore(target.get())));
      rolledBack.add(info);
      KillPoints.reach("restore.rolled-back-one");
    }
    List<String> times = new ArrayList<>();
    rolledBack.forEach(i -> times.add(i.commitTime()));
    return new RestoreMetadata(restore.time(), System.currentTimeMillis() - start, times, done, 1, rolledBack);
  }

  private RestorePlan plan(Timeline tl, String savepointTime) {
    List<Instant> after = new ArrayList<>(tl.writeTimeline().after(savepointTime).instants());
    List<String> laterSavepoints = new ArrayList<>();
    for (String sp : Savepoints.list(tl)) {
      if (InstantTimes.isBefore(savepointTime, sp)) {
        laterSavepoints.add(sp);
      }
    }
    if (!laterSavepoints.isEmpty()) {
      throw Errors.badRequest("Restoring to " + savepointTime, "later savepoints " + laterSavepoints
          + " protect commits that a restore would roll back", "Delete them first (sluice savepoint TABLE INSTANT --delete).");
    }
    List<InstantInfo> infos = new ArrayList<>();
    if (tl.layout().timeSemanticsOf1x()) {
      boolean mor = TableConfigStore.read(storage, basePath).type() == TableType.MERGE_ON_READ;
      laterByCompletion(tl, savepointTime, mor).forEach(i -> infos.add(InstantInfo.of(i)));
      return new RestorePlan(infos, RestorePlan.VERSION, savepointTime);
    }
    for (int i = after.size() - 1; i >= 0; i--) {
      infos.add(InstantInfo.of(after.get(i)));
    }
    return new RestorePlan(infos, RestorePlan.VERSION, savepointTime);
  }

  /**
   * Versions 8/9 (Hudi 1.x's {@code RestorePlanActionExecutor}): pending clusterings requested after the savepoint
   * first, newest first; then every write that completed after the savepointed commit completed, or is still
   * pending, newest completion first (pending ones, newest requested first, before all completed ones). On
   * Merge-on-Read a compaction is compared by requested time instead ({@code RestoreInstantComparatorFactory}): a
   * compaction that completed after a later delta commit stays, since that delta commit's logs belong to its slice.
   */
  private static List<Instant> laterByCompletion(Timeline tl, String savepointTime, boolean mor) {
    Comparator<Instant> byCompletion = Comparator.comparing((Instant i) -> completion(tl, i).isEmpty())
        .thenComparing(i -> completion(tl, i).orElse(i.time())).thenComparing(Instant::time);
    String spCompletion = tl.completionTime(savepointTime).orElse(savepointTime);
    List<Instant> clusterings = tl.writeTimeline().filter(i -> i.action() == Action.CLUSTERING && !i.isCompleted()
        && InstantTimes.isBefore(savepointTime, i.time())).instants();
    List<Instant> out = new ArrayList<>();
    for (int i = clusterings.size() - 1; i >= 0; i--) {
      out.add(clusterings.get(i));
    }
    List<Instant> later = new ArrayList<>();
    for (Instant i : tl.writeTimeline().instants()) {
      if (clusterings.contains(i) || i.time().equals(savepointTime)) {
        continue;
      }
      boolean compaction = i.action() == Action.COMPACTION || i.action() == Action.COMMIT;
      boolean after;
      if (mor && compaction) {
        after = InstantTimes.isBefore(savepointTime, i.time());
      } else {
        Optional<String> c = completion(tl, i);
        after = c.isEmpty() || InstantTimes.isBefore(spCompletion, c.get())
            || c.get().equals(spCompletion) && InstantTimes.isBefore(savepointTime, i.time());
      }
      if (after) {
        later.add(i);
      }
    }
    later.sort(byCompletion.reversed());
    out.addAll(later);
    return out;
  }

  /**
   * The completion time of {@code i}: in its file name; for a completed file without one (left by an upgrade from
   * version 6) its requested time, the order such instants had; empty while pending.
   */
  private static Optional<String> completion(Timeline tl, Instant i) {
    if (!i.isCompleted()) {
      return Optional.empty();
    }
    return Optional.of(tl.completionTime(i).orElse(i.time()));
  }

}
