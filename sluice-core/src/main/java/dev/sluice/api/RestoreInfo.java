package dev.sluice.api;

import java.util.List;

/**
 * What a restore to a savepoint did.
 *
 * @param startRestoreTime the restore's instant time
 * @param instantsToRollback times of the instants rolled back
 */
public record RestoreInfo(String startRestoreTime, List<String> instantsToRollback) {
  /** Copies the list. */
  public RestoreInfo {
    instantsToRollback = List.copyOf(instantsToRollback);
  }
}
