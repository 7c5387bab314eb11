package dev.sluice.internal.mdt.write;

import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.log.AppendResult;
import dev.sluice.internal.log.CommandBlock;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.HeaderKey;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogWriter;
import dev.sluice.internal.mdt.FilesRecord;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.MetadataRecords;
import dev.sluice.internal.mdt.RecordIndexFileGroups;
import dev.sluice.internal.table.MetadataTable;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.table.TableLayout;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.TreeSet;
import org.apache.avro.generic.GenericRecord;

/**
 * Keeps the metadata table's {@code files} partition of the table at {@code basePath} in Hudi 0.15's format:
 * {@link #prepare} (before an action: removes the metadata table when it is disabled, drops the partitions Sluice
 * does not keep, bootstraps it when it is missing), {@link #commit} (the mirror deltacommit of a data-table action,
 * at the action's instant, run before the action's instant completes and under the table lock), {@link #rollback}
 * (the mirror of a data-table rollback, including the rollback of the rolled-back instant's own deltacommit as
 * {@code <rollback>006}) and {@link #restore} (a re-sync at the restore's instant). Every change of the metadata
 * table goes through its own timeline ({@code .hoodie/metadata/.hoodie}): requested and inflight files are empty,
 * the completed file holds the commit metadata, so an interrupted change is never trusted by readers.
 *
 * <p>Files: one file group ({@code files-0000-0}); each deltacommit writes a new log file version with one
 * {@code HFILE_DATA_BLOCK} (storage without append has no other choice, and Sluice writes every log file whole).
 */
public final class MetadataTableWriter {
  /** The file group of the {@code files} partition. */
  static final String FILE_ID = MetadataPartition.FILES.fileId(0);
  /** The write token of every metadata file (Hudi's Java client uses this one). */
  static final String WRITE_TOKEN = "0-0-0";
  /** Instant of the bootstrap of a table with no completed instant ({@code SOLO_COMMIT_TIMESTAMP}). */
  static final String SOLO_COMMIT = "00000000000000";
  /** Suffix of the instant that initializes the {@code files} partition. */
  static final String INIT_SUFFIX = "010";
  /** Suffix of a metadata rollback's instant. */
  static final String ROLLBACK_SUFFIX = "006";

  private final Storage storage;
  private final String basePath;
  private final String mdtBase;
  private final String filesDir;
  private final TimelineStore mdt;
  private final TimelineStore data;

  private MetadataTableWriter(Storage storage, String basePath) {
    this.storage = storage;
    this.basePath = basePath;
    this.mdtBase = TableLayout.metadataTableFolder(basePath);
    this.filesDir = StoragePaths.join(mdtBase, MetadataPartition.FILES.path());
    // the metadata table's layout is read from its own hoodie.properties once it exists (its version is the data
    // table's); the data table's decides how its instants are timed
    this.mdt = new TimelineStore(storage, mdtBase, "metadata.timeline");
    this.data = new TimelineStore(storage, basePath);
  }

  /** How this table's metadata instants are timed (reads the data table's layout when first asked). */
  MetadataTableForm times() {
    return MetadataTableForm.of(data.layout());
  }

  /** The writer of the metadata table of the table at {@code basePath}; does no I/O. */
  public static MetadataTableWriter of(Storage storage, String basePath) {
    return new MetadataTableWriter(storage, basePath);
  }

  /**
   * Prepares the metadata table for an action on the table as {@code settings} want it ({@link #prepare}), taking the
   * table lock only when there is something to do. Not for a caller that holds the lock already.
   */
  public static void prepare(Storage storage, String basePath, CommitSettings settings) {
    // the record index is dropped when the settings turn it off; it is built only by a write (which reads keys)
    prepare(storage, basePath, settings, Optional.empty(), RecordIndexSetup.of(settings, Optional.empty()));
  }

  /**
   * As {@link #prepare(Storage, String, CommitSettings)}, then, with {@code compaction} given, the metadata table's
   * compaction if it is due ({@link #compactIfDue}), as Hudi runs its metadata table services before a write.
   */
  public static void prepare(Storage storage, String basePath, CommitSettings settings,
      Optional<CompactionRecorder> compaction) {
    prepare(storage, basePath, settings, compaction, RecordIndexSetup.keep(settings));
  }

