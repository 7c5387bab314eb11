package dev.sluice.cli;

import dev.sluice.internal.rollback.RollbackMetadata;
import dev.sluice.internal.rollback.RollbackPlan;
import dev.sluice.internal.savepoint.RestoreMetadata;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineStore;
import java.util.Optional;

/** A short note on what a rollback or restore instant did, for {@code sluice timeline}. */
final class InstantDetails {
  private InstantDetails() {
  }

  static Optional<String> of(TimelineStore store, Instant i) {
    if (i.action() == Action.ROLLBACK) {
      if (i.isCompleted()) {
        RollbackMetadata md = RollbackMetadata.fromAvroBytes(store.read(i), store.pathOf(i));
        return Optional.of("rolled back " + String.join(",", md.commitsRollback()) + ", " + md.totalFilesDeleted()
            + " files deleted");
      }
      Instant req = Instant.requested(i.time(), Action.ROLLBACK);
      return store.readIfExists(req).filter(b -> b.length > 0)
          .map(b -> "rolling back " + RollbackPlan.fromAvroBytes(b, store.pathOf(req)).instantToRollback().commitTime());
    }
    if (i.action() == Action.RESTORE && i.isCompleted()) {
      RestoreMetadata md = RestoreMetadata.fromAvroBytes(store.read(i), store.pathOf(i));
      return Optional.of("rolled back " + md.instantsToRollback().size() + " instants");
    }
    return Optional.empty();
  }
}
