package dev.sluice.api;

import dev.sluice.internal.archive.ArchiveLog;
import dev.sluice.internal.clean.CleanAvro;
import dev.sluice.internal.log.LogRecord;
import dev.sluice.internal.log.MergedLogRecords;
import dev.sluice.internal.read.SnapshotPlanner;
import dev.sluice.internal.schema.TableSchema;
import dev.sluice.internal.archive.ArchivedInstant;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.log.LogDamage;
import dev.sluice.internal.log.LogDump;
import dev.sluice.internal.log.LogReader;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.timeline.avro.RollbackPlan;
import dev.sluice.internal.timeline.avro.RestoreMetadata;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.lsm.LsmInstant;
import dev.sluice.internal.timeline.lsm.LsmTimeline;
import dev.sluice.internal.write.WritePreview;
import dev.sluice.internal.write.WriteSetup;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * A read-only look at a table as it was when {@link Table#inspect()} was called: its timeline (loaded then), its file
 * groups and slices (listed on first use, for that timeline), commit and action metadata, and log blocks. Front ends
 * (the CLI, the health figures) build on it instead of the engine's types. Not thread-safe.
 */
public final class TableInspection {
  private final Table table;
  private final TableConfig config;
  private final TimelineStore store;
  private final Timeline timeline;
  private FileSystemView view;

  TableInspection(Table table, TableConfig config, TimelineStore store, Timeline timeline) {
    this.table = table;
    this.config = config;
    this.store = store;
    this.timeline = timeline;
  }

  /** The table's base path or URI. */
  public String location() {
    return table.location();
  }

  /** The table's type. */
  public TableType tableType() {
    return config.type();
  }

  /** The table's {@code hoodie.properties} as read by {@link Table#inspect()}, in file order (unmodifiable). */
  public Map<String, String> properties() {
    return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(config.properties()));
  }

  /** The record key fields, in order ({@code hoodie.table.recordkey.fields}); empty if none are recorded. */
  public List<String> recordKeyFields() {
    return config.recordKeyFields();
  }

  /** The partition fields, in order ({@code hoodie.table.partition.fields}); empty for a non-partitioned table. */
  public List<String> partitionFields() {
    return config.partitionFields();
  }

  /**
   * The ordering (precombine) field: {@code hoodie.table.precombine.field}, or on version 9 the one field of
   * {@code hoodie.table.ordering.fields}; empty if none.
   */
  public Optional<String> orderingField() {
    return config.precombineField();
  }

  /** How two versions of one key are reconciled, as the table records it. */
  public MergeMode mergeMode() {
    return config.mergeMode();
  }

  /**
   * The key generator the table records: its class ({@code hoodie.table.keygenerator.class}), else its type
   * ({@code hoodie.table.keygenerator.type}, which Hudi 1.x writes instead), else empty.
   */
  public Optional<String> keyGenerator() {
    return config.keyGeneratorClass().filter(c -> !c.isBlank())
        .or(() -> config.get(TableConfig.KEY_GENERATOR_TYPE).filter(c -> !c.isBlank()));
  }

  /** The completed metadata-table partitions the table records ({@code hoodie.table.metadata.partitions}). */
  public List<String> metadataPartitions() {
    return config.metadataPartitions();
  }

  /** The time zone instant times are written in ({@code hoodie.table.timeline.timezone}). */
  public ZoneId timelineZone() {
    return config.timelineTimezone().zoneId();
  }

  /** The options of the table handle this inspection came from. */
  public Config options() {
    return table.options();
  }

  /** The instants of the active timeline, in timeline order. */
  public List<InstantInfo> timeline() {
    return Infos.instants(timeline.instants());
  }

  /**
   * When the completed instant requested at {@code time} completed, as the name of its timeline file says (table
   * versions 8 and 9); empty for pending instants and for version-6 tables, whose timeline does not record it.
   */
  public Optional<String> completionTime(String time) {
    return timeline.completionTime(time);
  }

  /** The table version of the timeline this inspection loaded (6, 8 or 9). */
  public int tableVersion() {
    return timeline.layout().tableVersion();
  }

  /** The instant at {@code time} on the active timeline, if any. */
  public Optional<InstantInfo> find(String time) {
    return timeline.find(time).map(Infos::instant);
  }

  /** Compactions requested or inflight, oldest first. */
  public List<InstantInfo> pendingCompactions() {
    return Infos.instants(timeline.pendingCompactions());
  }

  /** Whether the instant at {@code time} is a compaction (requested, inflight, or completed as a commit). */
  public boolean isCompaction(String time) {
    return timeline.isCompaction(time);
  }

  /** Whether the instant at {@code time} is a log compaction. */
  public boolean isLogCompaction(String time) {
    return timeline.isLogCompaction(time);
  }

  /** The time of the latest completed commit, delta commit or replacecommit, if any. */
  public Optional<String> lastCompletedCommit() {
    return timeline.commitsTimeline().completed().lastInstant().map(Instant::time);
  }

  /** The commit metadata of {@code instant}, if it is a completed commit, delta commit or replacecommit. */
  public Optional<CommitInfo> commitMetadata(InstantInfo instant) {
    return internal(instant).filter(TableInspection::isCommit).flatMap(store::readCommitMetadata).map(Infos::commit);
  }

  /** The commit metadata of every completed commit, delta commit and replacecommit, by instant time, in order. */
  public Map<String, CommitInfo> completedCommits() {
    Map<String, CommitInfo> out = new LinkedHashMap<>();
    for (Instant i : timeline.commitsTimeline().completed().instants()) {
      Optional<CommitMetadata> m = store.readCommitMetadata(i);
      m.ifPresent(x -> out.put(i.time(), Infos.commit(x)));
    }
    return out;
  }

  /** The metadata of a completed rollback instant. */
  public Optional<RollbackInfo> rollbackMetadata(InstantInfo instant) {
    return internal(instant).filter(i -> i.action() == Action.ROLLBACK && i.isCompleted())
        .map(i -> Infos.rollback(RollbackMetadata.fromAvroBytes(store.read(i), store.pathOf(i))));
  }

  /** The time of the instant a pending rollback undoes, from its plan, if the plan is there and not empty. */
  public Optional<String> pendingRollbackTarget(InstantInfo instant) {
    if (!instant.action().equals(Action.ROLLBACK.id()) || instant.isCompleted()) {
      return Optional.empty();
    }
    Instant req = Instant.requested(instant.time(), Action.ROLLBACK);
    return store.readIfExists(req).filter(b -> b.length > 0)
        .map(b -> RollbackPlan.fromAvroBytes(b, store.pathOf(req)).instantToRollback().commitTime());
  }

  /**
   * The metadata of a completed clean instant: what it deleted per partition. Empty for another instant, and for a
   * completed clean whose file is empty (Hudi writes none for a clean that found nothing).
   */
  public Optional<CleanInfo> cleanMetadata(InstantInfo instant) {
    return internal(instant).filter(i -> i.action() == Action.CLEAN && i.isCompleted())
        .flatMap(i -> CleanAvro.decodeMetadata(store.read(i), store.pathOf(i))).map(Infos::clean);
  }

  /** The metadata of a completed restore instant. */
  public Optional<RestoreInfo> restoreMetadata(InstantInfo instant) {
    return internal(instant).filter(i -> i.action() == Action.RESTORE && i.isCompleted())
        .map(i -> Infos.restore(RestoreMetadata.fromAvroBytes(store.read(i), store.pathOf(i))));
  }

  /**
   * The archived timeline, read now: one entry per archived time and action, in its latest archived state (as the
   * active timeline shows instants), in timeline order. Version 6: {@code .hoodie/archived}; versions 8 and 9: the
   * LSM timeline's latest snapshot, each instant completed with its completion time.
   */
  public List<ArchivedInstantInfo> archivedTimeline() {
    if (timeline.layout().archivesToLsmTimeline()) {
      return lsmArchivedTimeline();
    }
    List<ArchivedInstant> all = ArchiveLog.of(table.storage(), table.location()).read();
    Map<String, ArchivedInstant> latest = new HashMap<>();
    List<String> order = new ArrayList<>();
    for (ArchivedInstant a : all) {
      String key = a.instant().time() + "." + a.instant().action().completedAs().id();
      ArchivedInstant prev = latest.get(key);
      if (prev == null) {
        order.add(key);
      }
      if (prev == null || prev.instant().state().compareTo(a.instant().state()) < 0) {
        latest.put(key, a);
      }
    }
    List<ArchivedInstant> out = new ArrayList<>();
    for (String k : order) {
      out.add(latest.get(k));
    }
    out.sort((x, y) -> x.instant().compareTo(y.instant()));
    return out.stream().map(a -> new ArchivedInstantInfo(Infos.instant(a.instant()), a.commitMetadata().map(Infos::commit)))
        .toList();
  }

  private List<ArchivedInstantInfo> lsmArchivedTimeline() {
    LsmTimeline lsm = LsmTimeline.of(table.storage(), table.location(), config);
    List<ArchivedInstantInfo> out = new ArrayList<>();
    for (LsmInstant a : lsm.instantsWithDetails()) {
      Optional<Action> action = Action.fromId(a.action());
      Optional<CommitInfo> commit = Optional.empty();
      if (action.isPresent() && (action.get() == Action.COMMIT || action.get() == Action.DELTACOMMIT
          || action.get() == Action.REPLACECOMMIT) && a.metadata().isPresent()) {
        String where = lsm.folder() + " (archived instant " + a.instantTime() + ")";
        commit = Optional.of(Infos.commit(timeline.layout().commitMetadata(a.metadata().get(), where)));
      }
      out.add(new ArchivedInstantInfo(new InstantInfo(a.instantTime(), a.action(), InstantInfo.State.COMPLETED), commit,
          Optional.of(a.completionTime())));
    }
    return out;
  }

  /** The table's partitions (relative paths; {@code ""} for a non-partitioned table). */
  public List<String> partitions() {
    return view().partitions();
  }

  /** The file groups of {@code partition}, each with all its slices. */
  public List<FileGroupInfo> fileGroups(String partition) {
    return view().fileGroups(partition).stream().map(Infos::group).toList();
  }

  /**
   * The latest slice of each file group of {@code partition} as a snapshot read sees it: a slice whose compaction is
   * pending is merged with the slice before it.
   */
  public List<FileSliceInfo> latestSlices(String partition) {
    return view().latestMergedSlices(partition).stream().map(Infos::slice).toList();
  }

  /** The file groups a pending compaction rewrites, each with that compaction's instant time. */
  public Map<FileGroupKey, String> pendingCompactionOperations() {
    Map<FileGroupKey, String> out = new LinkedHashMap<>();
    for (Map.Entry<FileGroupId, String> e : view().pendingCompactionOperations().entrySet()) {
      out.put(Infos.key(e.getKey()), e.getValue());
    }
    return out;
  }

  /** The full path of the log file called {@code name} in any slice of the table, if it is one. */
  public Optional<String> findLogFile(String name) {
    if (FileNames.parseLog(name).isEmpty()) {
      return Optional.empty();
    }
    for (String partition : view().partitions()) {
      Optional<String> found = view().fileGroups(partition).stream()
          .flatMap(g -> g.slices().stream())
          .flatMap(s -> s.logFiles().stream())
          .filter(l -> l.fileName().equals(name))
          .map(LogFile::path)
          .findFirst();
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /**
   * The blocks of the log file at {@code path}, in file order, without their records; close the iterator. Damaged
   * bytes come back as a block of type {@code CORRUPT_BLOCK} spanning the damage, and the blocks after it follow.
   */
  public CloseableIterator<LogBlockInfo> logBlocks(String path) {
    return LogReader.openLenient(table.storage(), path).map(LogDump::summarize).map(Infos::block);
  }

  /**
   * The corrupt log blocks a snapshot query of the latest slices skips (no rollback accounts for them), found from the
   * block headers of every log file of those slices, in partition and file group order. A block whose framing holds
   * but whose content is damaged is not found this way (a query fails on it; {@link Table#repair} decodes every block).
   */
  public List<CorruptBlockInfo> corruptLogBlocks() {
    List<CorruptBlockInfo> out = new ArrayList<>();
    for (String partition : view().partitions()) {
      for (FileSlice slice : view().latestMergedSlices(partition)) {
        if (!slice.logFiles().isEmpty()) {
          LogDamage.skipped(table.storage(), slice.logFiles(), timeline).stream().map(Infos::corrupt).forEach(out::add);
        }
      }
    }
    return out;
  }

  /**
   * The blocks of the log file at {@code path} with their records, in file order; close the iterator. Read a block's
   * records before moving to the next block.
   */
  public CloseableIterator<LogBlockContent> readLog(String path) {
    return LogReader.open(table.storage(), path).map(LogBlockContent::new);
  }

  /**
   * What an upsert of {@code records} would touch, found the way the write itself starts (validate and combine the
   * records, tag them against the table's index on this inspection's file listing); nothing is written.
   */
  public WritePreviewInfo previewUpsert(Iterator<GenericRecord> records) {
    WriteSetup setup = TableSettings.writeSetup(table.storage(), table.location(), config, table.schema(),
        table.options());
    return Infos.preview(WritePreview.of(setup, WriteOperation.UPSERT, records, view()));
  }

  /**
   * The committed log records of the latest slice of file group {@code id} (merged with the slice before it while
   * its compaction is pending) merged by key, as a snapshot read merges them before it meets the base file: per key
   * the winning record, in the table schema, or its delete. Blocks of instants that did not complete, rolled-back
   * blocks and corrupt blocks are left out, as the read leaves them. Empty when the group has no log files; close the
   * iterator.
   *
   * @throws SluiceException (bad request) if the table has no such file group
   */
  public CloseableIterator<MergedLogRecord> mergedLogRecords(FileGroupKey id) {
    FileSlice slice = view().latestMergedSlices(id.partitionPath()).stream()
        .filter(s -> s.id().fileId().equals(id.fileId())).findFirst()
        .orElseThrow(() -> SluiceException.badRequest("File group " + id.fileId() + " in partition '"
            + id.partitionPath() + "'", "the table at " + location() + " has no such file group",
            "Give a file group id 'sluice files' or 'sluice fsview' lists."));
    if (slice.logFiles().isEmpty()) {
      return CloseableIterator.empty();
    }
    SnapshotPlanner planner = new SnapshotPlanner(table.storage(), table.location(), config,
        TableSchema.resolve(table.storage(), table.location(), timeline, config), timeline,
        TableSettings.read(table.options()));
    MergedLogRecords merged = planner.mergeLogs(slice);
    CloseableIterator<LogRecord> all;
    try {
      all = merged.all();
    } catch (RuntimeException e) {
      merged.close();
      throw e;
    }
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return all.hasNext();
      }

      @Override
      public MergedLogRecord next() {
        LogRecord r = all.next();
        return new MergedLogRecord(r.key(), r.partitionPath(), Optional.ofNullable(r.record()),
            Optional.ofNullable(r.ordering()));
      }

      @Override
      public void close() {
        try {
          all.close();
        } finally {
          merged.close();
        }
      }
    };
  }

  private FileSystemView view() {
    if (view == null) {
      view = FileSystemView.of(table.storage(), table.location(), timeline);
    }
    return view;
  }

  private Optional<Instant> internal(InstantInfo instant) {
    return timeline.instants().stream()
        .filter(i -> i.time().equals(instant.time()) && i.action().id().equals(instant.action())
            && i.state().name().equals(instant.state().name()))
        .findFirst();
  }

  private static boolean isCommit(Instant i) {
    return i.isCompleted() && (i.action() == Action.COMMIT || i.action() == Action.DELTACOMMIT
        || i.action() == Action.REPLACECOMMIT);
  }
}
