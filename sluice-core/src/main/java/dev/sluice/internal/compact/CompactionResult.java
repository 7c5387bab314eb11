package dev.sluice.internal.compact;

import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.WriteStat;
import java.util.Objects;

/**
 * A completed compaction.
 *
 * @param instantTime the compaction instant (its {@code <ts>.commit})
 * @param metadata the commit metadata it published ({@code compacted: true}, operation COMPACT)
 */
public record CompactionResult(String instantTime, CommitMetadata metadata) {
  /** Rejects nulls. */
  public CompactionResult {
    Objects.requireNonNull(instantTime, "instantTime");
    Objects.requireNonNull(metadata, "metadata");
  }

  /** New base files written (one per compacted file group). */
  public int baseFilesWritten() {
    return metadata.allStats().size();
  }

  /** Rows in the new base files. */
  public long recordsWritten() {
    return metadata.totalRecordsWritten();
  }

  /** Log files read. */
  public long logFilesCompacted() {
    long n = 0;
    for (WriteStat s : metadata.allStats()) {
      n += s.totalLogFilesCompacted();
    }
    return n;
  }
}
