package dev.sluice.api;

import dev.sluice.internal.clean.CleanFile;
import dev.sluice.internal.log.SkippedBlock;
import dev.sluice.internal.repair.Repairer;
import dev.sluice.internal.clean.CleanMetadata;
import dev.sluice.internal.clean.PartitionCleanStats;
import dev.sluice.internal.clean.CleanPlan;
import dev.sluice.internal.compact.CompactionOperation;
import dev.sluice.internal.compact.CompactionPlan;
import dev.sluice.internal.compact.CompactionResult;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroup;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.log.LogDump;
import dev.sluice.internal.timeline.avro.PartitionRollback;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.timeline.avro.RestoreMetadata;
import dev.sluice.internal.savepoint.SavepointMetadata;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.internal.write.WritePreview;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds the API's read-only info records from the engine's types (the one place that knows both). */
final class Infos {
  private Infos() {
  }

  static InstantInfo instant(Instant i) {
    return new InstantInfo(i.time(), i.action().id(), InstantInfo.State.valueOf(i.state().name()));
  }

  static List<InstantInfo> instants(List<Instant> all) {
    return all.stream().map(Infos::instant).toList();
  }

  static CommitInfo commit(CommitMetadata md) {
    List<WriteStatInfo> stats = new ArrayList<>();
    for (WriteStat s : md.allStats()) {
      stats.add(new WriteStatInfo(s.partitionPath(), s.fileId(), s.path(), s.prevCommit(), s.numWrites(), s.numDeletes(),
          s.numUpdateWrites(), s.numInserts(), s.totalWriteBytes(), s.delta(), s.fileSizeInBytes(), s.totalLogBlocks(),
          s.totalLogRecords()));
    }
    return new CommitInfo(md.operationType().name(), md.compacted(), md.schema(), stats,
        List.copyOf(md.partitionToWriteStats().keySet()), md.partitionToReplaceFileIds().orElse(Map.of()));
  }

  static FileGroupKey key(FileGroupId id) {
    return new FileGroupKey(id.partitionPath(), id.fileId());
  }

  static FileSliceInfo slice(FileSlice s) {
    Optional<BaseFileInfo> base = s.baseFile().map(Infos::base);
    List<LogFileInfo> logs = new ArrayList<>();
    for (LogFile l : s.logFiles()) {
      logs.add(new LogFileInfo(l.path(), l.fileName(), l.size()));
    }
    return new FileSliceInfo(key(s.id()), s.baseInstant(), base, logs);
  }

  private static BaseFileInfo base(BaseFile b) {
    return new BaseFileInfo(b.path(), b.fileName(), b.size());
  }

  static FileGroupInfo group(FileGroup g) {
    return new FileGroupInfo(key(g.id()), g.slices().stream().map(Infos::slice).toList());
  }

  static RepairReport repair(Repairer.Outcome o) {
    return new RepairReport(o.findings().stream().map(f -> new RepairItem(f.kind().name(), f.path(), f.problem(),
        f.action(), f.step().isPresent(), o.applied() && f.step().isPresent())).toList(), o.applied(), o.backupFolder());
  }

  static CorruptBlockInfo corrupt(SkippedBlock b) {
    return new CorruptBlockInfo(b.path(), b.offset(), b.size(), b.instant(), b.committed());
  }

  static LogBlockInfo block(LogDump.BlockSummary b) {
    Map<String, String> header = new LinkedHashMap<>();
    b.header().forEach((k, v) -> header.put(k.name(), v));
    return new LogBlockInfo(b.type().name(), b.instantTime(), header, b.records(), b.offset(), b.size());
  }

  static RollbackInfo rollback(RollbackMetadata md) {
    int logFiles = 0;
    for (PartitionRollback p : md.partitionMetadata().values()) {
      logFiles += p.rollbackLogFiles().size();
    }
    List<RollbackInfo.Partition> partitions = new ArrayList<>();
    for (PartitionRollback p : md.partitionMetadata().values()) {
      partitions.add(new RollbackInfo.Partition(p.partitionPath(), p.successDeleteFiles(), p.failedDeleteFiles(),
          p.rollbackLogFiles()));
    }
    return new RollbackInfo(md.startRollbackTime(), md.totalFilesDeleted(), md.commitsRollback(),
        md.instantsRollback().stream().map(i -> new RollbackInfo.Target(i.commitTime(), i.action())).toList(), logFiles,
        partitions);
  }

  static SavepointInfo savepoint(SavepointMetadata md) {
    return new SavepointInfo(md.savepointedBy(), md.savepointedAt(), md.comments(), md.partitionFiles());
  }

  static RestoreInfo restore(RestoreMetadata md) {
    return new RestoreInfo(md.startRestoreTime(), md.instantsToRollback());
  }

  static CleanInfo clean(CleanMetadata md) {
    int failed = md.partitionMetadata().values().stream().mapToInt(p -> p.failedDeleteFiles().size()).sum();
    List<CleanInfo.Partition> partitions = new ArrayList<>();
    for (PartitionCleanStats p : md.partitionMetadata().values()) {
      partitions.add(new CleanInfo.Partition(p.partitionPath(), p.policy(), p.deletePathPatterns(),
          p.successDeleteFiles(), p.failedDeleteFiles(), p.partitionDeleted().orElse(false)));
    }
    return new CleanInfo(md.startCleanTime(), md.totalFilesDeleted(), failed,
        md.earliestCommitToRetain().isEmpty() ? Optional.empty() : Optional.of(md.earliestCommitToRetain()),
        md.lastCompletedCommit().isEmpty() ? Optional.empty() : Optional.of(md.lastCompletedCommit()),
        md.timeTakenInMillis(), partitions);
  }

  static CleanPlanInfo cleanPlan(CleanPlan plan) {
    Map<String, List<String>> files = new LinkedHashMap<>();
    for (Map.Entry<String, List<CleanFile>> e : plan.filesToDelete().entrySet()) {
      files.put(e.getKey(), e.getValue().stream().map(CleanFile::name).toList());
    }
    return new CleanPlanInfo(plan.policy().name(), plan.earliestInstantToRetain().map(Instant::time),
        java.util.Collections.unmodifiableMap(files));
  }

  static CompactionInfo compaction(CompactionResult r) {
    return new CompactionInfo(r.instantTime(), r.baseFilesWritten(), r.recordsWritten(), r.logFilesCompacted(),
        commit(r.metadata()));
  }

  static CompactionPlanInfo compactionPlan(String instantTime, CompactionPlan plan) {
    List<CompactionPlanInfo.Operation> ops = new ArrayList<>();
    for (CompactionOperation o : plan.operations()) {
      ops.add(new CompactionPlanInfo.Operation(o.partitionPath(), o.fileId(), o.baseInstantTime(), o.dataFileName(),
          o.deltaFileNames()));
    }
    return new CompactionPlanInfo(instantTime, ops);
  }

  static WritePreviewInfo preview(WritePreview p) {
    List<WritePreviewInfo.Target> targets = new ArrayList<>();
    for (WritePreview.Target t : p.targets()) {
      targets.add(new WritePreviewInfo.Target(key(t.id()), t.updates(), t.deletes(), t.baseFileBytes(), t.logBytes(),
          t.changedRowBytes()));
    }
    return new WritePreviewInfo(p.records(), p.inserts(), targets, p.blockHeaderBytes());
  }
}
