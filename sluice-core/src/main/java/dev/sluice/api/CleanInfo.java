package dev.sluice.api;

import java.util.List;
import java.util.Optional;

/**
 * One completed clean, from its completed instant's metadata.
 *
 * @param startCleanTime the clean's instant time
 * @param totalFilesDeleted files deleted
 * @param failedDeletes files the clean could not delete
 * @param earliestCommitToRetain the earliest commit the clean kept, if its policy names one
 * @param lastCompletedCommit the last completed commit when the clean was planned, if recorded
 * @param timeTakenMillis how long deleting took
 * @param partitions what the clean did per partition, in the metadata's order
 */
public record CleanInfo(String startCleanTime, int totalFilesDeleted, int failedDeletes,
    Optional<String> earliestCommitToRetain, Optional<String> lastCompletedCommit, long timeTakenMillis,
    List<Partition> partitions) {
  /** Copies the list. */
  public CleanInfo {
    partitions = List.copyOf(partitions);
  }

  /** A clean without its partition details. */
  public CleanInfo(String startCleanTime, int totalFilesDeleted, int failedDeletes,
      Optional<String> earliestCommitToRetain) {
    this(startCleanTime, totalFilesDeleted, failedDeletes, earliestCommitToRetain, Optional.empty(), 0, List.of());
  }

  /**
   * What a clean did in one partition.
   *
   * @param partitionPath the partition ({@code ""} for a non-partitioned table)
   * @param policy the cleaner policy's name
   * @param deletePathPatterns the names of the files the plan listed
   * @param successDeleteFiles the names of the files deleted
   * @param failedDeleteFiles the names of the files not deleted (already gone, or the delete failed)
   * @param partitionDeleted whether the clean deleted the partition itself ({@code isPartitionDeleted}: Hudi's
   *     cleaner does when no file group is left there; false when the metadata does not say)
   */
  public record Partition(String partitionPath, String policy, List<String> deletePathPatterns,
      List<String> successDeleteFiles, List<String> failedDeleteFiles, boolean partitionDeleted) {
    /** Copies the lists. */
    public Partition {
      deletePathPatterns = List.copyOf(deletePathPatterns);
      successDeleteFiles = List.copyOf(successDeleteFiles);
      failedDeleteFiles = List.copyOf(failedDeleteFiles);
    }

    /** A partition the clean did not delete. */
    public Partition(String partitionPath, String policy, List<String> deletePathPatterns,
        List<String> successDeleteFiles, List<String> failedDeleteFiles) {
      this(partitionPath, policy, deletePathPatterns, successDeleteFiles, failedDeleteFiles, false);
    }
  }
}
