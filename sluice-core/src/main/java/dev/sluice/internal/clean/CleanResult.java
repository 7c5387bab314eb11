package dev.sluice.internal.clean;

import java.util.List;

/**
 * What one call of {@link Cleaner#clean()} did.
 *
 * @param completed the cleans completed, oldest first (earlier unfinished ones, then the one it planned, if any)
 */
public record CleanResult(List<CleanMetadata> completed) {
  /** Copies the list. */
  public CleanResult {
    completed = List.copyOf(completed);
  }

  /** Files deleted over all completed cleans. */
  public int filesDeleted() {
    return completed.stream().mapToInt(CleanMetadata::totalFilesDeleted).sum();
  }

  /** Files the cleans listed but could not delete (already gone, or the delete failed). */
  public int filesFailed() {
    return completed.stream().flatMap(m -> m.partitionMetadata().values().stream())
        .mapToInt(p -> p.failedDeleteFiles().size()).sum();
  }
}
