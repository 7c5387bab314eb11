package dev.sluice.tools.health;

import dev.sluice.api.TableType;
import java.util.List;
import java.util.Optional;

/**
 * The health figures of a table: per commit, per latest file slice, pending compactions, base file sizes, read
 * cost, and the warnings they raise. Built by {@link TableHealth}.
 *
 * @param tableType the table type
 * @param commits completed commits, delta commits and replacecommits of the active timeline, oldest first
 * @param slices latest file slices, by partition and file id
 * @param pendingCompactions requested and inflight compactions, oldest first
 * @param lastCompaction the newest completed compaction, if any is on the active timeline
 * @param deltaCommitsSinceLastCompaction completed delta commits after it (or on the whole active timeline)
 * @param baseFileSizes sizes of the latest base files
 * @param readCost what a snapshot query reads beyond base files
 * @param warnings what the figures show is wrong, by the thresholds of {@link HealthSettings}
 */
public record TableStats(TableType tableType, List<CommitStats> commits, List<SliceStats> slices,
    List<PendingCompaction> pendingCompactions, Optional<String> lastCompaction, int deltaCommitsSinceLastCompaction,
    SizeDistribution baseFileSizes, ReadCost readCost, List<Warning> warnings) {
  /** Copies the lists. */
  public TableStats {
    commits = List.copyOf(commits);
    slices = List.copyOf(slices);
    pendingCompactions = List.copyOf(pendingCompactions);
    warnings = List.copyOf(warnings);
  }

  /** The newest {@code n} commits that wrote data (compactions excluded), oldest first. */
  public List<CommitStats> recentWrites(int n) {
    List<CommitStats> writes = commits.stream().filter(c -> !c.compaction()).toList();
    return writes.subList(Math.max(0, writes.size() - n), writes.size());
  }
}
