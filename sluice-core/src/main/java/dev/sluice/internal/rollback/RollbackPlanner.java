package dev.sluice.internal.rollback;

import dev.sluice.internal.timeline.avro.RollbackRequest;
import dev.sluice.internal.timeline.avro.RollbackPlan;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.BaseFileName;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFileName;
import dev.sluice.internal.log.CorruptBlock;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogReader;
import dev.sluice.internal.commit.IOType;
import dev.sluice.internal.commit.Marker;
import dev.sluice.internal.commit.Markers;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.internal.timeline.avro.InstantInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides what undoes an instant, as Hudi 0.15's rollback planning does ({@code BaseRollbackPlanActionExecutor}):
 * <ul>
 *   <li>a requested instant wrote nothing: the plan is empty;</li>
 *   <li>a pending write is undone from its markers ({@code MarkerBasedRollbackStrategy}): base files with CREATE or
 *       MERGE markers are deleted; for each file group with APPEND markers a rollback command block naming the instant
 *       is appended to the group's latest log;</li>
 *   <li>a completed instant (restore) is undone from a listing ({@code ListingBasedRollbackStrategy}): every base file
 *       of the instant and every log file whose base instant it is are deleted, and for the log appends of a completed
 *       deltacommit into older slices a rollback block is appended.</li>
 * </ul>
 * Deliberate differences:
 * <ul>
 *   <li>a log file whose complete blocks are all the rolled-back instant's (Sluice's writers put each write's blocks in
 *       files of their own) is deleted, as Hudi 1.x's rollback does, instead of getting a command block: a command
 *       block leaves the failed blocks in place, and a reader that stops at the first block after its query instant
 *       (Hudi 0.15) stops there, before committed blocks of earlier instants that sort after them (a concurrent
 *       writer's file). Only a file that also holds other instants' blocks (one Hudi appended to on HDFS) gets the
 *       command block;</li>
 *   <li>an APPEND marker whose file is not there, or holds only other instants' blocks (another writer's file it
 *       lost the create of), needs nothing; a file with no complete block at all (empty or cut short: the write was
 *       killed while creating it) is left in place, since it could be a concurrent writer's file that is still being
 *       written, but is accounted for as Hudi accounts for an APPEND marker's file: a command block goes to the group's
 *       latest log and the file is listed among the failed commit's log files;</li>
 *   <li>log files whose base instant is the rolled-back instant itself (a slice the failed write created) are deleted
 *       rather than given a command block, as Hudi's listing strategy does;</li>
 *   <li>APPEND markers of one file group become one request (Hudi makes one per marker, each appending its own
 *       block).</li>
 * </ul>
 */
final class RollbackPlanner {
  private final Storage storage;
  private final String basePath;
  private final TableType tableType;

  RollbackPlanner(Storage storage, String basePath, TableType tableType) {
    this.storage = storage;
    this.basePath = basePath;
    this.tableType = tableType;
  }

  /** The plan for {@code target} in the state the timeline shows; {@code restore} as in Hudi's restore. */
  RollbackPlan plan(Instant target, Timeline timeline, boolean restore) {
    InstantInfo info = InstantInfo.of(target);
    if (target.isCompleted() && target.action() == Action.COMMIT && timeline.isCompaction(target.time())) {
      // a completed compaction is a commit on the timeline; its rollback names it as the compaction it was
      info = new InstantInfo(target.time(), Action.COMPACTION.id());
    }
    if (target.isRequested()) {
      return new RollbackPlan(info, List.of(), RollbackPlan.VERSION);
    }
    Markers markers = new Markers(storage, basePath, target.time());
    if (!target.isCompleted() && markers.exists()) {
      return new RollbackPlan(info, fromMarkers(target, markers), RollbackPlan.VERSION);
    }
    return new RollbackPlan(info, fromListing(target, timeline, restore), RollbackPlan.VERSION);
  }