  /**
   * As {@link #prepare(Storage, String, CommitSettings, Optional)}, with the record index as {@code recordIndex} wants
   * it: dropped, built when missing, or left as it is.
   */
  public static void prepare(Storage storage, String basePath, CommitSettings settings,
      Optional<CompactionRecorder> compaction, RecordIndexSetup recordIndex) {
    if (!settings.metadataEnabled()) {
      // as before the metadata table was kept: removed without the lock, config first
      MetadataTable.removeIfPresent(storage, basePath);
      return;
    }
    MetadataTableWriter writer = of(storage, basePath);
    int max = settings.metadataCompactMaxDeltaCommits();
    // a compaction left pending by a crash is rolled back before this write's deltacommit, or that deltacommit's logs
    // would go to the unfinished compaction's slice (and the compaction could never be rolled back)
    if (writer.needsPrepare(true, recordIndex) || compaction.isPresent() && (writer.compactionDue(max).isPresent()
        || writer.compactionPending())) {
      InstantLifecycle.of(storage, basePath, settings).locked("prepare the metadata table", () -> {
        if (writer.prepare(true, recordIndex) && compaction.isPresent()) {
          writer.compactIfDue(max, compaction.get(), recordIndex);
        }
        return null;
      });
    }
  }

  /** True if the metadata table has a compaction that did not complete. */
  boolean compactionPending() {
    return !mdt.load().filter(i -> i.action() == Action.COMPACTION && !i.isCompleted()).isEmpty();
  }

  /** The instant of the metadata compaction due now, if one is ({@link FilesCompaction#due}). */
  Optional<String> compactionDue(int maxDeltaCommits) {
    return compactionDue(mdt.load(), maxDeltaCommits);
  }

  /**
   * The instant of the metadata compaction due with the metadata timeline {@code tl}, if one is; also the instant of
   * a pending compaction (a crashed attempt {@link #compactIfDue} rolls back first).
   */
  public Optional<String> compactionDue(Timeline tl, int maxDeltaCommits) {
    Optional<Instant> pending = tl.filter(i -> i.action() == Action.COMPACTION && !i.isCompleted()).firstInstant();
    if (pending.isPresent()) {
      return pending.map(Instant::time);
    }
    if (tl.lastCompleted().isEmpty()) {
      return Optional.empty();
    }
    return new FilesCompaction(storage, filesDir, mdt, times()).due(tl, () -> new TimelineStore(storage, basePath).load(),
        maxDeltaCommits);
  }

  /**
   * Compacts the {@code files} partition if due: an unfinished earlier compaction is rolled back first. Run under the
   * table lock, before an action. Returns the compaction's instant.
   */
  public Optional<String> compactIfDue(int maxDeltaCommits, CompactionRecorder recorder, RecordIndexSetup setup) {
    FilesCompaction compaction = new FilesCompaction(storage, filesDir, mdt, times());
    if (!isAvailable() || !compaction.rollbackPending(mdt.load())) {
      return Optional.empty();
    }
    Optional<String> due = compactionDue(maxDeltaCommits);
    boolean recordIndex = hasRecordIndex();
    due.ifPresent(time -> compaction.run(time, recorder, recordIndex, setup.budget(), setup.spillDirectory()));
    return due;
  }

  /**
   * True if {@link #prepare} would change something: cheap enough (the table config, one listing of the metadata
   * timeline when it is listed) to run before deciding to take the lock.
   */
  public boolean needsPrepare(boolean enabled) {
    // the record index is left as it is: a caller that does not know the writer's setting neither builds nor drops it
    return needsPrepare(enabled, RecordIndexSetup.unchanged());
  }

  /** As {@link #needsPrepare(boolean)}, with the record index as {@code recordIndex} wants it. */
  public boolean needsPrepare(boolean enabled, RecordIndexSetup recordIndex) {
    if (!enabled) {
      return MetadataTable.isPresent(storage, basePath, TableConfigStore.read(storage, basePath));
    }
    return preparedTimeline(recordIndex).isEmpty();
  }

  /**
   * The metadata table's timeline when the table is enabled and {@link #prepare(boolean, RecordIndexSetup)} would
   * change nothing (listed with the partitions {@code recordIndex} wants, none inflight, an instant completed);
   * empty when it would. One listing of the metadata timeline, which the caller can go on using.
   */
  public Optional<Timeline> preparedTimeline(RecordIndexSetup recordIndex) {
    TableConfig config = TableConfigStore.read(storage, basePath);
    boolean listed = config.metadataPartitions().contains(RecordIndexPartition.PATH);
    boolean riWanted = !recordIndex.drop() && (recordIndex.build() || listed);
    List<String> expected = riWanted ? List.of(MetadataPartition.FILES.path(), RecordIndexPartition.PATH)
        : List.of(MetadataPartition.FILES.path());
    if (!config.metadataPartitions().equals(expected) || !config.metadataPartitionsInflight().isEmpty()) {
      return Optional.empty();
    }
    return completedTimeline();
  }

