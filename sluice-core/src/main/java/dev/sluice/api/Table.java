package dev.sluice.api;

import dev.sluice.internal.service.TableServices;
import dev.sluice.internal.compact.Compaction;
import dev.sluice.internal.service.Compactor;
import dev.sluice.internal.archive.ArchiveResult;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.read.ScanPlan;
import dev.sluice.internal.read.ScanPlanner;
import dev.sluice.internal.read.SnapshotPlanner;
import dev.sluice.internal.schema.Peeked;
import dev.sluice.internal.schema.SchemaEvolution;
import dev.sluice.storage.Storage;
import dev.sluice.internal.mdt.write.MetadataTableWriter;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.table.MetadataTable;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.schema.TableSchema;
import dev.sluice.internal.timeline.TableService;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.service.TableActions;
import dev.sluice.internal.upgrade.TableUpgrade;
import dev.sluice.internal.write.TableWriter;
import dev.sluice.internal.write.WriteSetup;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * A Hudi table: its configuration, timeline and schema, writes and scans. Obtain one from {@link Tables}.
 * A {@code Table} is cheap; every operation reloads what it needs from storage, so several processes may
 * work on one table. Close it when {@code sluice.compact.async} is on: that stops its background compactor
 * (otherwise closing does nothing).
 */
public final class Table implements AutoCloseable {
  /** Table property holding the schema given at creation (Hudi's {@code hoodie.table.create.schema}). */
  public static final String CREATE_SCHEMA = TableConfig.CREATE_SCHEMA;

  private final Storage storage;
  private final String location;
  private final Config config;
  /** {@link #config} for changes: without the metadata table where Sluice does not keep it (versions 8/9). */
  private final Config changes;
  private final TimelineLayout layout;
  private final Object compactorLock = new Object();
  private Compactor compactor;
  private boolean closed;

  Table(Storage storage, String location, Config config, TimelineLayout layout) {
    this.storage = storage;
    this.location = location;
    this.config = config;
    this.changes = TableSettings.forChanges(config, layout);
    this.layout = layout;
  }

  /** The table version of {@code hoodie.properties} as it was when this handle was opened (6, 8 or 9). */
  public int tableVersion() {
    return layout.tableVersion();
  }

  /** The table's base path or URI. */
  public String location() {
    return location;
  }

  /** The storage the table lives on. */
  public Storage storage() {
    return storage;
  }

  /** The write and read options this handle was opened with. */
  public Config options() {
    return config;
  }

  /** The table's type, from its {@code hoodie.properties} read now. */
  public TableType type() {
    return config().type();
  }

  /**
   * A read-only look at the table as it is now: its timeline (loaded now), file groups and slices, commit and action
   * metadata, log blocks.
   */
  public TableInspection inspect() {
    TimelineStore store = new TimelineStore(storage, location, layout);
    return new TableInspection(this, config(), store, store.load());
  }

  /** The table's {@code hoodie.properties}, read now (engine tests). */
  /** The options a change of the table runs with (the metadata table off where Sluice does not keep it). */
  Config changes() {
    return changes;
  }

  /** The table version's layout. */
  TimelineLayout layout() {
    return layout;
  }

  TableConfig config() {
    return TableConfigStore.read(storage, location);
  }

  /** The active timeline, loaded now (engine tests). */
  Timeline timeline() {
    return new TimelineStore(storage, location, layout).load();
  }

  /**
   * The file-system view of the latest timeline as reads see it: listed through the metadata table when it is
   * enabled and valid, else from storage (lookups, engine tests).
   */
  FileSystemView fileSystemView() {
    return MetadataTables.view(storage, location, timeline(), config(), TableSettings.read(config).metadataTable());
  }

  /**
   * The table's metadata table ({@code .hoodie/metadata}) as it is now: whether reads list through it and why,
   * its partitions and files, and a check of them against a listing of storage.
   */
  public MetadataTableView metadataTable() {
    return new MetadataTableView(this, config(), timeline(), TableSettings.read(config).metadataTable());
  }