  private List<RollbackRequest> fromMarkers(Instant target, Markers markers) {
    List<RollbackRequest> out = new ArrayList<>();
    Map<String, Map<String, Long>> appends = new LinkedHashMap<>();
    for (Marker m : markers.list()) {
      String path = StoragePaths.join(basePath, m.relativeFilePath());
      Optional<BaseFileName> base = FileNames.parseBase(m.fileName());
      Optional<LogFileName> log = FileNames.parseLog(m.fileName());
      switch (m.ioType()) {
        case CREATE, MERGE -> {
          if (log.isPresent()) {
            // versions 8/9 (and Hudi 1.x writers): a log file of the instant's own name gets a CREATE marker and is
            // rolled back by deleting it
            if (m.ioType() == IOType.CREATE && log.get().baseInstant().equals(target.time())) {
              out.add(RollbackRequest.delete(m.partitionPath(), path));
              continue;
            }
            throw Errors.badTable(markers.directory(), "the marker of log file " + m.relativeFilePath() + " is of type "
                + m.ioType() + "; a log file has an APPEND marker, or a CREATE marker if it is named after the "
                + "instant that wrote it", "Delete the marker folder of instant " + target.time()
                + " after checking which files it wrote.");
          }
          if (base.isEmpty()) {
            throw Errors.badTable(markers.directory(), "marker " + m.relativeFilePath() + " names no base file",
                "Delete the marker after checking the file it names.");
          }
          out.add(RollbackRequest.delete(m.partitionPath(), path));
        }
        case APPEND -> {
          if (log.isPresent()) {
            LogFileName l = log.get();
            if (l.baseInstant().equals(target.time())) {
              out.add(RollbackRequest.delete(m.partitionPath(), path));
            } else {
              switch (blocksOf(path, target.time())) {
                case ONLY_INSTANT -> out.add(RollbackRequest.delete(m.partitionPath(), path));
                case MIXED -> {
                  String key = m.partitionPath() + '\u0000' + l.fileId() + '\u0000' + l.baseInstant();
                  // markers carry no block sizes; Hudi stubs the size with 1
                  appends.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(m.fileName(), 1L);
                }
                case NO_BLOCKS -> {
                  // killed after creating the file and before its first block was whole: the file cannot be deleted
                  // (it may be a concurrent writer's that is still being written) but must not be left unaccounted
                  // for, so it gets Hudi's treatment of an APPEND marker: a command block in the group's latest log,
                  // the file listed among the failed commit's logs (with its real size: the metadata table mirrors it)
                  String key = m.partitionPath() + '\u0000' + l.fileId() + '\u0000' + l.baseInstant();
                  appends.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(m.fileName(), size(path));
                }
                case NONE -> {
                  // nothing of the instant to undo in this file
                }
                default -> throw Errors.internal("unknown log content kind", null);
              }
            }
          } else if (base.isPresent()) {
            // markers written before HUDI-1517 name the slice's base file for log appends
            out.addAll(legacyAppend(target, m, base.get()));
          } else {
            throw Errors.badTable(markers.directory(), "marker " + m.relativeFilePath() + " names no data file",
                "Delete the marker after checking the file it names.");
          }
        }
        default -> throw Errors.internal("unknown marker type " + m.ioType(), null);
      }
    }
    appends.forEach((key, logs) -> {
      String[] parts = key.split("\u0000", -1);
      out.add(RollbackRequest.appendBlock(parts[0], parts[1], parts[2], logs));
    });
    return out;
  }

  private List<RollbackRequest> legacyAppend(Instant target, Marker m, BaseFileName base) {
    String dir = StoragePaths.join(basePath, m.partitionPath());
    Optional<FileInfo> latest = latestLog(dir, base.fileId(), base.instantTime());
    if (latest.isPresent() && base.instantTime().equals(target.time())) {
      return List.of(RollbackRequest.delete(m.partitionPath(), latest.get().path()));
    }
    Map<String, Long> logs = latest.map(f -> Map.of(f.path(), f.length())).orElse(Map.of());
    return List.of(RollbackRequest.appendBlock(m.partitionPath(), base.fileId(), base.instantTime(), logs));
  }