  /**
   * Brings the metadata table to what the next action can mirror into; run under the table lock. Disabled: removes it
   * (config first, then the folder). Enabled: drops the partitions Sluice does not keep; removes a metadata table
   * that is listed but has no completed instant; bootstraps a missing one unless the data table has a pending
   * instant (then, as Hudi, the action goes on without one). Returns whether the {@code files} partition is
   * available afterwards.
   */
  public boolean prepare(boolean enabled) {
    return prepare(enabled, RecordIndexSetup.unchanged());
  }

  /**
   * As {@link #prepare(boolean)}, then the record index as {@code recordIndex} wants it: dropped (config first, then
   * its folder), or, when missing and the data table has no pending instant, built from the latest file slices at
   * {@code <latest completed instant>011} (or the next free suffix; {@link RecordIndexPartition#bootstrap}).
   */
  public boolean prepare(boolean enabled, RecordIndexSetup recordIndex) {
    if (!enabled) {
      MetadataTable.removeIfPresent(storage, basePath);
      return false;
    }
    boolean keepRecordIndex = !recordIndex.drop();
    // a record index that is there is kept, global or Hudi 1.1's partitioned one (RecordIndexPartition.appendPartitioned)
    TableConfig config = TableConfigStore.read(storage, basePath);
    config = dropUnmaintained(config, keepRecordIndex);
    Timeline dt = null;
    if (!config.metadataPartitions().contains(MetadataPartition.FILES.path()) || !hasCompletedInstant()) {
      // listed but not usable, or a leftover of an interrupted bootstrap: it goes before anything is rebuilt
      MetadataTable.removeIfPresent(storage, basePath);
      dt = new TimelineStore(storage, basePath).load();
      if (hasPending(dt)) {
        return false;
      }
      new Bootstrap(storage, basePath, mdt, times()).run(dt);
      config = TableConfigStore.read(storage, basePath);
    }
    if (keepRecordIndex && recordIndex.build()
        && !config.metadataPartitions().contains(RecordIndexPartition.PATH)) {
      dt = dt == null ? new TimelineStore(storage, basePath).load() : dt;
      if (!hasPending(dt)) {
        bootstrapRecordIndex(dt, recordIndex);
      }
    }
    return true;
  }

  private static boolean hasPending(Timeline dt) {
    return dt.instants().stream().anyMatch(i -> !i.isCompleted() && i.action() != Action.INDEXING);
  }

  /**
   * Builds the record index of the data table whose timeline is {@code dt}: an interrupted earlier attempt's pending
   * instant goes first; the partition is listed in the data table's config only once its deltacommit completed.
   */
  private void bootstrapRecordIndex(Timeline dt, RecordIndexSetup setup) {
    Timeline tl = mdt.load();
    MetadataTableForm times = times();
    for (Instant pending : tl.filter(i -> !i.isCompleted() && i.action() == Action.DELTACOMMIT
        && times.isInit(i.time())).instants()) {
      mdt.deleteInstantFiles(Instant.requested(pending.time(), Action.DELTACOMMIT));
    }
    tl = mdt.load();
    String init = times.init(dt, 0);
    for (int offset = 1; tl.contains(init); offset++) {
      init = times.init(dt, offset);
    }
    new RecordIndexPartition(storage, mdt).bootstrap(basePath, dt, init, setup.sizing(), setup.keys().orElseThrow(),
        setup.budget(), setup.spillDirectory());
    KillPoints.reach("metadata.ri.bootstrap.list");
    TableConfigStore.update(storage, basePath, c -> c.with(TableConfig.METADATA_PARTITIONS,
        String.join(",", new TreeSet<>(List.of(MetadataPartition.FILES.path(), RecordIndexPartition.PATH))))
        .with(TableConfig.METADATA_PARTITIONS_INFLIGHT, ""));
  }

  /** True if the data table lists the {@code record_index} partition. */
  public boolean hasRecordIndex() {
    return TableConfigStore.read(storage, basePath).metadataPartitions().contains(RecordIndexPartition.PATH);
  }

  /** True if the data table lists the {@code files} partition (readers then trust the metadata table). */
  public boolean isAvailable() {
    return TableConfigStore.read(storage, basePath).metadataPartitions().contains(MetadataPartition.FILES.path());
  }

  private boolean hasCompletedInstant() {
    return completedTimeline().isPresent();
  }

  /** The metadata table's timeline if it has a table config and a completed instant (one listing of its timeline). */
  private Optional<Timeline> completedTimeline() {
    try {
      if (storage.info(TableLayout.propertiesFile(mdtBase)).isEmpty()) {
        return Optional.empty();
      }
    } catch (IOException e) {
      throw Errors.storage("check for", TableLayout.propertiesFile(mdtBase), e);
    }
    Timeline tl = mdt.load();
    return tl.lastCompleted().isPresent() ? Optional.of(tl) : Optional.empty();
  }

