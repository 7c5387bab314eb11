package dev.sluice.internal.rollback;

import dev.sluice.internal.timeline.avro.PartitionRollback;
import dev.sluice.internal.timeline.avro.RollbackRequest;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.timeline.avro.RollbackPlan;
import dev.sluice.internal.commit.InstantAction;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.commit.Publish;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.mdt.write.FilesChange;
import dev.sluice.internal.mdt.write.MetadataTableWriter;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.log.AppendResult;
import dev.sluice.internal.log.CommandBlock;
import dev.sluice.internal.log.LogWriter;
import dev.sluice.internal.commit.IOType;
import dev.sluice.internal.commit.Marker;
import dev.sluice.internal.commit.Markers;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.State;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.util.KillPoints;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Carries out a rollback plan in Hudi 0.15's order ({@code BaseRollbackActionExecutor}): requested → inflight;
 * un-publish a completed target (its completed file is deleted first, so readers stop seeing it at once); delete the
 * planned files and append the planned command blocks (each log file it writes gets an APPEND marker under the
 * rollback's own instant); delete the target's pending timeline files; publish {@code <ts>.rollback}; delete both
 * instants' markers. Every step can be repeated, so a rollback that died is finished by running its plan again.
 */
final class RollbackExecutor {
  private final Storage storage;
  private final String basePath;
  private final TimelineStore store;
  private final InstantLifecycle lifecycle;

  RollbackExecutor(Storage storage, String basePath, InstantLifecycle lifecycle) {
    this.storage = storage;
    this.basePath = basePath;
    this.store = new TimelineStore(storage, basePath);
    this.lifecycle = lifecycle;
  }

  /**
   * Runs {@code plan} of rollback instant {@code rollback} (requested or inflight) against {@code target} as the
   * timeline shows it now (empty if its files are already gone). {@code publish} false leaves the rollback inflight,
   * as a restore does.
   */
  RollbackMetadata execute(Instant rollback, RollbackPlan plan, Optional<Instant> target, boolean publish) {
    long start = System.currentTimeMillis();
    String ts = plan.instantToRollback().commitTime();
    RollbackMetadata md = lifecycle.run(rollback, publish ? Publish.DIRECT : Publish.NEVER, "roll back instant " + ts,
        new InstantAction<RollbackMetadata>() {
          @Override
          public RollbackMetadata execute(Instant inflight) {
            return carryOut(rollback, plan, target, publish, start);
          }

          @Override
          public byte[] metadata(RollbackMetadata result) {
            return result.toAvroBytes();
          }

          @Override
          public void beforePublish(Instant inflight, RollbackMetadata result) {
            mirror(inflight.time(), ts, result);
          }
        });
    new Markers(storage, basePath, rollback.time()).deleteAll();
    return md;
  }

  /**
   * The rollback's mirror in the metadata table, when the table has one (the caller holds the lock): the log files
   * the rollback wrote command blocks to and the rolled-back instant's log files beside them (Hudi's
   * {@code processRollbackMetadata}); then the rolled-back instant's own metadata deltacommit is rolled back.
   */
  private void mirror(String rollbackTime, String target, RollbackMetadata md) {
    try {
      if (storage.info(TableLayout.metadataTableFolder(basePath)).isEmpty()) {
        return;
      }
    } catch (IOException e) {
      throw Errors.storage("check for the metadata table at", TableLayout.metadataTableFolder(basePath), e);
    }
    Map<String, Map<String, Long>> added = new TreeMap<>();
    Map<String, List<String>> deleted = new TreeMap<>();
    for (PartitionRollback p : md.partitionMetadata().values()) {
      if (!p.rollbackLogFiles().isEmpty()) {
        Map<String, Long> files = added.computeIfAbsent(p.partitionPath(), k -> new TreeMap<>());
        p.rollbackLogFiles().forEach((path, size) -> files.merge(StoragePaths.name(path), size, Math::max));
        p.logFilesFromFailedCommit().forEach((path, size) -> files.merge(StoragePaths.name(path), size, Math::max));
      }
      if (!p.successDeleteFiles().isEmpty()) {
        deleted.put(p.partitionPath(), p.successDeleteFiles());
      }
    }
    MetadataTableWriter.of(storage, basePath).rollback(rollbackTime, target, FilesChange.ofAdded(added), deleted,
        new MetadataRollbackRecorder());
  }

  /** The rollback's work, with its instant inflight: everything but the publish and the markers' removal. */
  private RollbackMetadata carryOut(Instant rollback, RollbackPlan plan, Optional<Instant> target, boolean publish,
      long start) {
    KillPoints.reach("rollback.inflight");
    String ts = plan.instantToRollback().commitTime();
    if (target.isPresent() && target.get().isCompleted()) {
      // un-publish first: from here on readers treat the instant as never completed
      store.delete(target.get());
      KillPoints.reach("rollback.unpublished");
    }
    boolean requestedOnly = target.isPresent() && target.get().isRequested();
    List<PartitionRollback> stats = new ArrayList<>();
    if (!requestedOnly) {
      for (RollbackRequest r : plan.requests()) {
        stats.add(perform(rollback.time(), ts, r));
      }
      stats.addAll(logsOfEarlierAttempts(rollback.time(), stats));
    }
    RollbackMetadata md = RollbackMetadata.of(rollback.time(), System.currentTimeMillis() - start,
        plan.instantToRollback(), stats);
    KillPoints.reach("rollback.executed");
    Action action = plan.instantToRollback().knownAction().orElse(target.map(Instant::action).orElse(Action.COMMIT));
    store.delete(new Instant(ts, action, State.INFLIGHT));
    // a failed compaction goes back to requested and runs again from its plan (rollbackInflightCompaction); a
    // restore or the rollback of a completed compaction removes the plan with the rest
    boolean keepPlan = action == Action.COMPACTION && publish && target.map(t -> !t.isCompleted()).orElse(true);
    if (!keepPlan) {
      store.delete(new Instant(ts, action, State.REQUESTED));
    }
    // the target's markers go before the rollback is published: its plan no longer needs them, and a crash after the
    // publish must not leave the marker folder of an instant that is now neither pending nor completed (writes do not
    // list .temp, so nothing would sweep it until the next rollback or clean)
    new Markers(storage, basePath, ts).deleteAll();
    return md;
  }

  private PartitionRollback perform(String rollbackTime, String target, RollbackRequest r) {
    if (!r.filesToBeDeleted().isEmpty()) {
      List<String> ok = new ArrayList<>();
      List<String> failed = new ArrayList<>();
      for (String path : r.filesToBeDeleted()) {
        KillPoints.reach("rollback.delete-file");
        boolean deleted;
        try {
          deleted = storage.delete(path);
        } catch (IOException e) {
          throw Errors.storage("delete (rolling back instant " + target + ")", path, e);
        }
        // Hudi counts a file that was not there as a failed delete (Hadoop's delete returns false)
        (deleted ? ok : failed).add(path);
      }
      return new PartitionRollback(r.partitionPath(), ok, failed, Map.of(), Map.of());
    }
    if (!r.logBlocksToBeDeleted().isEmpty()) {
      String written = appendRollbackBlock(rollbackTime, target, r);
      long size = size(written);
      Map<String, Long> fromFailed = new LinkedHashMap<>();
      String partitionDir = StoragePaths.join(basePath, r.partitionPath());
      r.logBlocksToBeDeleted().forEach((k, v) -> {
        if (!k.replace(partitionDir, "").isEmpty()) {
          fromFailed.put(k, v);
        }
      });
      return new PartitionRollback(r.partitionPath(), List.of(), List.of(), Map.of(written, size), fromFailed);
    }
    return PartitionRollback.empty(r.partitionPath());
  }

  /** Appends {@code ROLLBACK(target)} to the slice's latest log and returns the path of the file written. */
  private String appendRollbackBlock(String rollbackTime, String target, RollbackRequest r) {
    String dir = StoragePaths.join(basePath, r.partitionPath());
    Markers markers = new Markers(storage, basePath, rollbackTime);
    // every log file the rollback creates or appends to gets an APPEND marker first, as Hudi's rollback writes them
    try (LogWriter writer = LogWriter.builder(storage, dir, r.fileId(), r.latestBaseInstant())
        .ownFileEachSession()
        .writeToken(FileNames.UNKNOWN_WRITE_TOKEN)
        .beforeOpen(path -> markers.create(r.partitionPath(), StoragePaths.name(path), IOType.APPEND))
        .open()) {
      // the header's instant is the rollback's own (Hudi uses the latest instant on the timeline, which is it)
      AppendResult res = writer.appendBlocks(List.of(CommandBlock.rollback(rollbackTime, target)));
      return res.file().path();
    }
  }

  /** Log files an earlier, interrupted attempt of this rollback wrote (its APPEND markers), not yet in the stats. */
  private List<PartitionRollback> logsOfEarlierAttempts(String rollbackTime, List<PartitionRollback> stats) {
    java.util.Set<String> known = new java.util.HashSet<>();
    stats.forEach(s -> known.addAll(s.rollbackLogFiles().keySet()));
    List<PartitionRollback> out = new ArrayList<>();
    for (Marker m : new Markers(storage, basePath, rollbackTime).list()) {
      String path = StoragePaths.join(basePath, m.relativeFilePath());
      long size = size(path);
      if (m.ioType() == IOType.APPEND && size >= 0 && !known.contains(path)) {
        out.add(new PartitionRollback(m.partitionPath(), List.of(), List.of(), Map.of(path, size), Map.of()));
      }
    }
    return out;
  }

  private long size(String path) {
    try {
      return storage.info(path).map(FileInfo::length).orElse(-1L);
    } catch (IOException e) {
      throw Errors.storage("check", path, e);
    }
  }
}
