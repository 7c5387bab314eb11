package dev.sluice.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a clean would delete now (a dry run).
 *
 * @param policy the cleaner policy ({@code KEEP_LATEST_COMMITS}, ...)
 * @param earliestInstantToRetain the earliest commit kept, if the policy names one
 * @param filesToDelete partition path to the names of the files to delete, in plan order
 */
public record CleanPlanInfo(String policy, Optional<String> earliestInstantToRetain,
    Map<String, List<String>> filesToDelete) {
  /** The number of files the plan deletes. */
  public int fileCount() {
    return filesToDelete.values().stream().mapToInt(List::size).sum();
  }
}
