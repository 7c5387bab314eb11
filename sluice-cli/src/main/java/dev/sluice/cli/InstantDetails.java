package dev.sluice.cli;

import dev.sluice.api.InstantInfo;
import dev.sluice.api.RollbackInfo;
import dev.sluice.api.TableInspection;
import java.util.Optional;

/** A short note on what a rollback or restore instant did, for {@code sluice timeline}. */
final class InstantDetails {
  private InstantDetails() {
  }

  static Optional<String> of(TableInspection store, InstantInfo i) {
    if (i.action().equals("rollback")) {
      if (i.isCompleted()) {
        RollbackInfo md = store.rollbackMetadata(i).orElseThrow();
        return Optional.of("rolled back " + String.join(",", md.commitsRollback()) + ", " + md.totalFilesDeleted()
            + " files deleted");
      }
      return store.pendingRollbackTarget(i).map(target -> "rolling back " + target);
    }
    if (i.action().equals("restore") && i.isCompleted()) {
      return store.restoreMetadata(i).map(md -> "rolled back " + md.instantsToRollback().size() + " instants");
    }
    return Optional.empty();
  }
}
