package dev.sluice.internal.clean;

import dev.sluice.internal.timeline.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one clean deletes: the content of {@code <t>.clean.requested} and {@code <t>.clean.inflight}
 * ({@code HoodieCleanerPlan}, version 2).
 *
 * @param earliestInstantToRetain the oldest commit whose snapshot the clean keeps (empty for
 *                                KEEP_LATEST_FILE_VERSIONS, or when there are too few commits)
 * @param lastCompletedCommit the newest completed commit when the plan was made ("" if none); the next clean
 *                            counts commits after it
 * @param policy the policy the plan was made with
 * @param filesToDelete partition path → files to delete
 * @param partitionsToDelete partitions to delete whole (Sluice never plans any)
 * @param extraMetadata extra entries (Hudi records {@code savepointed_timestamps} here)
 */
public record CleanPlan(Optional<Instant> earliestInstantToRetain, String lastCompletedCommit, CleanPolicy policy,
                        Map<String, List<CleanFile>> filesToDelete, List<String> partitionsToDelete,
                        Map<String, String> extraMetadata) {
  /** The plan version Hudi 0.15 writes ({@code CleanPlanner.LATEST_CLEAN_PLAN_VERSION}). */
  public static final int VERSION = 2;
  /** Extra-metadata key listing the savepoints the plan respected ({@code CleanPlanner.SAVEPOINTED_TIMESTAMPS}). */
  public static final String SAVEPOINTED_TIMESTAMPS = "savepointed_timestamps";

  /** Copies the collections, keeping their order. */
  public CleanPlan {
    Objects.requireNonNull(earliestInstantToRetain, "earliestInstantToRetain");
    Objects.requireNonNull(lastCompletedCommit, "lastCompletedCommit");
    Objects.requireNonNull(policy, "policy");
    Map<String, List<CleanFile>> files = new LinkedHashMap<>();
    filesToDelete.forEach((k, v) -> files.put(k, List.copyOf(v)));
    filesToDelete = Collections.unmodifiableMap(files);
    partitionsToDelete = List.copyOf(partitionsToDelete);
    extraMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(extraMetadata));
  }

  /** The number of files the plan deletes. */
  public int fileCount() {
    return filesToDelete.values().stream().mapToInt(List::size).sum();
  }

  /** True if the plan deletes nothing (Hudi writes no clean instant for such a plan). */
  public boolean isEmpty() {
    return fileCount() == 0 && partitionsToDelete.isEmpty();
  }
}
