package dev.sluice.api;

import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.index.IndexSettings;
import dev.sluice.internal.index.IndexedTable;
import dev.sluice.internal.index.Indexes;
import dev.sluice.internal.mdt.write.RecordIndexChanges;
import dev.sluice.internal.util.Parallel;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.schema.SchemaEvolution;
import dev.sluice.internal.service.TableServices;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.write.FileGroupUnits;
import dev.sluice.internal.write.FileGroupWrite;
import dev.sluice.internal.write.WriteSetup;
import dev.sluice.internal.write.WriteTransaction;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * The driver's side of one write whose records are prepared, tagged and written elsewhere (the tasks of a cluster
 * engine, through {@link WriteUnits}), in the engine's own instant lifecycle:
 * <ol>
 *   <li>{@link #begin}: failed writes rolled back, the requested instant;</li>
 *   <li>{@link #baseFiles}: the latest base files of the partitions the batch touches, for the tasks to look keys
 *       up in;</li>
 *   <li>{@link #plan}: from the counts (updates per file group, inserts per partition), the engine's plan; the
 *       instant goes inflight with its workload profile;</li>
 *   <li>{@link #publish}: the tasks' results become the commit (files of failed task attempts deleted first); then
 *       the post-commit services (clean, archive, inline compaction) run here;</li>
 *   <li>{@link #abort} on failure (the instant rolled back), {@link #close} in every case.</li>
 * </ol>
 * Every index type of the engine ({@link #index}): keys looked up in their partition's base files, in every
 * partition's (global indexes), or in the record index; a table with a record index gets the write's changes to it
 * in the metadata table's deltacommit, gathered from the tasks' results. Not supported yet: a writer schema that
 * widens a column's type.
 */
public final class DistributedWrite implements AutoCloseable {
  private final Table table;
  private final WriteOperation op;
  private final WriteSetup setup;
  private final WriteTransaction txn;
  private final FileSystemView view;
  private final Schema schema;
  private Instant inflight;

  private DistributedWrite(Table table, WriteOperation op, WriteSetup setup, WriteTransaction txn, FileSystemView view,
      Schema schema) {
    this.table = table;
    this.op = op;
    this.setup = setup;
    this.txn = txn;
    this.view = view;
    this.schema = schema;
  }

  /** Starts a write of {@code op} on {@code table}: rolls back failed writes, then requests the instant. */
  public static DistributedWrite begin(Table table, WriteOperation op) {
    return begin(table, op, Optional.empty());
  }

  /**
   * As {@link #begin(Table, WriteOperation)}, the records written with {@code writerSchema} (without meta fields)
   * when present: a schema the table accepts as {@link Table#write} does (new nullable columns, a required column
   * the table holds as nullable) becomes the write's schema and, with the commit, the table's; anything else is
   * refused before the instant is requested, naming the field. Widening a column's type (which rewrites every base
   * file with the narrower type) is refused here: write it with {@link Table#write}.
   */
  public static DistributedWrite begin(Table table, WriteOperation op, Optional<Schema> writerSchema) {
    Config changes = table.changes();
    TableServices services = TableSettings.services(changes);
    services.prepareMetadataTable(table.storage(), table.location(),
        TableSettings.recordIndex(table.storage(), table.location(), changes));
    TableConfig tc = table.config();
    Schema tableSchema = table.schema();
    Schema schema = tableSchema;
    if (writerSchema.isPresent() && op != WriteOperation.DELETE && !writerSchema.get().equals(tableSchema)) {
      schema = SchemaEvolution.check(tableSchema, writerSchema.get(), tc);
      if (SchemaEvolution.widens(tableSchema, schema)) {
        throw SluiceException.unsupported("A distributed write that widens a column's type",
            "Write it with Table.write, which rewrites the base files with the narrower type in the same commit.");
      }
    }
    WriteSetup setup = TableSettings.writeSetup(table.storage(), table.location(), tc, schema, changes);
    Action action = tc.type() == TableType.MERGE_ON_READ ? Action.DELTACOMMIT : Action.COMMIT;
    WriteTransaction txn = WriteTransaction.begin(table.storage(), table.location(), setup.commit(), action,
        table.timeline());
    try {
      FileSystemView view = MetadataTables.view(table.storage(), table.location(), txn.timeline(), tc,
          setup.commit().metadataEnabled());
      return new DistributedWrite(table, op, setup, txn, view, schema);
    } catch (RuntimeException e) {
      RuntimeException failure = txn.abort(e);
      txn.close();
      throw failure;
    }
  }

  /** The write's instant. */
  public String instantTime() {
    return txn.requested().time();
  }

  /** The writer schema: the table schema without meta fields (records must be built with it). */
  public Schema schema() {
    return schema;
  }

  /** What the tasks need to open the write's {@link WriteUnits}. */
  public WriteContext context() {
    return new WriteContext(table.location(), table.options().asMap(), instantTime(), op, schema.toString(),
        setup.globalIndex());
  }

  /**
   * How the write's keys are looked up ({@code hoodie.index.type}); for RECORD_INDEX, whether the record index can be
   * used as of the write's start (if not, the write tags as GLOBAL_SIMPLE, as {@link Table#write} does).
   */
  public IndexLookup index() {
    IndexSettings settings = setup.settings().index();
    int shards = 0;
    if (settings.type().equals(Indexes.RECORD_INDEX)) {
      shards = Indexes.recordIndexShards(table.storage(), new IndexedTable(table.location(), setup.tableConfig(),
          setup.commit().metadataEnabled()), settings, txn.timeline()).orElse(0);
    }
    return new IndexLookup(settings.type(), settings.global(), shards);
  }

  /** Every partition of the table as of the write's start (where a global index looks keys up). */
  public List<String> partitions() {
    return view.partitions();
  }

  /**
   * The latest base files of {@code partitions} as of the write's start (the files keys are looked up in). With a
   * bloom index and {@code hoodie.bloom.index.prune.by.ranges} each carries its key range from its footer (footers
   * read here in parallel), so a key is checked only against files whose range holds it.
   */
  public List<FileRef> baseFiles(Collection<String> partitions) {
    List<FileRef> out = new ArrayList<>();
    view.prefetch(new ArrayList<>(partitions));
    for (String p : partitions) {
      for (BaseFile f : view.latestBaseFiles(p)) {
        out.add(new FileRef(p, f.fileId(), f.path(), f.fileName(), f.instantTime(), f.size()));
      }
    }
    IndexSettings settings = setup.settings().index();
    if (!settings.pruneByRanges() || !settings.type().endsWith("BLOOM") || out.isEmpty()) {
      return out;
    }
    return Parallel.map(out, settings.threads(), f -> {
      try (BaseFileReader reader = BaseFileReader.open(table.storage(), f.path(), f.size())) {
        Optional<String> min = reader.footer().minRecordKey();
        Optional<String> max = reader.footer().maxRecordKey();
        return min.isPresent() && max.isPresent() ? new FileRef(f.partitionPath(), f.fileId(), f.path(), f.fileName(),
            f.instantTime(), f.size(), min.get(), max.get()) : f;
      }
    });
  }

  /**
   * Plans the write from counts: {@code updates} per existing file group (keys found in it) and {@code inserts} per
   * partition (new keys; deletes of unknown keys not counted). Moves the instant to inflight. The tasks are in
   * plan order; within a partition they take its inserts, in key order, one after another.
   */
  public List<FileGroupTask> plan(Map<FileGroupKey, Long> updates, Map<String, Long> inserts) {
    Map<FileGroupKey, String> baseInstants = new HashMap<>();
    for (FileGroupKey k : updates.keySet()) {
      if (!baseInstants.containsKey(k)) {
        view.latestBaseFiles(k.partitionPath()).forEach(f ->
            baseInstants.put(new FileGroupKey(k.partitionPath(), f.fileId()), f.instantTime()));
      }
    }
    List<FileGroupUnits.Tagged> tagged = new ArrayList<>();
    updates.forEach((k, n) -> {
      String base = baseInstants.get(k);
      if (base == null) {
        throw SluiceException.conflict("Write to file group " + k.partitionPath() + "/" + k.fileId(),
            "it has no base file in the table as the write started");
      }
      tagged.add(new FileGroupUnits.Tagged(new FileGroupId(k.partitionPath(), k.fileId()), base, n));
    });
    List<FileGroupWrite> plan = FileGroupUnits.plan(setup, txn.timeline(), view, tagged, inserts,
        op == WriteOperation.BULK_INSERT);
    inflight = FileGroupUnits.start(setup, txn, plan, op);
    List<FileGroupTask> out = new ArrayList<>(plan.size());
    for (FileGroupWrite w : plan) {
      out.add(task(out.size(), w));
    }
    return out;
  }

  /**
   * Commits the write of {@code files}, every file group's results (each task's last successful attempt): files
   * of other attempts are deleted, the commit metadata written, the instant completed; then clean, archive and
   * inline compaction run as after {@link Table#write}, and so do the enabled {@link CatalogSync}s (a failed sync is
   * a warning, never a failed commit).
   */
  public CommitResult publish(List<FileWriteWire> files) {
    if (inflight == null) {
      throw SluiceException.badRequest("Publish of instant " + instantTime(), "the write was not planned",
          "Call plan before publish.");
    }
    List<FileWriteResult> results = new ArrayList<>(files.size());
    files.forEach(f -> results.add(f.toResult()));
    Instant completed;
    // the tasks' record-index changes, into the collector a single-machine write fills (sorted, spilled past budget)
    try (RecordIndexChanges recordIndex = FileGroupUnits.recordIndexChanges(setup)) {
      if (recordIndex.isCollecting()) {
        for (FileWriteWire f : files) {
          f.unindexedKeys().forEach(k -> recordIndex.delete(k, f.partitionPath()));
          f.indexedKeys().forEach(k -> recordIndex.insert(k, f.partitionPath(), f.fileId()));
        }
      }
      completed = FileGroupUnits.publish(setup, txn, inflight, results, op, recordIndex);
    }
    TableSettings.services(table.changes()).afterCommit(table.storage(), table.location(), setup.tableConfig().type(),
        completed.time(), txn.timelineAfterPublish(), Optional.empty(), table.layout());
    table.syncCatalogs(completed.time());
    // the units do not gather outcome counts (see docs/spark.md): what was applied is known, what was ignored is not
    long applied = results.stream().mapToLong(r -> r.numInserts() + r.numUpdates() + r.numDeletes()).sum();
    return new CommitResult(completed.time(), op, results, new WriteOutcome(applied, 0, 0, 0, 0,
        setup.tableConfig().precombineField()));
  }

  /** Rolls the write back after {@code failure} (unless it was published); returns {@code failure}. */
  public RuntimeException abort(RuntimeException failure) {
    return txn.abort(failure);
  }

  /** Stops the write's heartbeat. */
  @Override
  public void close() {
    txn.close();
  }

  private static FileGroupTask task(int index, FileGroupWrite w) {
    String p = w.id().partitionPath();
    String fileId = w.id().fileId();
    if (w instanceof FileGroupWrite.Merge m) {
      return new FileGroupTask(index, FileGroupTask.Kind.MERGE, p, fileId, w.updates(), w.inserts(),
          ref(p, m.current()), "", List.of());
    }
    if (w instanceof FileGroupWrite.Append a) {
      List<LogFileRef> logs = new ArrayList<>();
      for (LogFile l : a.slice().logFiles()) {
        logs.add(new LogFileRef(l.path(), l.fileName(), l.baseInstant(), l.version(), l.writeToken(), l.size()));
      }
      return new FileGroupTask(index, FileGroupTask.Kind.APPEND, p, fileId, w.updates(), 0,
          a.slice().baseFile().map(b -> ref(p, b)).orElse(null), a.slice().baseInstant(), logs);
    }
    return new FileGroupTask(index, FileGroupTask.Kind.CREATE, p, fileId, 0, w.inserts(), null, "", List.of());
  }

  private static FileRef ref(String partition, BaseFile f) {
    return new FileRef(partition, f.fileId(), f.path(), f.fileName(), f.instantTime(), f.size());
  }
}
