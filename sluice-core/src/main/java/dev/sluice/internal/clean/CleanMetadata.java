package dev.sluice.internal.clean;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a completed clean did: the content of {@code <t>.clean} ({@code HoodieCleanMetadata}, version 2).
 *
 * @param startCleanTime the clean's instant time
 * @param timeTakenInMillis how long deleting took
 * @param totalFilesDeleted files deleted, over all partitions
 * @param earliestCommitToRetain the plan's earliest retained commit ("" if it had none)
 * @param lastCompletedCommit the plan's last completed commit
 * @param partitionMetadata partition path → what was done there
 * @param bootstrapPartitionMetadata the same for bootstrap source files (empty for Sluice's cleans)
 * @param extraMetadata the plan's extra metadata
 */
public record CleanMetadata(String startCleanTime, long timeTakenInMillis, int totalFilesDeleted,
                            String earliestCommitToRetain, String lastCompletedCommit,
                            Map<String, PartitionCleanStats> partitionMetadata,
                            Map<String, PartitionCleanStats> bootstrapPartitionMetadata,
                            Map<String, String> extraMetadata) {
  /** The metadata version Hudi 0.15 writes ({@code CleanerUtils.CLEAN_METADATA_VERSION_2}). */
  public static final int VERSION = 2;

  /** Copies the maps, keeping their order. */
  public CleanMetadata {
    Objects.requireNonNull(startCleanTime, "startCleanTime");
    Objects.requireNonNull(earliestCommitToRetain, "earliestCommitToRetain");
    Objects.requireNonNull(lastCompletedCommit, "lastCompletedCommit");
    partitionMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(partitionMetadata));
    bootstrapPartitionMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(bootstrapPartitionMetadata));
    extraMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(extraMetadata));
  }
}
