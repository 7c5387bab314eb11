package dev.sluice.internal.compact;

import dev.sluice.internal.timeline.WriteStat;
import java.util.List;
import java.util.Optional;

/**
 * Where the slices of a running compaction are compacted: on this machine's threads ({@link CompactionExecutor}'s
 * own), or in the tasks of a cluster engine, each through {@link Compaction#compactSlice}. The compaction's instant
 * is inflight while it runs; its commit follows.
 */
public interface SliceRunner {
  /**
   * Compacts every operation of {@code job}; the write stats in the job's operation order, empty for a slice that
   * yields no file (a log-only slice without valid records). Only the stats returned are committed: other files
   * written under the instant's markers (a failed or duplicate attempt's) are deleted before the commit.
   */
  List<Optional<WriteStat>> compact(SliceJob job);
}