  /**
   * Removes the partitions other than {@code files} (and {@code record_index} when {@code keepRecordIndex} and
   * {@code files} is listed) from {@code hoodie.table.metadata.partitions} and
   * {@code ...inflight} (the config first, so no reader finds a listed partition missing), then their folders, as a
   * Hudi writer with those indexes disabled does. Returns the config as it is now.
   */
  private TableConfig dropUnmaintained(TableConfig config, boolean keepRecordIndex) {
    Set<String> drop = new TreeSet<>(config.metadataPartitions());
    drop.addAll(config.metadataPartitionsInflight());
    drop.remove(MetadataPartition.FILES.path());
    Set<String> keep = new TreeSet<>();
    if (config.metadataPartitions().contains(MetadataPartition.FILES.path())) {
      keep.add(MetadataPartition.FILES.path());
      if (keepRecordIndex && config.metadataPartitions().contains(RecordIndexPartition.PATH)) {
        keep.add(RecordIndexPartition.PATH);
        drop.remove(RecordIndexPartition.PATH);
      }
    }
    if (drop.isEmpty() && config.metadataPartitionsInflight().isEmpty()) {
      return config;
    }
    String kept = String.join(",", keep);
    config = TableConfigStore.update(storage, basePath, c -> c.with(TableConfig.METADATA_PARTITIONS, kept)
        .with(TableConfig.METADATA_PARTITIONS_INFLIGHT, ""));
    for (String p : drop) {
      if (p.isEmpty() || p.contains("/") || p.startsWith(".")) {
        continue;
      }
      String dir = StoragePaths.join(mdtBase, p);
      try {
        storage.deleteRecursively(dir);
      } catch (IOException e) {
        throw Errors.storage("delete the metadata table partition", dir, e);
      }
    }
    return config;
  }

  /**
   * The mirror of a data-table action at {@code instant}: a metadata deltacommit at the same instant with
   * {@code change}'s records, completed before it returns. Run before the action's own instant completes, under the
   * table lock. Without an available metadata table a leftover folder is removed (never left stale) and nothing else
   * happens; a deltacommit already completed at this instant (a retried publish) is kept as it is.
   */
  public void commit(String instant, FilesChange change) {
    commit(instant, change, RecordIndexChanges.none());
  }

  /**
   * As {@link #commit(String, FilesChange)}, with the record index's {@code changes} of the action (new locations
   * and deletes of keys) appended to the shards they touch when the table has a record index.
   */
  public void commit(String instant, FilesChange change, RecordIndexChanges changes) {
    Optional<Timeline> usable = usableTimeline();
    if (usable.isEmpty()) {
      return;
    }
    // one listing of the metadata timeline under the lock serves the checks and the slice the new log file joins
    Timeline tl = usable.get();
    if (tl.isCompleted(instant)) {
      return;
    }
    discardPending(tl, instant);
    deltacommit(instant, change, WriteOperationType.UPSERT_PREPPED, changes, Optional.of(tl));
  }

  /**
   * True if the metadata table is listed and has partitions Sluice keeps only; a listed table that is damaged
   * (nothing completed) or an unlisted leftover folder is removed instead, so that it is never stale.
   */
  private boolean usable() {
    return usableTimeline().isPresent();
  }

  /** As {@link #usable()}, with the metadata timeline it listed when the table is usable. */
  private Optional<Timeline> usableTimeline() {
    TableConfig config = dropUnmaintained(TableConfigStore.read(storage, basePath), true);
    if (config.metadataPartitions().contains(MetadataPartition.FILES.path())) {
      Optional<Timeline> tl = completedTimeline();
      if (tl.isPresent()) {
        return tl;
      }
    }
    MetadataTable.removeIfPresent(storage, basePath);
    return Optional.empty();
  }

  /** Deletes the timeline files of a deltacommit at {@code instant} that an interrupted attempt left pending. */
  private void discardPending(Timeline tl, String instant) {
    if (tl.contains(instant)) {
      // its blocks were never trusted (not completed); the retry writes them again in a newer log file
      mdt.deleteInstantFiles(Instant.requested(instant, Action.DELTACOMMIT));
    }
  }

  /** Writes a deltacommit at {@code instant}: requested, inflight, one log file with the records, completed. */
  private void deltacommit(String instant, FilesChange change, WriteOperationType operation) {
    deltacommit(instant, change, operation, RecordIndexChanges.none(), Optional.empty());
  }

