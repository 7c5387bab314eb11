package dev.sluice.internal.clean;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a clean did in one partition ({@code HoodieCleanPartitionMetadata}).
 *
 * @param partitionPath the partition ("" for a non-partitioned table)
 * @param policy the policy name
 * @param deletePathPatterns the names of the files the plan listed
 * @param successDeleteFiles names of the files deleted
 * @param failedDeleteFiles names of the files not deleted (already gone, or the delete failed)
 * @param partitionDeleted whether the partition folder was deleted (absent in older metadata)
 */
public record PartitionCleanStats(String partitionPath, String policy, List<String> deletePathPatterns,
                                  List<String> successDeleteFiles, List<String> failedDeleteFiles,
                                  Optional<Boolean> partitionDeleted) {
  /** Copies the lists. */
  public PartitionCleanStats {
    Objects.requireNonNull(partitionPath, "partitionPath");
    Objects.requireNonNull(policy, "policy");
    deletePathPatterns = List.copyOf(deletePathPatterns);
    successDeleteFiles = List.copyOf(successDeleteFiles);
    failedDeleteFiles = List.copyOf(failedDeleteFiles);
    Objects.requireNonNull(partitionDeleted, "partitionDeleted");
  }
}