  private Optional<FileInfo> latestLog(String dir, String fileId, String baseInstant) {
    FileInfo best = null;
    int bestVersion = -1;
    for (FileInfo f : list(dir)) {
      Optional<LogFileName> n = FileNames.parseLog(f.name());
      if (n.isPresent() && n.get().fileId().equals(fileId) && n.get().baseInstant().equals(baseInstant)
          && n.get().extension().equals(FileNames.LOG_EXTENSION) && n.get().version() > bestVersion) {
        best = f;
        bestVersion = n.get().version();
      }
    }
    return Optional.ofNullable(best);
  }

  private List<RollbackRequest> fromListing(Instant target, Timeline timeline, boolean restore) {
    String ts = target.time();
    Optional<CommitMetadata> metadata;
    boolean damaged = false;
    try {
      metadata = commitMetadata(target);
    } catch (SluiceException e) {
      if (e.kind() != SluiceException.Kind.BAD_TABLE) {
        throw e;
      }
      // a damaged commit file must still be undoable: its files are found by listing, its log blocks by reading logs
      metadata = Optional.empty();
      damaged = true;
    }
    boolean compaction = timeline.isCompaction(ts) || target.action() == Action.COMPACTION
        || metadata.map(md -> md.operationType() == WriteOperationType.COMPACT).orElse(false);
    List<RollbackRequest> out = new ArrayList<>();
    for (String partition : FileSystemView.of(storage, basePath, timeline).partitions()) {
      for (FileInfo f : list(StoragePaths.join(basePath, partition))) {
        if (f.directory()) {
          continue;
        }
        Optional<BaseFileName> base = FileNames.parseBase(f.name());
        Optional<LogFileName> log = FileNames.parseLog(f.name()).filter(l -> l.extension().equals(FileNames.LOG_EXTENSION));
        boolean ofInstant = base.map(b -> b.instantTime().equals(ts)).orElse(false);
        // a compaction's slice gets later writers' log files; only a restore removes them with the compaction
        boolean sliceLog = log.map(l -> l.baseInstant().equals(ts)).orElse(false) && (!compaction || restore);
        if (ofInstant || sliceLog) {
          out.add(RollbackRequest.delete(partition, f.path()));
        }
      }
    }
    if (tableType == TableType.MERGE_ON_READ && target.action() == Action.DELTACOMMIT && metadata.isPresent()) {
      out.addAll(appendsOfDeltaCommit(ts, metadata.get()));
    } else if (tableType == TableType.MERGE_ON_READ && target.action() == Action.DELTACOMMIT && damaged) {
      out.addAll(appendsFoundInLogs(ts, timeline));
    }
    return out;
  }

  /** Rollback blocks for every older slice whose log files hold a block of {@code ts} (read block headers). */
  private List<RollbackRequest> appendsFoundInLogs(String ts, Timeline timeline) {
    List<RollbackRequest> out = new ArrayList<>();
    for (String partition : FileSystemView.of(storage, basePath, timeline).partitions()) {
      Map<String, Map<String, Long>> slices = new LinkedHashMap<>();
      for (FileInfo f : list(StoragePaths.join(basePath, partition))) {
        Optional<LogFileName> log = FileNames.parseLog(f.name()).filter(l -> l.extension().equals(FileNames.LOG_EXTENSION)
            && l.suffix().isEmpty() && dev.sluice.internal.timeline.InstantTimes.isBefore(l.baseInstant(), ts));
        LogContent content = log.isPresent() ? blocksOf(f.path(), ts) : LogContent.NONE;
        if (content == LogContent.ONLY_INSTANT) {
          out.add(RollbackRequest.delete(partition, f.path()));
        } else if (content == LogContent.MIXED) {
          slices.computeIfAbsent(log.get().fileId() + '\u0000' + log.get().baseInstant(), k -> new LinkedHashMap<>())
              .put(f.path(), f.length());
        }
      }
      slices.forEach((k, logs) -> {
        String[] parts = k.split("\u0000", -1);
        out.add(RollbackRequest.appendBlock(partition, parts[0], parts[1], logs));
      });
    }
    return out;
  }