  /**
   * As {@link #deltacommit(String, FilesChange, WriteOperationType)} with the record index's {@code changes}.
   * {@code loaded}: the metadata timeline as listed under the lock before this deltacommit was requested, if the
   * caller has it (the slices new log files join depend only on completed compactions and pending ones, which the
   * request does not change); listed here otherwise.
   */
  private void deltacommit(String instant, FilesChange change, WriteOperationType operation,
      RecordIndexChanges changes, Optional<Timeline> loaded) {
    Instant requested = Instant.requested(instant, Action.DELTACOMMIT);
    mdt.createRequested(requested, new byte[0]);
    Instant inflight = mdt.transitionToInflight(requested, new byte[0]);
    List<FilesRecord> records = withSizes(change).records();
    Map<String, List<WriteStat>> stats = new LinkedHashMap<>();
    if (!records.isEmpty()) {
      FilesPartitionState slice = FilesPartitionState.load(storage, filesDir, loaded.orElseGet(mdt::load));
      List<GenericRecord> avro = new ArrayList<>();
      records.forEach(r -> avro.add(MetadataRecords.toAvro(r)));
      DataBlock block = DataBlock.hfile(Map.of(HeaderKey.INSTANT_TIME, instant), MetadataRecords.storedSchema(), avro,
          MetadataRecords.KEY);
      KillPoints.reach("metadata.log.before");
      AppendResult res = append(slice.baseInstant(), instant, block);
      List<String> logs = times().statLogFiles(slice.logFileNames(), res.file().fileName());
      stats.put(MetadataPartition.FILES.path(), List.of(WriteStat.builder().fileId(FILE_ID)
          .path(MetadataPartition.FILES.path() + "/" + res.file().fileName())
          .prevCommit(mdt.layout().logFileInstant(slice.baseInstant(), instant))
          .partitionPath(MetadataPartition.FILES.path()).numWrites(records.size()).numUpdateWrites(records.size())
          .totalWriteBytes(res.size()).fileSizeInBytes(res.file().size()).totalLogRecords(records.size())
          .totalLogBlocks(1).delta(true).logVersion(res.version()).logOffset(res.offset())
          .baseFile(slice.baseFileName()).logFiles(logs).build()));
    }
    if (changes.size() > 0 && hasRecordIndex()) {
      RecordIndexPartition ri = new RecordIndexPartition(storage, mdt);
      SortedMap<String, FilesPartitionState> shards = ri.shards(loaded.orElseGet(mdt::load));
      if (shards.isEmpty()) {
        throw Errors.badTable(ri.dir(), "the record index is listed but has no file group",
            "Drop the record index (hoodie.metadata.record.index.enable=false for one write); the next write with it"
                + " on rebuilds it.");
      }
      if (RecordIndexFileGroups.isPartitioned(shards.firstKey())) {
        stats.put(RecordIndexPartition.PATH, ri.appendPartitioned(instant, changes, shards));
      } else if (shards.size() == changes.shards()) {
        stats.put(RecordIndexPartition.PATH, ri.append(instant, changes, shards));
      } else {
        try (RecordIndexChanges resharded = changes.resharded(shards.size())) {
          stats.put(RecordIndexPartition.PATH, ri.append(instant, resharded, shards));
        }
      }
    }
    CommitMetadata md = new CommitMetadata(stats, false, Map.of(CommitMetadata.SCHEMA_KEY,
        MetadataRecords.schema().toString()), operation);
    KillPoints.reach("metadata.deltacommit.before");
    byte[] content = mdt.layout().encode(md);
    if (loaded.isPresent()) {
      // listed under the lock, with this deltacommit's own files since: its latest time is the folder's
      mdt.complete(inflight, content, loaded.get().plus(inflight));
    } else {
      mdt.complete(inflight, content);
    }
    KillPoints.reach("metadata.deltacommit.after");
  }

  /**
   * Writes {@code block} into a new log file of the slice with base instant {@code baseInstant} for the metadata
   * instant {@code instant}: the slice's next log version (version 6) or a log file of the instant's own (1.x).
   */
  private AppendResult append(String baseInstant, String instant, LogBlock block) {
    if (baseInstant.isEmpty()) {
      throw Errors.badTable(filesDir, "the metadata table's files partition has no file group",
          "Delete the metadata table (sluice metadata delete); the next write rebuilds it.");
    }
    try (LogWriter writer = LogWriter.builder(storage, filesDir, FILE_ID,
        mdt.layout().logFileInstant(baseInstant, instant)).ownFileEachSession().writeToken(WRITE_TOKEN).open()) {
      return writer.appendBlocks(List.of(block));
    }
  }