  /**
   * Builds the metadata table if the table has none ({@code sluice metadata init}): its {@code files} partition from
   * a listing, at the latest completed instant, under the table lock; with {@code recordIndex} also asks for the
   * record-level index ({@code hoodie.metadata.record.index.enable=true}). Refuses while a write or table service
   * is pending (as Hudi, which then goes on without one). Later writes keep it ({@code hoodie.metadata.enable} is on
   * by default); the record index stays for writers that leave {@code hoodie.metadata.record.index.enable} unset.
   * Returns the metadata table as it is afterwards.
   */
  public MetadataTableView initMetadataTable(boolean recordIndex) {
    Config on = config.with(ConfigKeys.METADATA_ENABLE.name(), "true");
    if (recordIndex) {
      on = on.with(ConfigKeys.RECORD_INDEX_ENABLE.name(), "true");
    }
    MetadataTableWriter.prepare(storage, location, TableSettings.commit(on), Optional.empty(),
        TableSettings.recordIndex(storage, location, on));
    MetadataTableView view = new MetadataTableView(this, config(), timeline(), true);
    if (!view.partitionsEnabled().contains("files")) {
      throw Errors.conflict("Initializing the metadata table of " + location, "the table has a pending instant "
          + "(a write or table service in progress or failed); it is built only over completed instants");
    }
    return view;
  }

  /**
   * Removes the metadata table ({@code sluice metadata delete}) under the table lock, as a Hudi writer with
   * {@code hoodie.metadata.enable=false} does: {@code hoodie.table.metadata.partitions} cleared first, then
   * {@code .hoodie/metadata}. Reads then list storage; a later action of a handle with {@code hoodie.metadata.enable}
   * on (the default) builds it again, as Hudi's writers do. Returns whether there was anything to remove.
   */
  public boolean deleteMetadataTable() {
    return InstantLifecycle.of(storage, location, TableSettings.commit(changes))
        .locked("delete the metadata table", () -> MetadataTable.removeIfPresent(storage, location));
  }

  /**
   * The table schema without meta fields: the schema of the latest completed commit that recorded one, else
   * the schema given at creation.
   */
  public Schema schema() {
    return schema(timeline(), config());
  }

  private Schema schema(Timeline timeline, TableConfig tc) {
    return TableSchema.resolve(storage, location, timeline, tc);
  }

