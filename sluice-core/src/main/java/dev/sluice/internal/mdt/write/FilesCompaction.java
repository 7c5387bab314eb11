package dev.sluice.internal.mdt.write;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.mdt.FilesRecord;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.MetadataRecords;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The metadata table's compaction (of {@code files} and, when listed, every {@code record_index} shard) as Hudi 0.15
 * runs it before a write ({@code compactIfNecessary}): at
 * {@code <latest deltacommit>001}, only when that many deltacommits followed the last compaction, no compaction is
 * pending and no data-table instant at or before the latest deltacommit is pending (so every block it folds in is
 * final). The one file slice of {@code files} (base file and trusted log blocks, merged with
 * {@link FilesRecord#merge}) becomes a new base file; {@code <t>001.compaction.requested} (the plan), {@code .inflight},
 * then {@code <t>001.commit}. Until the commit completes readers ignore the new slice; a compaction that died is
 * rolled back (its new base file and its timeline files deleted) before the next attempt.
 */
final class FilesCompaction {
  /** Suffix of a metadata compaction's instant. */
  static final String SUFFIX = "001";

  private final Storage storage;
  private final String filesDir;
  private final TimelineStore mdt;
  private final MetadataTableForm form;

  FilesCompaction(Storage storage, String filesDir, TimelineStore mdt, MetadataTableForm form) {
    this.storage = storage;
    this.filesDir = filesDir;
    this.mdt = mdt;
    this.form = form;
  }

  /**
   * The compaction instant if one is due now by {@code maxDeltaCommits}, the metadata timeline {@code tl} and the data
   * table's timeline.
   */
  Optional<String> due(Timeline tl, Supplier<Timeline> dataTimeline, int maxDeltaCommits) {
    if (!tl.filter(i -> i.action() == Action.COMPACTION && !i.isCompleted()).isEmpty()) {
      return Optional.empty();
    }
    Optional<String> lastCompaction = tl.filter(i -> i.action() == Action.COMMIT && i.isCompleted()).lastInstant()
        .map(Instant::time);
    List<Instant> since = tl.filter(i -> i.action() == Action.DELTACOMMIT && i.isCompleted()
        && lastCompaction.map(c -> i.time().compareTo(c) > 0).orElse(true)).instants();
    if (since.size() < maxDeltaCommits) {
      return Optional.empty();
    }
    String latest = since.get(since.size() - 1).time();
    // the data table's timeline is listed only when the count says a compaction may be due
    boolean olderPending = dataTimeline.get().instants().stream().anyMatch(i -> !i.isCompleted() && i.time().compareTo(latest) <= 0);
    String time = form.compaction(latest, tl);
    if (olderPending || tl.contains(time)) {
      return Optional.empty();
    }
    return Optional.of(time);
  }

  /**
   * Rolls back a compaction an earlier attempt left pending (its new base file, then its timeline files), unless log
   * files were already written to its new slice (a compaction Hudi planned and wrote after: Hudi finishes it).
   * Returns whether none is pending now.
   */
  boolean rollbackPending(Timeline tl) {
    List<String> dirs = List.of(filesDir, new RecordIndexPartition(storage, mdt).dir());
    for (Instant pending : tl.filter(i -> i.action() == Action.COMPACTION && !i.isCompleted()).instants()) {
      List<FileInfo> entries = new ArrayList<>();
      for (String dir : dirs) {
        try {
          if (storage.info(dir).isPresent()) {
            entries.addAll(storage.list(dir));
          }
        } catch (IOException e) {
          throw Errors.storage("list the metadata table partition", dir, e);
        }
      }
      boolean logsInSlice = entries.stream().anyMatch(f -> FileNames.parseLog(f.name())
          .filter(l -> l.baseInstant().equals(pending.time())).isPresent());
      if (logsInSlice) {
        return false;
      }
      for (FileInfo f : entries) {
        if (FileNames.parseBase(f.name()).filter(b -> b.instantTime().equals(pending.time())).isPresent()) {
          try {
            storage.delete(f.path());
          } catch (IOException e) {
            throw Errors.storage("delete the base file of an unfinished metadata compaction", f.path(), e);
          }
        }
      }
      mdt.deleteInstantFiles(Instant.requested(pending.time(), Action.COMPACTION));
    }
    return true;
  }

  /**
   * Compacts every file group at {@code time} (a due compaction): the {@code files} slice, then, when
   * {@code recordIndex} (the partition is listed), each record-index shard as a streaming merge within
   * {@code budget} bytes ({@link RecordIndexCompaction}). One plan and one commit cover them all, as Hudi's unbounded
   * strategy compacts every slice of the metadata table together.
   */
  void run(String time, CompactionRecorder recorder, boolean recordIndex, long budget, Path spillDirectory) {
    Timeline tl = mdt.load();
    FilesPartitionState slice = FilesPartitionState.load(storage, filesDir, tl);
    Map<String, FilesRecord> merged = slice.merged(storage, tl);
    String fileId = MetadataTableWriter.FILE_ID;
    String partition = MetadataPartition.FILES.path();
    RecordIndexPartition ri = new RecordIndexPartition(storage, mdt);
    SortedMap<String, FilesPartitionState> shards = recordIndex ? ri.shards(tl) : new TreeMap<>();
    List<CompactionRecorder.Operation> ops = new ArrayList<>();
    ops.add(new CompactionRecorder.Operation(partition, fileId, slice.baseInstant(),
        Optional.of(slice.baseFileName()).filter(n -> !n.isEmpty()), slice.logFileNames()));
    shards.values().forEach(s -> ops.add(new CompactionRecorder.Operation(RecordIndexPartition.PATH, s.fileId(),
        s.baseInstant(), Optional.of(s.baseFileName()).filter(n -> !n.isEmpty()), s.logFileNames())));
    Instant requested = Instant.requested(time, Action.COMPACTION);
    mdt.createRequested(requested, recorder.plan(ops, mdt.layout()));
    Instant inflight = mdt.transitionToInflight(requested, new byte[0]);
    String name = fileId + "_" + MetadataTableWriter.WRITE_TOKEN + "_" + time + ".hfile";
    String path = StoragePaths.join(filesDir, name);
    BaseHFile.write(storage, path, merged.values());
    long size = BaseHFile.size(storage, path);
    WriteStat stat = WriteStat.builder().fileId(fileId).path(partition + "/" + name).prevCommit(slice.baseInstant())
        .partitionPath(partition).numWrites(merged.size()).numUpdateWrites(merged.size()).totalWriteBytes(size)
        .fileSizeInBytes(size).totalLogFilesCompacted(slice.logFileNames().size()).build();
    Map<String, List<WriteStat>> stats = new TreeMap<>();
    stats.put(partition, List.of(stat));
    if (!shards.isEmpty()) {
      RecordIndexCompaction shardCompaction = new RecordIndexCompaction(storage, ri.dir(), budget, spillDirectory);
      List<WriteStat> riStats = new ArrayList<>();
      for (FilesPartitionState shard : shards.values()) {
        KillPoints.reach("metadata.ri.compaction.shard");
        riStats.add(shardCompaction.compact(shard, tl, time));
      }
      stats.put(RecordIndexPartition.PATH, riStats);
    }
    CommitMetadata md = new CommitMetadata(stats, true,
        Map.of(CommitMetadata.SCHEMA_KEY, MetadataRecords.schema().toString()), WriteOperationType.COMPACT);
    KillPoints.reach("metadata.compaction.commit");
    mdt.complete(inflight, mdt.layout().encode(md));
  }
}
