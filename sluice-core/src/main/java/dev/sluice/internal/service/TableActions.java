package dev.sluice.internal.service;

import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.commit.ConcurrencyMode;
import dev.sluice.internal.commit.FailedWritesPolicy;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.commit.Heartbeats;
import dev.sluice.internal.commit.LiveWriters;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.mdt.write.MetadataTableWriter;
import dev.sluice.internal.table.MetadataTable;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.repair.Repairer;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.rollback.Rollbacks;
import dev.sluice.internal.timeline.avro.RestoreMetadata;
import dev.sluice.internal.savepoint.Restores;
import dev.sluice.internal.savepoint.SavepointMetadata;
import dev.sluice.internal.savepoint.Savepoints;
import dev.sluice.storage.Storage;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineStore;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Rollback, savepoint and restore run the way writes do: under the table lock ({@link InstantLifecycle#locked}, in
 * every concurrency mode), so they never interleave with another writer's conflict check and commit.
 */
public final class TableActions {
  private final Storage storage;
  private final String basePath;
  private final CommitSettings settings;

  /** Actions on the table at {@code basePath} with commit options {@code settings}. */
  public TableActions(Storage storage, String basePath, CommitSettings settings) {
    this.storage = storage;
    this.basePath = basePath;
    this.settings = settings;
  }

  /**
   * Rolls back one instant (a pending write or the latest completed one); refuses a pending write whose writer is
   * still at work (its heartbeat live).
   */
  public RollbackMetadata rollback(String instantTime) {
    Heartbeats hb = Heartbeats.of(storage, basePath, settings);
    MetadataTableWriter.prepare(storage, basePath, settings);
    return lifecycle().locked("roll back instant " + instantTime, () -> {
      Optional<String> who = hb.liveOwner(instantTime);
      if (who.isPresent() && new TimelineStore(storage, basePath).load().inflightWrites().stream()
          .anyMatch(i -> i.time().equals(instantTime))) {
        throw Errors.conflict("Rolling back instant " + instantTime, "its writer is still at work (" + who.get()
            + "); a live write is never rolled back. Wait for it to finish, or, if it is gone, until its heartbeat is "
            + hb.expiryMillis() + " ms old");
      }
      return rollbacks().rollback(instantTime);
    });
  }

  /**
   * Rolls back failed writes: every pending write whose writer is gone (its heartbeat expired, or its process on
   * this host ended); a write whose writer is still at work is left alone, whatever the policy.
   */
  public List<RollbackMetadata> rollbackFailedWrites() {
    Predicate<Instant> which = new LiveWriters(Heartbeats.of(storage, basePath, settings))::isFailed;
    return lifecycle().locked("roll back failed writes", () -> rollbacks().rollbackFailedWrites(which));
  }

  private Rollbacks rollbacks() {
    return new Rollbacks(storage, basePath, ConcurrencyMode.of(settings) == ConcurrencyMode.OPTIMISTIC_CONCURRENCY_CONTROL);
  }

  /** Savepoints a completed commit (the latest if empty). */
  public SavepointMetadata savepoint(Optional<String> instantTime, String user, String comment) {
    return lifecycle().locked("savepoint", () -> new Savepoints(storage, basePath, settings.metadataEnabled())
        .create(instantTime, user, comment));
  }

  /** Deletes a savepoint. */
  public void deleteSavepoint(String instantTime) {
    lifecycle().locked("delete savepoint " + instantTime, () -> {
      new Savepoints(storage, basePath).delete(instantTime);
      return null;
    });
  }

  /** Restores the table to a savepoint. */
  public RestoreMetadata restore(String savepointTime) {
    MetadataTableWriter.prepare(storage, basePath, settings);
    return lifecycle().locked("restore to " + savepointTime, () -> new Restores(storage, basePath).restore(savepointTime));
  }

  /**
   * Finds the table's damage and, if {@code apply}, repairs it (see {@code repair.RepairPlanner}); under the table lock
   * when several writers are configured. A pending write with a damaged file is rolled back only if its writer is gone
   * (in multi-writer mode: its heartbeat expired).
   */
  public Repairer.Outcome repair(boolean apply) {
    Predicate<String> writerGone = t -> true;
    if (FailedWritesPolicy.of(settings) == FailedWritesPolicy.LAZY) {
      Heartbeats hb = Heartbeats.of(storage, basePath, settings);
      writerGone = hb::isExpired;
    }
    Predicate<String> gone = writerGone;
    if (!apply) {
      return Repairer.run(storage, basePath, gone, t -> rollbacks().rollback(t), false);
    }
    // a repair rewrites and deletes files outside the actions the metadata table mirrors: it goes before (so that no
    // reader lists through it meanwhile) and after (a hoodie.properties the repair restored from its backup lists it
    // again); a later write with hoodie.metadata.enable on, the default, bootstraps it again from a listing. Before,
    // only from a sound config: a damaged one is the repair's to restore (its first step), reported and kept in the
    // repair's backup folder, not silently replaced by the config update that removing the metadata table makes
    if (TableConfigStore.state(storage, basePath) == TableConfigStore.ConfigState.SOUND) {
      MetadataTable.removeIfPresent(storage, basePath);
    }
    Repairer.Outcome out = lifecycle().locked("repair", () -> Repairer.run(storage, basePath, gone,
        t -> rollbacks().rollback(t), true));
    if (TableConfigStore.state(storage, basePath) != TableConfigStore.ConfigState.UNREPAIRABLE) {
      // an unrepairable config (reported by the repair) opens no table, so no reader lists through the metadata
      // table; it goes on the first repair or write after the config is restored
      MetadataTable.removeIfPresent(storage, basePath);
    }
    return out;
  }

  /** The lifecycle of the table's instants, whose lock the actions run under; made when used. */
  private InstantLifecycle lifecycle() {
    return InstantLifecycle.of(storage, basePath, settings);
  }
}