  /**
   * {@code change} with the size of each added file that has none (0) taken from storage; a file that is gone is
   * left out. Hudi's readers refuse a live entry of size 0.
   */
  private FilesChange withSizes(FilesChange change) {
    boolean fine = change.added().values().stream().allMatch(m -> m.values().stream().allMatch(s -> s > 0));
    if (fine) {
      return change;
    }
    Map<String, Map<String, Long>> added = new TreeMap<>();
    change.added().forEach((p, files) -> {
      Map<String, Long> sized = new TreeMap<>();
      files.forEach((name, size) -> {
        long s = size > 0 ? size : sizeOnStorage(StoragePaths.join(StoragePaths.join(basePath, p), name));
        if (s > 0) {
          sized.put(name, s);
        }
      });
      added.put(p, sized);
    });
    return new FilesChange(added, change.deleted(), change.listedPartitions(), change.deletedPartitions());
  }

  private long sizeOnStorage(String path) {
    try {
      return storage.info(path).map(FileInfo::length).orElse(0L);
    } catch (IOException e) {
      throw Errors.storage("check the size of", path, e);
    }
  }

  /**
   * The mirror of the data-table rollback at {@code rollbackTime} of {@code target}: a deltacommit at
   * {@code rollbackTime} with {@code change} (the log files the rollback wrote or kept), then the target's own
   * deltacommit, if the metadata table has one (completed or pending), rolled back at {@code <rollbackTime>006}.
   * When the target's files are in a base file (it is older than the metadata table's initialization, or at or
   * before its latest compaction) the files the rollback deleted become tombstones instead ({@code deletedFiles}).
   */
  public void rollback(String rollbackTime, String target, FilesChange change, Map<String, List<String>> deletedFiles,
      RollbackRecorder recorder) {
    if (!usable()) {
      return;
    }
    Timeline tl = mdt.load();
    Optional<Instant> targetCommit = tl.filter(i -> i.action() == Action.DELTACOMMIT && i.time().equals(target))
        .lastInstant();
    Optional<String> init = tl.filter(i -> i.action() == Action.DELTACOMMIT && i.isCompleted()).firstInstant()
        .map(Instant::time);
    Optional<String> compacted = tl.filter(i -> i.action() == Action.COMMIT && i.isCompleted()).lastInstant()
        .map(Instant::time);
    // the target's files are in a base file (the bootstrap's, or a compaction's that folded its deltacommit in): a
    // rollback block cannot take them out again, tombstones do (Hudi refuses this case and asks for a restore)
    MetadataTableForm times = times();
    boolean inBaseFile = init.map(i -> times.baseHolds(i, target, tl)).orElse(false)
        || compacted.map(c -> times.baseHolds(c, target, tl)).orElse(false);
    if (inBaseFile) {
      targetCommit = Optional.empty();
    }
    if (hasRecordIndex() && new RecordIndexPartition(storage, mdt).shards(tl).values().stream()
        .map(FilesPartitionState::baseInstant).filter(b -> !b.isEmpty()).anyMatch(b -> times.baseHolds(b, target, tl))) {
      // the target's record-index entries are in the shards' base files (built or compacted after it): no block can
      // take them out again, nor bring back the keys it deleted; the index is dropped (config first, then its folder)
      // and the next write with it on builds it again from the rolled-back table
      dropUnmaintained(TableConfigStore.read(storage, basePath), false);
    }
    FilesChange mirrored = inBaseFile ? change.withDeleted(deletedFiles) : change;
    if (times.mirrorsRollbackAsDeltacommit()) {
      if (!tl.isCompleted(rollbackTime)) {
        discardPending(tl, rollbackTime);
        deltacommit(rollbackTime, mirrored, WriteOperationType.UPSERT_PREPPED);
      }
    } else if (inBaseFile && !tl.isCompleted(rollbackTime)) {
      // 1.x: the rollback deleted the target's files, which a base file lists; tombstones at a time of the metadata
      // table's own take them out (Hudi refuses this case and asks for a restore)
      deltacommit(times.restoreSync(rollbackTime, tl), mirrored, WriteOperationType.UPSERT_PREPPED);
    }
    if (targetCommit.isPresent()) {
      String time = times.rollback(rollbackTime);
      if (times.mirrorsRollbackAsDeltacommit()) {
        rollbackDeltacommit(targetCommit.get(), time, recorder);
      } else {
        rollbackByDeleting(targetCommit.get(), time, recorder);
      }
    }
  }