  /**
   * The schema of key-only delete rows: the record key and partition fields of the table schema.
   */
  public Schema keySchema() {
    TableConfig tc = config();
    Schema s = schema();
    List<Schema.Field> fields = new ArrayList<>();
    List<String> names = new ArrayList<>(tc.recordKeyFields());
    for (String p : tc.partitionFields()) {
      if (!names.contains(p)) {
        names.add(p);
      }
    }
    for (String n : names) {
      Schema.Field f = s.getField(n.split("\\.")[0]);
      if (f != null && fields.stream().noneMatch(x -> x.name().equals(f.name()))) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    return Schema.createRecord(s.getName(), s.getDoc(), s.getNamespace(), false, fields);
  }

  /**
   * Runs a write operation over {@code records} (built with {@link #schema()}) and commits it; then cleans and
   * archives if {@code hoodie.clean.automatic} / {@code hoodie.archive.automatic} (both on by default). An input
   * without records commits nothing: the result's {@link CommitResult#committed()} is false and the table is
   * untouched. The result's {@link CommitResult#outcome()} says what was not applied and why (versions older than
   * the stored one, duplicates combined, deletes of keys not found). A delete none of whose rows has a partition path
   * value, on a partitioned table with a non-global index, is refused as bad input when it could find nothing.
   */
  public CommitResult write(WriteOperation op, Iterator<GenericRecord> records) {
    return write(op, records, ProgressListener.NONE);
  }

  /**
   * Runs a write as {@link #write(WriteOperation, Iterator)}, reporting to {@code progress} how far its long steps have
   * got: reading the input ({@link Progress.Step#READ_INPUT}), tagging ({@link Progress.Step#TAG}, not for a bulk
   * insert) and writing the planned file groups ({@link Progress.Step#WRITE_FILE_GROUPS}). The services that follow
   * the commit (clean, compaction) run without reports.
   */
  public CommitResult write(WriteOperation op, Iterator<GenericRecord> records, ProgressListener progress) {
    Objects.requireNonNull(progress, "progress");
    TableConfig tc = requireOpenedVersion("Writing to");
    TableServices services = TableSettings.services(changes);
    // bad write options fail before anything is written, the metadata table's bootstrap included
    TableSettings.checkWriteOptions(changes);
    // one listing of .hoodie/ for the whole write: the schema, the write and the post-commit services share it
    Timeline loaded = timeline();
    Schema tableSchema = schema(loaded, tc);
    // the first record's schema is the writer schema: a compatible evolution becomes the table schema
    Peeked peeked = Peeked.of(records);
    Iterator<GenericRecord> input = peeked;
    Schema writerSchema = tableSchema;
    if (op != WriteOperation.DELETE && peeked.first().isPresent() && !peeked.first().get().getSchema().equals(tableSchema)) {
      Schema declared = peeked.first().get().getSchema();
      writerSchema = SchemaEvolution.check(tableSchema, declared, tc);
      if (writerSchema != declared) {
        // the table kept some columns nullable that the records declare required: the records take its types
        input = peeked.retyped(declared, writerSchema);
      }
    }
    WriteSetup setup = TableSettings.writeSetup(storage, location, tc, writerSchema, changes);
    // versions 8/9: only the services Sluice runs there follow the write (clean, compaction and archival)
    Optional<Compactor> async = layout.runs(TableService.COMPACTION) && services.compaction().async()
        && tc.type() == TableType.MERGE_ON_READ ? Optional.of(startCompactor()) : Optional.empty();
    // once the input is read and checked, and before the instant: the metadata table made ready for this write's
    // mirror commit (bootstrapped if missing), or removed when off (as always on versions 8/9, whose metadata table
    // Sluice does not keep: Hudi 1.x's readers must not see a stale one)
    TableWriter.Committed committed = new TableWriter(setup).withProgress(progress).write(op, input, loaded, s -> {
      services.prepareMetadataTable(storage, location, TableSettings.recordIndex(storage, location, changes));
      return s.withTableConfig(config());
    });
    if (!committed.result().committed()) {
      // an input without records commits nothing, so there is nothing for the table services to follow
      return committed.result();
    }
    services.afterCommit(storage, location, tc.type(), committed.result().instantTime(),
        Optional.of(committed.timeline()), async, layout);
    syncCatalogs(committed.result().instantTime());
    return committed.result();
  }

  /**
   * Runs the enabled {@link CatalogSync}s after a commit. The commit is durable already: a sync that fails is
   * logged as a warning (naming the commit and the catalog) and does not fail the write; the next commit's sync,
   * or an explicit one ({@code sluice sync}), catches the catalog up from its last synced commit. Also run by
   * {@link DistributedWrite#publish} on the driver, so a distributed commit syncs as a local one does.
   */
  void syncCatalogs(String instantTime) {
    for (CatalogSync sync : CatalogSync.installed()) {
      if (!sync.enabled(changes)) {
        continue;
      }
      try {
        sync.sync(this, changes);
      } catch (RuntimeException e) {
        // any failure, not only the sync's SluiceExceptions: the commit is durable and must be reported as done
        System.getLogger(Table.class.getName()).log(System.Logger.Level.WARNING, "Commit " + instantTime
            + " is complete, but the " + sync.name() + " catalog sync after it failed (it is retried after the next "
            + "commit, or run it now: sluice sync): " + e.getMessage(), e);
      }
    }
  }

  /** Inserts records (keys the index finds are updated, as Hudi does). */
  public CommitResult insert(Iterator<GenericRecord> records) {
    return write(WriteOperation.INSERT, records);
  }

  /** Upserts records; {@code _hoodie_is_deleted = true} deletes. */
  public CommitResult upsert(Iterator<GenericRecord> records) {
    return write(WriteOperation.UPSERT, records);
  }

  /** Deletes the keys of {@code records}: full records or rows of {@link #keySchema()}. */
  public CommitResult delete(Iterator<GenericRecord> records) {
    return write(WriteOperation.DELETE, records);
  }

  /** Bulk-inserts records: no tagging, sorted by partition and key. */
  public CommitResult bulkInsert(Iterator<GenericRecord> records) {
    return write(WriteOperation.BULK_INSERT, records);
  }

  /**
   * Fails with CONFLICT if {@code hoodie.properties} no longer names the version this handle was opened at (the table
   * was upgraded or downgraded since): a write through it would put the old version's files into the new layout.
   * Returns the config it read, which the write goes on with.
   */
  private TableConfig requireOpenedVersion(String what) {
    TableConfig current = config();
    int now = current.tableVersion();
    if (now != layout.tableVersion()) {
      throw Errors.conflict(what + " " + location + " through a handle opened at table version "
          + layout.tableVersion(), "the table is at version " + now + " now (it was upgraded or downgraded); open it "
          + "again");
    }
    return current;
  }

  /**
   * Upgrades the table to version {@code toVersion} (8 or 9) as Hudi 1.1.1's upgrade does, or finishes an interrupted
   * upgrade: from version 6, failed writes rolled back and (Merge-on-Read) every slice with log files compacted while
   * the table is still version 6; the metadata table upgraded with it (its slices compacted, its timeline converted,
   * its files kept) when the table's reads trust it, else removed; then, under the table lock, the timeline written
   * in layout 2 ({@code .hoodie/timeline}, completion times from the old files' modification times, Avro commit
   * metadata), the archive converted into the LSM history, and {@code hoodie.properties} rewritten, which is the
   * switch, then the metadata table's; the old timeline files deleted last. From 8 to 9: failed writes rolled back and
   * both tables' properties rewritten. Refused (CONFLICT) while a write is in progress. Nothing else
   * ever upgrades a table: writes keep its version. This handle stays at the old version: open the table again.
   */
  public UpgradeInfo upgrade(int toVersion) {
    TableConfig before = config();
    List<RollbackInfo> rolledBack = List.of();
    List<CompactionInfo> compactions = new ArrayList<>();
    if (before.tableVersion() < toVersion && (toVersion == 8 || toVersion == 9)) {
      rolledBack = rollbackFailedWrites();
      if (before.type() == TableType.MERGE_ON_READ) {
        // Hudi compacts every file group with an unbounded strategy before the timeline moves (SevenToEight), and
        // before 8 -> 9 (EightToNine)
        compactions.addAll(compactEverySlice());
      }
    }
    TableUpgrade.Result r = TableUpgrade.of(storage, location, TableSettings.upgrade(changes)).upgrade(toVersion);
    return new UpgradeInfo(r.fromVersion(), r.toVersion(), rolledBack, compactions, r.timelineFiles(),
        r.archivedInstants(), r.metadataTableRemoved(), r.metadataTableKept(), r.oldFilesDeleted());
  }

  /**
   * Downgrades a version-9 table to 8 ({@code hoodie.properties} only, as Hudi 1.1.1's downgrade), under the table lock,
   * after rolling back failed writes and, as Hudi, compacting every slice of a Merge-on-Read table that has log files.
   * Version 6 is UNSUPPORTED (Hudi 1.x's downgrade does it). This handle stays at the old version: open it again.
   */
  public UpgradeInfo downgrade(int toVersion) {
    TableConfig before = config();
    List<RollbackInfo> rolledBack = List.of();
    List<CompactionInfo> compactions = List.of();
    if (before.tableVersion() == 9 && toVersion == 8) {
      rolledBack = rollbackFailedWrites();
      if (before.type() == TableType.MERGE_ON_READ) {
        // Hudi compacts every slice before this downgrade (NineToEight)
        compactions = compactEverySlice();
      }
    }
    TableUpgrade.Result r = TableUpgrade.of(storage, location, TableSettings.upgrade(changes)).downgrade(toVersion);
    return new UpgradeInfo(r.fromVersion(), r.toVersion(), rolledBack, compactions, 0, 0, false, r.metadataTableKept(),
        0);
  }

  /** Runs the pending compactions, then one of every slice with log files (the upgrade's and downgrade's compaction). */
  private List<CompactionInfo> compactEverySlice() {
    List<CompactionInfo> compactions = new ArrayList<>();
    TableCompaction c = compaction();
    compactions.addAll(c.runPending());
    c.scheduleNow().ifPresent(t -> compactions.add(c.run(t)));
    return compactions;
  }

  /** Rollback, savepoint and restore of this table, under the table lock when several writers are configured. */
  private TableActions actions() {
    return TableSettings.actions(storage, location, changes);
  }

  /** Rolls back an instant: a pending (failed) write, or the latest completed commit. */
  public RollbackInfo rollback(String instantTime) {
    return Infos.rollback(actions().rollback(instantTime));
  }

  /** Rolls back every failed write (in multi-writer mode only those whose writer's heartbeat expired). */
  public List<RollbackInfo> rollbackFailedWrites() {
    return actions().rollbackFailedWrites().stream().map(Infos::rollback).toList();
  }

  /**
   * Looks for damage and, if {@code apply}, repairs it: a damaged or stale {@code hoodie.properties} (restored from its
   * backup), damaged instant files (a completed commit's metadata rebuilt from its files; a pending write rolled back;
   * an unreadable clean, rollback or unstarted compaction removed), log blocks cut short or not decoding (the file
   * rewritten without them), files no instant accounts for, stale markers and heartbeats, and partition folders readers
   * cannot see. Without {@code apply} nothing is changed. Every file a repair changes is first copied to
   * {@code .hoodie/.repair/<time>/}. Run it with no writer running; under the table lock when several writers are
   * configured. Every table version (6, 8, 9): the timeline layout names the instant files and decodes them.
   */
  public RepairReport repair(boolean apply) {
    return Infos.repair(actions().repair(apply));
  }

  /** Savepoints a completed commit, the latest if {@code instantTime} is empty. */
  public SavepointInfo savepoint(Optional<String> instantTime) {
    return savepoint(instantTime, System.getProperty("user.name", ""), "");
  }

  /** Savepoints a completed commit, the latest if {@code instantTime} is empty, recording who and why. */
  public SavepointInfo savepoint(Optional<String> instantTime, String user, String comment) {
    return Infos.savepoint(actions().savepoint(instantTime, user, comment));
  }

  /** Deletes the savepoint at {@code instantTime}. */
  public void deleteSavepoint(String instantTime) {
    actions().deleteSavepoint(instantTime);
  }

  /** Restores the table to the savepoint at {@code savepointTime}: every later write is rolled back. */
  public RestoreInfo restore(String savepointTime) {
    RestoreInfo info = Infos.restore(actions().restore(savepointTime));
    // the restore dropped the record index (it is rebuilt, not re-synced): built again now from the restored table
    MetadataTableWriter.prepare(storage, location, TableSettings.commit(changes), Optional.empty(),
        TableSettings.recordIndex(storage, location, changes));
    return info;
  }

  /**
   * Finishes unfinished cleans, then plans and runs a clean as the cleaner settings say ({@code hoodie.cleaner.*});
   * the cleans completed, none if there was nothing to clean.
   */
  public List<CleanInfo> clean() {
    return clean(ProgressListener.NONE);
  }

  /**
   * Cleans as {@link #clean()}, reporting each clean's file deletes to {@code progress} ({@link Progress.Step#CLEAN},
   * counted in files of the plan).
   */
  public List<CleanInfo> clean(ProgressListener progress) {
    Objects.requireNonNull(progress, "progress");
    layout.requireService(TableService.CLEAN, "Clean");
    return TableSettings.cleaner(storage, location, changes).withProgress(progress).clean().completed().stream()
        .map(Infos::clean).toList();
  }

  /** What {@link #clean()} would delete now (nothing is written). */
  public CleanPlanInfo cleanPreview() {
    layout.requireService(TableService.CLEAN, "Clean (preview)");
    return Infos.cleanPlan(TableSettings.cleaner(storage, location, changes).preview());
  }

  /**
   * Moves old instants to the archived timeline as Hudi's archiver does ({@code hoodie.keep.min.commits},
   * {@code hoodie.keep.max.commits}).
   */
  public ArchiveInfo archive() {
    ArchiveResult r = TableSettings.archiver(storage, location, changes).archive();
    return new ArchiveInfo(Infos.instants(r.archived()), r.stateFiles(), r.archiveFile());
  }

  /**
   * Why {@link #archive()} would archive nothing now: too few commits for {@code hoodie.keep.max.commits}, or the
   * pending instant, savepoint, compaction or clustering retention, or metadata-table compaction that holds the
   * oldest instants back, named with its instant and setting; empty if it would archive something.
   */
  public Optional<String> archiveHeldBack() {
    return TableSettings.archiver(storage, location, changes).heldBack();
  }

  /** The instants {@link #archive()} would archive now (nothing is written). */
  public List<InstantInfo> archivePreview() {
    return Infos.instants(TableSettings.archiver(storage, location, changes).preview());
  }

  /**
   * Compaction of this (Merge-on-Read) table: schedule a plan, run one or all pending ones. Writes can schedule and run
   * compactions themselves: see {@code hoodie.compact.inline}, {@code hoodie.compact.schedule.inline} and
   * {@code sluice.compact.async}.
   */
  public TableCompaction compaction() {
    return new TableCompaction(engineCompaction(), location, options().asMap());
  }

  Compaction engineCompaction() {
    layout.requireService(TableService.COMPACTION, "Compaction");
    return TableSettings.compaction(storage, location, changes);
  }

  /**
   * The background compactor of this handle ({@code sluice.compact.async}), started by the first write; empty if
   * none runs.
   */
  public Optional<TableCompaction.BackgroundCompactor> compactor() {
    synchronized (compactorLock) {
      return Optional.ofNullable(compactor).map(TableCompaction.BackgroundCompactor::new);
    }
  }

  private Compactor startCompactor() {
    synchronized (compactorLock) {
      if (closed) {
        throw Errors.badRequest("Writing to " + location, "the table handle is closed", "Open the table again.");
      }
      if (compactor == null) {
        compactor = Compactor.builder(engineCompaction()).start();
        // compactions left pending by an earlier process run too
        compactor.wake();
      }
      return compactor;
    }
  }

  /** Stops the background compactor, if one runs: the compaction in progress finishes first. */
  @Override
  public void close() {
    Compactor c;
    synchronized (compactorLock) {
      closed = true;
      c = compactor;
      compactor = null;
    }
    if (c != null) {
      c.close();
    }
  }

  /** A new scan of the latest snapshot. */
  public Scan newScan() {
    return new Scan(ScanOptions.defaults(), new ScanPlanner() {
      @Override
      public ScanPlan plan(ScanOptions options) {
        return snapshotPlanner().plan(options);
      }

      @Override
      public Schema outputSchema(ScanOptions options) {
        return snapshotPlanner().outputSchema(options);
      }
    });
  }

  /** A planner over the timeline as it is now (each plan loads it again: a scan opened later sees later commits). */
  private SnapshotPlanner snapshotPlanner() {
    Timeline tl = timeline();
    TableConfig tc = config();
    return new SnapshotPlanner(storage, location, tc, schema(tl, tc), tl, TableSettings.read(config));
  }
}
