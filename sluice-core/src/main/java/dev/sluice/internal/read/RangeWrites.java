package dev.sluice.internal.read;

import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.internal.timeline.WriteStat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the completed instants of an incremental range wrote, from their commit metadata's write stats.
 * Commits, delta commits and replacecommits are writes; a compaction (or log compaction) rewrites records
 * without changing their commit time, so it touches no file group by itself, but the file it wrote is where a
 * group's state lives afterwards.
 *
 * @param writes the write instants in the range, oldest first
 * @param written file groups the writes wrote to (new groups, base file rewrites, log appends)
 * @param replaced file groups that replacecommits in the range replaced
 * @param lastFile per written group, the name of the file the last write or compaction in the range wrote
 * @param firstPrevCommit per written group, the base instant the first write in the range wrote against
 *     ({@code prevCommit}, absent for a new group)
 * @param missing an instant of the range whose commit file is gone (archived after the timeline was loaded)
 */
record RangeWrites(List<Instant> writes, Set<FileGroupId> written, Set<FileGroupId> replaced,
    Map<FileGroupId, String> lastFile, Map<FileGroupId, String> firstPrevCommit, Optional<String> missing) {

  /** Reads the commit metadata of every completed write instant of {@code timeline} in {@code range}. */
  static RangeWrites read(TimelineStore store, Timeline timeline, IncrementalRange range) {
    List<Instant> writes = new ArrayList<>();
    Set<FileGroupId> written = new TreeSet<>();
    Set<FileGroupId> replaced = new TreeSet<>();
    Map<FileGroupId, String> lastFile = new HashMap<>();
    Map<FileGroupId, String> firstPrev = new HashMap<>();
    Optional<String> missing = Optional.empty();
    for (Instant i : timeline.commitsTimeline().completed().instants()) {
      if (!range.contains(i.time())) {
        continue;
      }
      Optional<CommitMetadata> read = store.readCommitMetadata(i);
      if (read.isEmpty()) {
        missing = missing.or(() -> Optional.of(i.time()));
        continue;
      }
      CommitMetadata md = read.get();
      boolean compaction = timeline.isCompaction(i.time()) || timeline.isLogCompaction(i.time()) || md.compacted()
          || md.operationType() == WriteOperationType.COMPACT || md.operationType() == WriteOperationType.LOG_COMPACT;
      if (!compaction) {
        writes.add(i);
      }
      for (WriteStat s : md.allStats()) {
        if (s.fileId().isEmpty()) {
          continue;
        }
        FileGroupId id = new FileGroupId(s.partitionPath(), s.fileId());
        if (!compaction) {
          written.add(id);
          if (!s.prevCommit().equals(WriteStat.NULL_COMMIT)) {
            firstPrev.putIfAbsent(id, s.prevCommit());
          }
        }
        s.path().ifPresent(p -> lastFile.put(id, StoragePaths.name(p)));
      }
      if (!compaction) {
        md.partitionToReplaceFileIds().ifPresent(m -> m.forEach((partition, ids) -> {
          for (String id : ids) {
            replaced.add(new FileGroupId(partition, id));
          }
        }));
      }
    }
    lastFile.keySet().retainAll(written);
    return new RangeWrites(List.copyOf(writes), Collections.unmodifiableSet(written),
        Collections.unmodifiableSet(replaced), Map.copyOf(lastFile), Map.copyOf(firstPrev), missing);
  }

  /** The partitions of the written and replaced file groups, sorted. */
  List<String> partitions() {
    Set<String> out = new TreeSet<>();
    written.forEach(g -> out.add(g.partitionPath()));
    replaced.forEach(g -> out.add(g.partitionPath()));
    return List.copyOf(out);
  }
}