  /**
   * Rolls back the metadata deltacommit {@code target} at {@code time} as Hudi's metadata writer does: a rollback
   * plan, a rollback command block appended to the slice (a new log file), the target's timeline files deleted
   * (completed first), the rollback completed with its metadata.
   */
  private void rollbackDeltacommit(Instant target, String time, RollbackRecorder recorder) {
    Timeline tl = mdt.load();
    if (tl.isCompleted(time)) {
      return;
    }
    FilesPartitionState slice = FilesPartitionState.load(storage, filesDir, tl);
    Map<String, Map<String, Long>> targetLogs = new TreeMap<>();
    if (target.isCompleted()) {
      mdt.readCommitMetadata(target).ifPresent(md -> md.allStats().forEach(s -> s.path().ifPresent(p ->
          targetLogs.computeIfAbsent(s.partitionPath() + "/" + s.fileId(), k -> new TreeMap<>())
              .put(StoragePaths.join(mdtBase, p), s.fileSizeInBytes()))));
    }
    List<RollbackRecorder.Target> groups = new ArrayList<>();
    String files = MetadataPartition.FILES.path();
    groups.add(new RollbackRecorder.Target(files, FILE_ID, slice.baseInstant(),
        targetLogs.getOrDefault(files + "/" + FILE_ID, Map.of())));
    // every record-index shard that got a block at the target: its blocks are no longer trusted either (found in the
    // logs, so a pending target or an interrupted earlier attempt is covered as a completed one)
    RecordIndexPartition ri = new RecordIndexPartition(storage, mdt);
    SortedMap<String, FilesPartitionState> shards = ri.shards(tl);
    Map<String, FilesPartitionState> touched = ri.shardsWithBlocksOf(target.time(), shards);
    touched.forEach((id, shard) -> groups.add(new RollbackRecorder.Target(RecordIndexPartition.PATH, id,
        shard.baseInstant(), targetLogs.getOrDefault(RecordIndexPartition.PATH + "/" + id, Map.of()))));
    // an interrupted attempt: its command blocks, if written, target a deltacommit that is going anyway
    Instant inflight = rollbackInflight(tl, time, () -> recorder.plan(target, groups));
    KillPoints.reach("metadata.rollback.inflight");
    if (target.isCompleted()) {
      mdt.delete(target);
    }
    Map<String, Map<String, Long>> rollbackLogs = new TreeMap<>();
    AppendResult res = append(slice.baseInstant(), time, CommandBlock.rollback(time, target.time()));
    rollbackLogs.computeIfAbsent(files, k -> new TreeMap<>()).put(StoragePaths.join(filesDir, res.file().fileName()),
        res.file().size());
    for (FilesPartitionState shard : touched.values()) {
      KillPoints.reach("metadata.ri.rollback.block");
      try (LogWriter writer = LogWriter.builder(storage, ri.dir(), shard.fileId(), shard.baseInstant())
          .ownFileEachSession().writeToken(WRITE_TOKEN).open()) {
        AppendResult r = writer.appendBlocks(List.of(CommandBlock.rollback(time, target.time())));
        rollbackLogs.computeIfAbsent(RecordIndexPartition.PATH, k -> new TreeMap<>())
            .put(StoragePaths.join(ri.dir(), r.file().fileName()), r.file().size());
      }
    }
    mdt.deleteInstantFiles(Instant.requested(target.time(), Action.DELTACOMMIT));
    mdt.complete(inflight, recorder.metadata(time, target, rollbackLogs, groups));
    KillPoints.reach("metadata.rollback.after");
  }

  /**
   * The inflight rollback instant at {@code time}: an interrupted attempt's, resumed as it is, else requested with
   * {@code plan} (unless an earlier attempt already requested it) and moved to inflight.
   */
  private Instant rollbackInflight(Timeline tl, String time, Supplier<byte[]> plan) {
    Optional<Instant> earlier = tl.find(time);
    if (earlier.isPresent() && earlier.get().isInflight()) {
      return earlier.get();
    }
    Instant requested = Instant.requested(time, Action.ROLLBACK);
    if (earlier.isEmpty()) {
      mdt.createRequested(requested, plan.get());
    }
    return mdt.transitionToInflight(requested, new byte[0]);
  }

  /**
   * Rolls back the metadata deltacommit {@code target} at {@code time} as Hudi 1.x's metadata writer does on versions
   * 8/9: a rollback plan naming the target's own log files, the files deleted, the target's timeline files deleted
   * (completed first), the rollback completed with the deleted files.
   */
  private void rollbackByDeleting(Instant target, String time, RollbackRecorder recorder) {
    Timeline tl = mdt.load();
    if (tl.isCompleted(time)) {
      return;
    }
    Map<String, List<String>> files = new TreeMap<>();
    for (String partition : List.of(MetadataPartition.FILES.path(), RecordIndexPartition.PATH)) {
      String dir = StoragePaths.join(mdtBase, partition);
      try {
        if (storage.info(dir).isEmpty()) {
          continue;
        }
        for (FileInfo f : storage.list(dir)) {
          if (dev.sluice.internal.fsview.FileNames.parseLog(f.name())
              .filter(l -> l.baseInstant().equals(target.time())).isPresent()) {
            files.computeIfAbsent(partition, k -> new ArrayList<>()).add(f.path());
          }
        }
      } catch (IOException e) {
        throw Errors.storage("list the metadata table partition", dir, e);
      }
    }
    Instant inflight = rollbackInflight(tl, time, () -> recorder.deletePlan(target, files));
    KillPoints.reach("metadata.rollback.inflight");
    if (target.isCompleted()) {
      mdt.delete(target);
    }
    for (List<String> paths : files.values()) {
      for (String path : paths) {
        try {
          storage.delete(path);
        } catch (IOException e) {
          throw Errors.storage("delete the log file of a rolled-back metadata deltacommit", path, e);
        }
      }
    }
    mdt.deleteInstantFiles(Instant.requested(target.time(), Action.DELTACOMMIT));
    mdt.complete(inflight, recorder.deleteMetadata(time, target, files));
    KillPoints.reach("metadata.rollback.after");
  }

