package dev.sluice.internal.read;

import dev.sluice.api.ConfigKeys;
import dev.sluice.api.QueryType;
import dev.sluice.api.ScanOptions;
import dev.sluice.api.TableType;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.log.LogScanner;
import dev.sluice.internal.log.MergedLogRecords;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.internal.read.expr.BoundExpression;
import dev.sluice.internal.read.expr.ExpressionBinder;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.storage.Storage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;

/**
 * Plans snapshot and read-optimized scans: timeline (cut at the as-of instant) → file-system view → partitions
 * pruned by the filter → per file group the latest base file (Copy-on-Write, and read-optimized Merge-on-Read),
 * or the latest merged file slice, base file and log files (Merge-on-Read snapshot). Incremental queries go to
 * {@link IncrementalPlanner}, which reuses this planner's schemas and merge settings.
 */
public final class SnapshotPlanner implements ScanPlanner {
  private final Storage storage;
  private final String basePath;
  private final TableConfig tableConfig;
  private final Schema userSchema;
  private final Timeline timeline;
  private final ReadSettings settings;

  /** A planner over a loaded timeline, with default read options. */
  public SnapshotPlanner(Storage storage, String basePath, TableConfig tableConfig, Schema userSchema, Timeline timeline) {
    this(storage, basePath, tableConfig, userSchema, timeline, ReadSettings.defaults());
  }

  /** A planner over a loaded timeline with the read options {@code settings} (the log merge's memory budget). */
  public SnapshotPlanner(Storage storage, String basePath, TableConfig tableConfig, Schema userSchema, Timeline timeline,
      ReadSettings settings) {
    this.storage = storage;
    this.basePath = basePath;
    this.tableConfig = tableConfig;
    this.userSchema = userSchema;
    this.timeline = timeline;
    this.settings = settings;
  }

  /** Plans {@code options}. */
  @Override
  public ScanPlan plan(ScanOptions options) {
    if (options.queryType() == QueryType.INCREMENTAL) {
      if (timeline.layout().timeSemanticsOf1x()) {
        return new CompletionTimeIncremental(this, storage, basePath, tableConfig, timeline, settings).plan(options);
      }
      return new IncrementalPlanner(this, storage, basePath, tableConfig, timeline, settings).plan(options);
    }
    if (options.beginInstant().isPresent() || options.endInstant().isPresent() || options.includeDeletes()) {
      throw Errors.badRequest("A " + options.queryType().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
          + " query with an incremental range or deleted rows", "the range and deleted rows belong to incremental "
          + "queries", "Use the incremental query type (--type incremental), or drop --from, --to and "
          + "--include-deletes.");
    }
    Schema full = fullSchema();
    Schema output = outputSchema(full, options);
    Optional<BoundExpression> bound = options.filter().map(e -> ExpressionBinder.bind(e, full));
    FileSystemView latest = MetadataTables.view(storage, basePath, timeline, tableConfig, settings.metadataTable());
    FileSystemView view = latest;
    if (options.asOf().isPresent()) {
      String asOf = options.asOf().get();
      // commits only: cleans and rollbacks may stay on the active timeline after the commits before them are archived
      if (timeline.writeTimeline().completed().firstInstant().map(i -> i.time().compareTo(asOf) > 0).orElse(true)) {
        throw Errors.badRequest("Time travel to " + asOf, "the table has no completed commit at or before it on the "
            + "active timeline (older commits are archived)", "Pick an instant shown by 'sluice timeline'.");
      }
      if (timeline.layout().timeSemanticsOf1x()) {
        requireNoPendingWriteUpTo(asOf);
      }
      view = latest.asOf(asOf);
    }
    boolean mergeLogs = tableConfig.type() == TableType.MERGE_ON_READ && options.queryType() == QueryType.SNAPSHOT;
    List<FileSlice> slices = new ArrayList<>();
    List<String> partitions = new ArrayList<>();
    for (String partition : view.partitions()) {
      if (bound.isPresent()) {
        Map<String, String> values = PartitionValues.parse(partition, tableConfig.partitionFields(),
            tableConfig.hiveStylePartitioning());
        if (!bound.get().mightMatchPartition(values)) {
          continue;
        }
      }
      partitions.add(partition);
    }
    // one batched lookup for the partitions read when listing through the metadata table (a no-op for storage)
    view.prefetch(partitions);
    for (String partition : partitions) {
      if (mergeLogs) {
        for (FileSlice s : view.latestMergedSlices(partition)) {
          if (!s.isEmpty()) {
            slices.add(s);
          }
        }
      } else {
        for (BaseFile f : view.latestBaseFiles(partition)) {
          slices.add(new FileSlice(new FileGroupId(partition, f.fileId()), f.instantTime(), Optional.of(f), List.of()));
        }
      }
    }
    // the bound filter's columns are spelled as in the schema, whatever case the filter used
    Set<String> filterColumns = bound.map(BoundExpression::columns).orElse(Set.of());
    Set<String> readColumns = ScanPlan.readColumns(output, bound, filterColumns);
    Optional<LogMerge> logMerge = Optional.empty();
    Schema mergeSchema = output;
    if (mergeLogs) {
      Timeline seen = view.timeline();
      Optional<String> queryInstant = options.asOf()
          .or(() -> seen.writeTimeline().completedAndPendingCompactions().lastInstant().map(i -> i.time()));
      if (queryInstant.isPresent()) {
        logMerge = Optional.of(logMerge(seen, queryInstant.get(), parallelism(options)));
      } else {
        slices.clear();
      }
      mergeSchema = mergeSchema(full, readColumns);
    }
    return new ScanPlan(storage, slices, output, bound, readColumns, options.limit(), logMerge, mergeSchema,
        parallelism(options));
  }

