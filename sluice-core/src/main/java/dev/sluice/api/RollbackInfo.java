package dev.sluice.api;

import java.util.List;

/**
 * What a rollback did.
 *
 * @param startRollbackTime the rollback's instant time
 * @param totalFilesDeleted files deleted, over all partitions
 * @param commitsRollback times of the instants rolled back
 * @param instantsRollback the instants rolled back, with their actions
 * @param rollbackLogFiles log files that were given a rollback block
 */
public record RollbackInfo(String startRollbackTime, int totalFilesDeleted, List<String> commitsRollback,
    List<Target> instantsRollback, int rollbackLogFiles) {
  /** Copies the lists. */
  public RollbackInfo {
    commitsRollback = List.copyOf(commitsRollback);
    instantsRollback = List.copyOf(instantsRollback);
  }

  /**
   * An instant a rollback undid.
   *
   * @param commitTime its time
   * @param action its action id
   */
  public record Target(String commitTime, String action) {
  }
}