  /** What a log file holds of instant {@code ts}'s blocks. */
  private enum LogContent {
    /** No complete block of the instant (or no file). */
    NONE,
    /** The file is there but holds no complete block of any instant (empty, or its first block cut short). */
    NO_BLOCKS,
    /** Complete blocks of the instant and of no other (cut-short blocks aside). */
    ONLY_INSTANT,
    /** Blocks of the instant and of other instants. */
    MIXED
  }

  /** Reads the block headers of {@code path} to tell which {@link LogContent} it is. */
  private LogContent blocksOf(String path, String ts) {
    try {
      if (storage.info(path).isEmpty()) {
        return LogContent.NONE;
      }
    } catch (IOException e) {
      throw Errors.storage("check the log file to roll back", path, e);
    }
    boolean ours = false;
    boolean others = false;
    try (LogReader reader = LogReader.open(storage, path)) {
      while (reader.hasNext()) {
        LogBlock b = reader.next();
        if (b instanceof CorruptBlock) {
          // a block cut short has no header to tell whose it is; readers skip it either way
          continue;
        }
        if (b.instantTime().filter(ts::equals).isPresent()) {
          ours = true;
        } else {
          others = true;
        }
      }
    }
    if (!ours) {
      return others ? LogContent.NONE : LogContent.NO_BLOCKS;
    }
    return others ? LogContent.MIXED : LogContent.ONLY_INSTANT;
  }

  /** Rollback blocks for a deltacommit's log appends to slices older than it ({@code getRollbackRequestToAppend}). */
  private List<RollbackRequest> appendsOfDeltaCommit(String ts, CommitMetadata md) {
    List<RollbackRequest> out = new ArrayList<>();
    for (WriteStat s : md.allStats()) {
      if (s.fileId().isEmpty() || s.prevCommit().equals(WriteStat.NULL_COMMIT) || s.path().isEmpty()) {
        continue;
      }
      String name = StoragePaths.name(s.path().get());
      Optional<LogFileName> log = FileNames.parseLog(name);
      if (log.isEmpty() || !dev.sluice.internal.timeline.InstantTimes.isBefore(log.get().baseInstant(), ts)) {
        continue;
      }
      String full = StoragePaths.join(basePath, s.path().get());
      if (blocksOf(full, ts) == LogContent.ONLY_INSTANT) {
        out.add(RollbackRequest.delete(s.partitionPath(), full));
        continue;
      }
      out.add(RollbackRequest.appendBlock(s.partitionPath(), s.fileId(), log.get().baseInstant(),
          Map.of(full, s.totalWriteBytes() > 0 ? s.totalWriteBytes() : 1L)));
    }
    return out;
  }

  private long size(String path) {
    try {
      return storage.info(path).map(FileInfo::length).orElse(0L);
    } catch (IOException e) {
      throw Errors.storage("check the log file to roll back", path, e);
    }
  }

  private Optional<CommitMetadata> commitMetadata(Instant target) {
    if (!target.isCompleted() || target.action() == Action.COMPACTION || !target.action().writesData()) {
      return Optional.empty();
    }
    return new TimelineStore(storage, basePath).readCommitMetadata(target);
  }

  private List<FileInfo> list(String dir) {
    try {
      return storage.list(dir);
    } catch (IOException e) {
      throw Errors.storage("list files to roll back in", dir, e);
    }
  }
}