  /**
   * Hudi 1.x's rule for time travel ({@code TimelineUtils.validateTimestampAsOf}): the as-of time must be before the
   * first commit, delta commit or replacecommit still pending (clustering and compaction do not count), since that
   * write may yet complete with data the as-of view should hold. An instant requested at or before the as-of time and
   * completed since is read: time travel selects by requested time.
   */
  private void requireNoPendingWriteUpTo(String asOf) {
    Optional<Instant> pending = timeline.filter(i -> !i.isCompleted() && (i.action() == Action.COMMIT
        || i.action() == Action.DELTACOMMIT || i.action() == Action.REPLACECOMMIT)).firstInstant();
    if (pending.isPresent() && InstantTimes.isBeforeOrEqual(pending.get().time(), asOf)) {
      throw Errors.badRequest("Time travel to " + asOf, "the write " + pending.get().time() + " ("
          + pending.get().action().id() + ") is still pending, and Hudi 1.x's time travel must be earlier than the "
          + "first pending write", "Pick an instant before " + pending.get().time() + ", or roll back the failed "
          + "write first (Hudi 1.x: the next write does it).");
    }
  }

  /** The scan's own parallelism, else the configured {@code sluice.read.parallelism}. */
  int parallelism(ScanOptions options) {
    int threads = options.parallelism().orElseGet(settings::parallelism);
    if (threads < 1) {
      throw Errors.badConfig(ConfigKeys.READ_PARALLELISM.name(), String.valueOf(threads), "a thread count of 1 or more");
    }
    return threads;
  }

  /**
   * The schema of {@link #plan}'s rows: the output columns of the table's latest schema, and for an incremental
   * query with deleted rows the deleted flag after them. {@code IncrementalPlanner} takes its rows' schema from here.
   */
  @Override
  public Schema outputSchema(ScanOptions options) {
    Schema output = outputSchema(fullSchema(), options);
    return options.queryType() == QueryType.INCREMENTAL && options.includeDeletes()
        ? IncrementalChanges.withDeletedColumn(output) : output;
  }

  /** The table schema with the meta fields first. */
  Schema fullSchema() {
    return MetaFields.withMetaFields(userSchema);
  }

  /**
   * The committed log records of {@code slice} merged by key in the full schema, as {@link #plan} merges a slice
   * before it meets the base file (as of the latest completed write; the caller closes them). For {@code sluice
   * logs --merged}, which shows what the logs contribute to a snapshot.
   */
  public MergedLogRecords mergeLogs(FileSlice slice) {
    String queryInstant = timeline.writeTimeline().completedAndPendingCompactions().lastInstant().map(Instant::time)
        .orElse("");
    LogMerge merge = logMerge(timeline, queryInstant);
    return LogScanner.builder(storage)
        .logFiles(slice.logFiles())
        .timeline(merge.timeline())
        .latestInstant(merge.queryInstant())
        .readerSchema(fullSchema())
        .precombineField(merge.precombineField())
        .merger(merge.merger())
        .spillBeyond(merge.memoryBudget(), merge.spillDirectory())
        .build()
        .scan();
  }

  /** How Merge-on-Read slices merge as of {@code queryInstant}, with blocks committed on {@code seen}. */
  LogMerge logMerge(Timeline seen, String queryInstant) {
    return logMerge(seen, queryInstant, 1);
  }

  /**
   * How slices merged {@code threads} at a time merge: they share the memory budget (as compaction's threads do),
   * so a parallel scan holds no more merged log records on the heap than a sequential one.
   */
  LogMerge logMerge(Timeline seen, String queryInstant, int threads) {
    return new LogMerge(seen, queryInstant, tableConfig.precombineField(),
        new RecordMerger(tableConfig.mergeMode(), tableConfig.hasMergeMode()),
        Math.max(1, settings.logMergeMaxMemory() / threads), settings.spillDirectory(), tableConfig.plainKeyField());
  }

  /**
   * The columns a merge reads: those asked for, plus what merging needs (record key, partition path, the
   * precombine field and the delete marker), in table order.
   */
  Schema mergeSchema(Schema full, Set<String> readColumns) {
    Set<String> names = new HashSet<>(readColumns);
    names.add(MetaFields.RECORD_KEY);
    names.add(MetaFields.PARTITION_PATH);
    names.add(MetaFields.IS_DELETED);
    tableConfig.precombineField().ifPresent(p -> names.add(p.split("\\.")[0]));
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : full.getFields()) {
      if (names.contains(f.name())) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    return Schema.createRecord(full.getName(), full.getDoc(), full.getNamespace(), false, fields);
  }

  /** The output columns: meta columns first if asked, then the chosen (or all) user columns. */
  static Schema outputSchema(Schema full, ScanOptions options) {
    List<Schema.Field> fields = new ArrayList<>();
    if (options.metaColumns()) {
      for (String m : MetaFields.ALL) {
        Schema.Field f = full.getField(m);
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    if (options.columns().isEmpty()) {
      for (Schema.Field f : full.getFields()) {
        if (!ScanPlan.isMeta(f.name())) {
          fields.add(new Schema.Field(f, f.schema()));
        }
      }
    } else {
      for (String c : options.columns()) {
        Schema.Field f = full.getField(c);
        if (f == null) {
          throw Errors.badRequest("Column '" + c + "'", "it is not in the table schema (columns: "
              + full.getFields().stream().map(Schema.Field::name).toList() + ")", "Name existing columns.");
        }
        if (!options.metaColumns() || !ScanPlan.isMeta(c)) {
          fields.add(new Schema.Field(f, f.schema()));
        }
      }
    }
    return Schema.createRecord(full.getName(), full.getDoc(), full.getNamespace(), false, fields);
  }
}