  /**
   * The mirror of a restore at {@code restoreTime}, after its rollbacks: a deltacommit at the restore's instant that
   * makes the {@code files} partition equal a listing of the data table again (added or grown files, tombstones for
   * files the restore deleted, partitions listed or removed), as Hudi's restore re-syncs it from a listing.
   */
  public void restore(String restoreTime) {
    if (!usable()) {
      return;
    }
    // the record index of the restored table is rebuilt, not re-synced: dropped here (config first), built again by
    // the next prepare that wants it (api.Table.restore runs one at once)
    if (hasRecordIndex()) {
      dropUnmaintained(TableConfigStore.read(storage, basePath), false);
    }
    Timeline tl = mdt.load();
    if (tl.isCompleted(restoreTime)) {
      return;
    }
    String syncTime = times().restoreSync(restoreTime, tl);
    discardPending(tl, syncTime);
    tl = mdt.load();
    Map<String, FilesRecord> current = FilesPartitionState.load(storage, filesDir, tl).merged(storage, tl);
    Map<String, Map<String, Long>> truth = DataFiles.list(storage, basePath, t -> true);
    Set<String> listed = new HashSet<>();
    Optional.ofNullable(current.get(FilesRecord.ALL_PARTITIONS)).ifPresent(r -> listed.addAll(r.live()));
    Map<String, Map<String, Long>> added = new TreeMap<>();
    Map<String, List<String>> deleted = new TreeMap<>();
    Set<String> newPartitions = new TreeSet<>();
    Set<String> gonePartitions = new TreeSet<>();
    for (Map.Entry<String, Map<String, Long>> p : truth.entrySet()) {
      String id = FilesRecord.partitionId(p.getKey());
      if (!listed.contains(id)) {
        newPartitions.add(p.getKey());
      }
      FilesRecord known = current.get(id);
      Map<String, Long> adds = new TreeMap<>();
      p.getValue().forEach((name, size) -> {
        Long had = known == null || !known.live().contains(name) ? null : known.entries().get(name).size();
        if (had == null || had < size) {
          adds.put(name, size);
        }
      });
      if (!adds.isEmpty()) {
        added.put(p.getKey(), adds);
      }
    }
    for (FilesRecord r : current.values()) {
      if (r.type() != FilesRecord.FILE_LIST) {
        continue;
      }
      String partition = FilesRecord.partitionPath(r.key());
      Map<String, Long> present = truth.getOrDefault(partition, Map.of());
      List<String> gone = r.live().stream().filter(n -> !present.containsKey(n)).toList();
      if (!gone.isEmpty()) {
        deleted.put(partition, gone);
      }
    }
    for (String id : listed) {
      if (!truth.containsKey(FilesRecord.partitionPath(id))) {
        gonePartitions.add(FilesRecord.partitionPath(id));
      }
    }
    FilesChange change = new FilesChange(added, Map.of(), newPartitions, gonePartitions).withDeleted(deleted);
    deltacommit(syncTime, change, WriteOperationType.UPSERT_PREPPED);
  }

  /**
   * The data table's archival gate ({@code HoodieTimelineArchiver}): with the metadata table available, only
   * instants before its latest compaction may be archived (their deltacommits are in a base file by then; a reader
   * drops the log blocks of instants no longer on the data table's active timeline). Empty when there is no gate;
   * {@code ""} when nothing may be archived (no compaction yet).
   */
  public Optional<String> archiveBefore() {
    if (!isAvailable() || !hasCompletedInstant()) {
      return Optional.empty();
    }
    return Optional.of(mdt.load().filter(i -> i.action() == Action.COMMIT && i.isCompleted()).lastInstant()
        .map(Instant::time).orElse(""));
  }

  /** The empty delete block every file group's first log file holds (Hudi's {@code initializeFileGroups}). */
  static DeleteBlock emptyDeleteBlock(String instant) {
    return DeleteBlock.of(instant, List.of());
  }
}
