package dev.sluice.internal.commit;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.storage.Storage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.internal.timeline.WriteStat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Hudi's default conflict check ({@code SimpleConcurrentFileWritesConflictResolutionStrategy}, run by
 * {@code TransactionUtils.resolveWriteConflictIfAny} under the lock): a commit conflicts with every write that
 * completed after the writer started (after its last completed commit, or one that was pending when it started)
 * and touched one of the same file groups, and with a compaction scheduled after it on one of its file groups. A
 * compaction older than the write does not conflict: the write's log files went to the compaction's new slice.
 */
public final class ConflictDetector {
  private final Storage storage;
  private final String basePath;

  /** A check of commits to the table at {@code basePath}; does no I/O. */
  public ConflictDetector(Storage storage, String basePath) {
    this.storage = storage;
    this.basePath = basePath;
  }

  /** Throws a CONFLICT naming the other instant and the shared file group, if there is one. */
  public void check(Timeline now, Instant current, Optional<String> lastCompletedAtStart, Set<String> pendingAtStart,
      CommitMetadata ours) {
    Set<FileGroupId> mine = mutated(ours);
    if (mine.isEmpty()) {
      return;
    }
    for (Instant r : now.filter(i -> i.action() == Action.RESTORE && i.isCompleted()).instants()) {
      if (InstantTimes.isBefore(current.time(), r.time())) {
        throw Errors.conflict("Commit of instant " + current.time() + " (" + current.action().id() + ")",
            "the table was restored to a savepoint (restore " + r.time() + ") while this write ran; this write was rolled back");
      }
    }
    TimelineStore store = new TimelineStore(storage, basePath);
    List<Instant> completed = now.commitsTimeline().completed().instants();
    for (Instant other : completed) {
      if (other.time().equals(current.time())) {
        continue;
      }
      boolean after = lastCompletedAtStart.map(t -> InstantTimes.isBefore(t, other.time())).orElse(true);
      if (!after && !pendingAtStart.contains(other.time())) {
        continue;
      }
      Optional<CommitMetadata> theirs = store.readCommitMetadata(other);
      if (theirs.isEmpty()) {
        continue;
      }
      boolean compaction = theirs.get().operationType() == WriteOperationType.COMPACT || now.isCompaction(other.time());
      if (compaction && InstantTimes.isBefore(other.time(), current.time())) {
        continue;
      }
      for (FileGroupId id : mutated(theirs.get())) {
        if (mine.contains(id)) {
          throw conflict(current, other.time() + " (" + (compaction ? "compaction" : other.action().id())
              + ", completed while this write ran)", id);
        }
      }
    }
    Map<FileGroupId, String> compacting = FileSystemView.of(storage, basePath, now).pendingCompactionOperations();
    for (FileGroupId id : mine) {
      String c = compacting.get(id);
      if (c != null && InstantTimes.isBefore(current.time(), c)) {
        throw conflict(current, c + " (a compaction scheduled while this write ran)", id);
      }
    }
  }

  private static RuntimeException conflict(Instant current, String other, FileGroupId id) {
    return Errors.conflict("Commit of instant " + current.time() + " (" + current.action().id() + ")",
        "instant " + other + " also wrote file group " + id.fileId() + " in partition '" + id.partitionPath()
            + "'; this write was rolled back");
  }

  /** The file groups a commit wrote or replaced ({@code ConcurrentOperation.getMutatedPartitionAndFileIds}). */
  static Set<FileGroupId> mutated(CommitMetadata md) {
    Set<FileGroupId> out = new LinkedHashSet<>();
    for (WriteStat s : md.allStats()) {
      if (!s.fileId().isEmpty()) {
        out.add(new FileGroupId(s.partitionPath(), s.fileId()));
      }
    }
    md.partitionToReplaceFileIds().ifPresent(m -> m.forEach((p, ids) -> ids.forEach(id -> out.add(new FileGroupId(p, id)))));
    return out;
  }
}
