package dev.sluice.api;

import java.util.List;

/**
 * Where {@link TableCompaction#runWith} has the slices of a compaction compacted: a cluster
 * engine's tasks, each calling {@link CompactionUnits#compact} for one slice under its attempt's own
 * {@link WriteToken}.
 */
@FunctionalInterface
public interface CompactionTasks {
  /**
   * Compacts {@code slices} (the plan's operations, in plan order); returns one result per slice that wrote a file
   * (the attempt the engine kept), in any order. Files of other attempts are deleted before the commit.
   */
  List<CompactedSlice> compact(List<CompactionSlice> slices);
}
