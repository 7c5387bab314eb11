package dev.sluice.api;

import java.util.List;
import java.util.Optional;

/**
 * A compaction plan: the file slices one compaction rewrites.
 *
 * @param instantTime the compaction's instant time
 * @param operations one per file group
 */
public record CompactionPlanInfo(String instantTime, List<Operation> operations) {
  /** Copies the list. */
  public CompactionPlanInfo {
    operations = List.copyOf(operations);
  }

  /**
   * The compaction of one file slice.
   *
   * @param partitionPath relative partition path
   * @param fileId file group id
   * @param baseInstantTime the slice's base instant
   * @param dataFileName its base file, if any
   * @param deltaFileNames its log files
   */
  public record Operation(String partitionPath, String fileId, String baseInstantTime, Optional<String> dataFileName,
      List<String> deltaFileNames) {
    /** Copies the list. */
    public Operation {
      deltaFileNames = List.copyOf(deltaFileNames);
    }
  }
}
