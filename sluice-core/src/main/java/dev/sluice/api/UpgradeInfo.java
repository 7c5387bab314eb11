package dev.sluice.api;

import java.util.List;

/**
 * What {@link Table#upgrade} or {@link Table#downgrade} did.
 *
 * @param fromVersion the table version before
 * @param toVersion the table version after
 * @param rolledBack failed writes rolled back first
 * @param compactions compactions run first (a Merge-on-Read table upgraded from version 6: every slice with log files)
 * @param timelineFiles instant files written into the new timeline folder {@code .hoodie/timeline}
 * @param archivedInstants instants of the version-6 archive written into the LSM history {@code .hoodie/timeline/history}
 * @param metadataTableRemoved whether the metadata table was removed (one the table's reads did not trust: behind the
 *     data table or not listed; the next write builds a new one)
 * @param metadataTableKept whether the metadata table was upgraded along with the table and kept (its files as they
 *     were, its timeline converted)
 * @param oldFilesDeleted version-6 timeline files deleted from {@code .hoodie/} (and the metadata table's) after the
 *     switch
 */
public record UpgradeInfo(int fromVersion, int toVersion, List<RollbackInfo> rolledBack, List<CompactionInfo> compactions,
    int timelineFiles, int archivedInstants, boolean metadataTableRemoved, boolean metadataTableKept,
    int oldFilesDeleted) {
  /** Copies the lists. */
  public UpgradeInfo {
    rolledBack = List.copyOf(rolledBack);
    compactions = List.copyOf(compactions);
  }
}
