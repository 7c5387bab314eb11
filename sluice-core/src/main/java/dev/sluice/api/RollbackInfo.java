package dev.sluice.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a rollback did, from its completed instant's metadata.
 *
 * @param startRollbackTime the rollback's instant time
 * @param totalFilesDeleted files deleted, over all partitions
 * @param commitsRollback times of the instants rolled back
 * @param instantsRollback the instants rolled back, with their actions
 * @param rollbackLogFiles log files that were given a rollback block
 * @param partitions what the rollback did per partition, in the metadata's order
 */
public record RollbackInfo(String startRollbackTime, int totalFilesDeleted, List<String> commitsRollback,
    List<Target> instantsRollback, int rollbackLogFiles, List<Partition> partitions) {
  /** Copies the lists. */
  public RollbackInfo {
    commitsRollback = List.copyOf(commitsRollback);
    instantsRollback = List.copyOf(instantsRollback);
    partitions = List.copyOf(partitions);
  }

  /** A rollback without its partition details. */
  public RollbackInfo(String startRollbackTime, int totalFilesDeleted, List<String> commitsRollback,
      List<Target> instantsRollback, int rollbackLogFiles) {
    this(startRollbackTime, totalFilesDeleted, commitsRollback, instantsRollback, rollbackLogFiles, List.of());
  }

  /**
   * An instant a rollback undid.
   *
   * @param commitTime its time
   * @param action its action id
   */
  public record Target(String commitTime, String action) {
  }

  /**
   * What a rollback did in one partition.
   *
   * @param partitionPath the partition ({@code ""} for a non-partitioned table)
   * @param successDeleteFiles the files deleted, as the metadata names them (full paths in Hudi's and Sluice's)
   * @param failedDeleteFiles the files not deleted (not there, or the delete failed)
   * @param rollbackLogFiles the log files given a rollback command block, path to size
   */
  public record Partition(String partitionPath, List<String> successDeleteFiles, List<String> failedDeleteFiles,
      Map<String, Long> rollbackLogFiles) {
    /** Copies the lists and the map (keeping its order). */
    public Partition {
      successDeleteFiles = List.copyOf(successDeleteFiles);
      failedDeleteFiles = List.copyOf(failedDeleteFiles);
      rollbackLogFiles = Collections.unmodifiableMap(new LinkedHashMap<>(rollbackLogFiles));
    }
  }
}
