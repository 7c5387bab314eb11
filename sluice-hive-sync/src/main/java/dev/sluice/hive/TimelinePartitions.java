package dev.sluice.hive;

import dev.sluice.api.CleanInfo;
import dev.sluice.api.CommitInfo;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.TableInspection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The partitions an incremental sync looks at and the ones it drops, read from the timeline by the rules of Hudi
 * 0.15's Hive sync (its {@code TimelineUtils.getWrittenPartitions} and {@code getDroppedPartitions}), so that both
 * syncs leave a metastore with the same partitions. Whether a partition still holds file groups plays no part: a
 * partition is dropped only when the timeline says it was deleted.
 *
 * <ul>
 *   <li>Written since {@code X}: the partitions of the completed commits, delta commits and replacecommits whose
 *       instant time is after {@code X} (their write stats' partitions, and a replacecommit's replaced ones). Cleans
 *       and rollbacks are not writes.</li>
 *   <li>Deleted: a partition a replacecommit after {@code X} replaced, when its operation is
 *       {@code delete_partition}, {@code insert_overwrite} or {@code insert_overwrite_table}; and a partition any
 *       completed clean of the active timeline (not only after {@code X}) records as deleted
 *       ({@code isPartitionDeleted}). A clean's time overrides a replacecommit's for the same partition.</li>
 *   <li>Dropped: a deleted partition that no commit after {@code X} and not before the earliest deletion wrote
 *       later than its deletion.</li>
 * </ul>
 */
final class TimelinePartitions {
  /** Hudi's operations whose replaced partitions count as deleted. */
  private static final Set<String> DELETING = Set.of("DELETE_PARTITION", "INSERT_OVERWRITE", "INSERT_OVERWRITE_TABLE");

  private final TableInspection inspection;
  private final List<Commit> commitsAfter;

  /** One completed commit after the last synced one, with its metadata. */
  private record Commit(InstantInfo instant, CommitInfo info) {
  }

  TimelinePartitions(TableInspection inspection, String lastSynced) {
    this.inspection = inspection;
    this.commitsAfter = inspection.timeline().stream()
        .filter(i -> i.isCompleted() && HiveSync.isCommit(i) && i.time().compareTo(lastSynced) > 0)
        .map(i -> new Commit(i, inspection.commitMetadata(i).orElseGet(() -> new CommitInfo("UNKNOWN", false,
            Optional.empty(), List.of()))))
        .toList();
  }

  /** The partitions written or replaced after the last synced commit, in timeline order, without {@code ""}. */
  Set<String> written() {
    Set<String> out = new LinkedHashSet<>();
    for (Commit c : commitsAfter) {
      out.addAll(c.info().writtenPartitions());
      out.addAll(c.info().replacedFileIds().keySet());
    }
    out.remove("");
    return out;
  }

  /** The partitions deleted and not written again since (see the class comment). */
  Set<String> dropped() {
    Map<String, String> deletedAt = new LinkedHashMap<>();
    for (Commit c : commitsAfter) {
      if (c.instant().action().equals("replacecommit") && DELETING.contains(c.info().operation())) {
        c.info().replacedFileIds().keySet().forEach(p -> deletedAt.put(p, c.instant().time()));
      }
    }
    for (InstantInfo i : inspection.timeline()) {
      if (i.isCompleted() && i.action().equals("clean")) {
        for (CleanInfo.Partition p : inspection.cleanMetadata(i).map(CleanInfo::partitions).orElse(List.of())) {
          if (p.partitionDeleted()) {
            deletedAt.put(p.partitionPath(), i.time());
          }
        }
      }
    }
    if (deletedAt.isEmpty()) {
      return Set.of();
    }
    String earliest = deletedAt.values().stream().min(String::compareTo).orElseThrow();
    Map<String, String> writtenAt = new LinkedHashMap<>();
    for (Commit c : commitsAfter) {
      if (c.instant().time().compareTo(earliest) >= 0) {
        c.info().writtenPartitions().forEach(p -> writtenAt.put(p, c.instant().time()));
      }
    }
    Set<String> out = new LinkedHashSet<>();
    deletedAt.forEach((p, at) -> {
      String write = writtenAt.get(p);
      if (!p.isEmpty() && (write == null || at.compareTo(write) > 0)) {
        out.add(p);
      }
    });
    return out;
  }
}
