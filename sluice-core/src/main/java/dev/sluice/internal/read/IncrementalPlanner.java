package dev.sluice.internal.read;

import dev.sluice.api.ConfigKeys;
import dev.sluice.api.Expression;
import dev.sluice.api.Expressions;
import dev.sluice.api.QueryType;
import dev.sluice.api.ScanOptions;
import dev.sluice.api.TableType;
import dev.sluice.internal.archive.ArchiveLog;
import dev.sluice.internal.archive.ArchivedInstant;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroup;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.read.expr.BoundExpression;
import dev.sluice.internal.read.expr.ExpressionBinder;
import dev.sluice.internal.schema.Projection;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.Storage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.Schema;

/**
 * Plans incremental queries: the latest state, as of the range's end, of every record whose latest version a
 * write instant in the range ({@code begin}, {@code end}] wrote. Only the file groups those writes touched (their
 * commit metadata's write stats) are read: per group its slice as of the end (Merge-on-Read: base file merged
 * with the log blocks up to the end, so records still only in logs are included and late updates are ordered as
 * a snapshot orders them), keeping rows whose {@code _hoodie_commit_time} is in the range. Compactions are not
 * writes (they keep commit times); replacecommits are.
 *
 * <p>With deleted rows, each touched partition's groups are also read as of the range's start: a record there
 * whose key the groups no longer hold at the end is returned as of the start, marked deleted.
 *
 * <p>A range reaching archived commits, or whose files the cleaner removed, is refused, or with
 * {@link ConfigKeys#INCR_FALLBACK_FULL_TABLE_SCAN} answered from the latest snapshot of the whole table filtered
 * by commit time (Hudi's fallback).
 */
final class IncrementalPlanner {
  private final SnapshotPlanner snapshot;
  private final Storage storage;
  private final String basePath;
  private final TableConfig tableConfig;
  private final Timeline timeline;
  private final ReadSettings settings;

  IncrementalPlanner(SnapshotPlanner snapshot, Storage storage, String basePath, TableConfig tableConfig,
      Timeline timeline, ReadSettings settings) {
    this.snapshot = snapshot;
    this.storage = storage;
    this.basePath = basePath;
    this.tableConfig = tableConfig;
    this.timeline = timeline;
    this.settings = settings;
  }

  ScanPlan plan(ScanOptions options) {
    if (options.asOf().isPresent()) {
      throw Errors.badRequest("An incremental query with --as-of", "the range's end is the instant its rows are "
          + "read as of", "Give the end of the range with --to (Java: Scan.incremental(begin, end)).");
    }
    Optional<String> latestWrite = timeline.commitsTimeline().completed().lastInstant().map(Instant::time);
    IncrementalRange range = IncrementalRange.of(options.beginInstant(), options.endInstant(), latestWrite);
    Schema full = snapshot.fullSchema();
    Schema output = snapshot.outputSchema(options);
    Optional<BoundExpression> userFilter = options.filter().map(e -> ExpressionBinder.bind(e, full));
    if (range.isEmpty()) {
      return empty(output, options.limit());
    }
    Optional<String> archived = archivedWriteInRange(range);
    if (archived.isPresent()) {
      return fallback(options, range, "commit " + archived.get() + " in the range is archived");
    }
    RangeWrites writes = RangeWrites.read(new TimelineStore(storage, basePath, timeline.layout()), timeline, range);
    if (writes.missing().isPresent()) {
      return fallback(options, range, "the commit file of " + writes.missing().get() + " is gone (archived)");
    }
    FileSystemView latest = MetadataTables.view(storage, basePath, timeline, tableConfig, settings.metadataTable());
    FileSystemView atEnd = latest.asOf(range.end());
    boolean mor = tableConfig.type() == TableType.MERGE_ON_READ;
    Map<String, List<FileSlice>> endSlices = new LinkedHashMap<>();
    Map<String, List<FileSlice>> startSlices = new LinkedHashMap<>();
    FileSystemView atStart = latest.asOf(range.begin());
    for (String partition : writes.partitions()) {
      if (userFilter.isPresent() && !userFilter.get().mightMatchPartition(
          PartitionValues.parse(partition, tableConfig.partitionFields(), tableConfig.hiveStylePartitioning()))) {
        continue;
      }
      List<FileSlice> end = slices(atEnd, partition, writes.written(), mor);
      Optional<String> cleaned = cleanedAtEnd(atEnd, partition, end, writes);
      if (cleaned.isEmpty() && options.includeDeletes()) {
        startSlices.put(partition, slices(atStart, partition, touched(writes), mor));
        cleaned = cleanedAtStart(atStart, partition, writes, range.begin());
      }
      if (cleaned.isPresent()) {
        return fallback(options, range, cleaned.get());
      }
      endSlices.put(partition, end);
    }
    Timeline seenAtEnd = atEnd.timeline();
    // slices merged at the end state are read on the scan's threads unless the deletes make it a two-state read
    int threads = options.includeDeletes() ? 1 : snapshot.parallelism(options);
    Optional<LogMerge> mergeAtEnd = mor ? Optional.of(snapshot.logMerge(seenAtEnd, range.end(), threads))
        : Optional.empty();
    if (options.includeDeletes()) {
      Optional<LogMerge> mergeAtStart = mor ? Optional.of(snapshot.logMerge(atStart.timeline(), range.begin()))
          : Optional.empty();
      Set<String> internal = IncrementalChanges.internalColumns(output, userFilter);
      Schema internalSchema = Projection.of(full, internal::contains);
      Schema mergeSchema = mor ? snapshot.mergeSchema(full, internal) : internalSchema;
      IncrementalChanges changes = new IncrementalChanges(storage, range, output, internalSchema, mergeSchema,
          userFilter, mergeAtEnd, mergeAtStart, endSlices, startSlices);
      List<FileSlice> read = new ArrayList<>();
      endSlices.values().forEach(read::addAll);
      startSlices.values().forEach(read::addAll);
      return new ScanPlan(storage, read, output, options.limit(), mergeAtEnd, changes::open);
    }
    Expression combined = withRange(options.filter(), range);
    Optional<BoundExpression> bound = Optional.of(ExpressionBinder.bind(combined, full));
    Set<String> readColumns = ScanPlan.readColumns(output, bound, bound.get().columns());
    List<FileSlice> read = new ArrayList<>();
    endSlices.values().forEach(read::addAll);
    Schema mergeSchema = mor ? snapshot.mergeSchema(full, readColumns) : output;
    return new ScanPlan(storage, read, output, bound, readColumns, options.limit(), mergeAtEnd, mergeSchema,
        threads);
  }

  private static Set<FileGroupId> touched(RangeWrites writes) {
    Set<FileGroupId> all = new TreeSet<>(writes.written());
    all.addAll(writes.replaced());
    return all;
  }

  /** The slice of each listed group in the partition: base file only (CoW), or merged with its logs (MoR). */
  private static List<FileSlice> slices(FileSystemView view, String partition, Set<FileGroupId> groups, boolean mor) {
    List<FileSlice> out = new ArrayList<>();
    if (mor) {
      for (FileSlice s : view.latestMergedSlices(partition)) {
        if (groups.contains(s.id()) && !s.isEmpty()) {
          out.add(s);
        }
      }
      return out;
    }
    for (BaseFile f : view.latestBaseFiles(partition)) {
      FileGroupId id = new FileGroupId(partition, f.fileId());
      if (groups.contains(id)) {
        out.add(new FileSlice(id, f.instantTime(), Optional.of(f), List.of()));
      }
    }
    return out;
  }

  /**
   * Why the groups' state as of the end cannot be read, if so: a written group (not replaced since) whose slice
   * as of the end lacks the file the range's last write or compaction of it wrote (the cleaner removed it).
   */
  private static Optional<String> cleanedAtEnd(FileSystemView atEnd, String partition, List<FileSlice> end,
      RangeWrites writes) {
    Map<FileGroupId, FileSlice> byId = new LinkedHashMap<>();
    end.forEach(s -> byId.put(s.id(), s));
    Map<FileGroupId, String> replaced = atEnd.replacedFileGroupIds();
    for (FileGroupId id : writes.written()) {
      if (!id.partitionPath().equals(partition) || replaced.containsKey(id)) {
        continue;
      }
      String file = writes.lastFile().get(id);
      FileSlice s = byId.get(id);
      if (s == null) {
        return Optional.of("no file of file group " + id.fileId() + " in '" + partition + "' is left (cleaned)");
      }
      if (file != null && !holds(s, file)) {
        return Optional.of("file " + file + " that the range wrote in '" + partition + "' was cleaned");
      }
    }
    return Optional.empty();
  }

  /**
   * Why the groups' state as of the start cannot be read, if so: a written group whose first write in the range
   * went to a slice (its {@code prevCommit}) that is no longer on storage.
   */
  private static Optional<String> cleanedAtStart(FileSystemView atStart, String partition, RangeWrites writes,
      String begin) {
    for (Map.Entry<FileGroupId, String> e : writes.firstPrevCommit().entrySet()) {
      FileGroupId id = e.getKey();
      String prev = e.getValue();
      if (!id.partitionPath().equals(partition) || InstantTimes.isBefore(begin, prev)) {
        continue;
      }
      Optional<FileGroup> g = atStart.fileGroup(id);
      if (g.isEmpty() || g.get().slices().stream().noneMatch(s -> s.baseInstant().equals(prev))) {
        return Optional.of("the version of file group " + id.fileId() + " in '" + partition + "' at the start of "
            + "the range (" + prev + ") was cleaned, so its deleted keys cannot be found");
      }
    }
    return Optional.empty();
  }

  private static boolean holds(FileSlice s, String fileName) {
    if (s.baseFile().isPresent() && s.baseFile().get().fileName().equals(fileName)) {
      return true;
    }
    for (LogFile l : s.logFiles()) {
      if (l.fileName().equals(fileName)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A completed write on the archived timeline inside the range, if any. Archival moves the oldest instants, so
   * only a range starting before the first commit of the active timeline can reach one.
   */
  private Optional<String> archivedWriteInRange(IncrementalRange range) {
    Optional<Instant> firstActive = timeline.commitsTimeline().completed().firstInstant();
    if (firstActive.isPresent() && !InstantTimes.isBefore(range.begin(), firstActive.get().time())) {
      return Optional.empty();
    }
    ArchiveLog archive = ArchiveLog.of(storage, basePath);
    if (archive.files().isEmpty()) {
      return Optional.empty();
    }
    for (ArchivedInstant a : archive.read()) {
      Instant i = a.instant();
      boolean write = i.action() == Action.COMMIT || i.action() == Action.DELTACOMMIT
          || i.action() == Action.REPLACECOMMIT;
      if (i.isCompleted() && write && range.contains(i.time())
          && !a.commitMetadata().map(CommitMetadata::compacted).orElse(false)) {
        return Optional.of(i.time());
      }
    }
    return Optional.empty();
  }

  /** The full-table-scan fallback, or the error that explains why the range cannot be read. */
  private ScanPlan fallback(ScanOptions options, IncrementalRange range, String reason) {
    String what = "The incremental query (" + range.begin() + ", " + range.end() + "]";
    if (!settings.incrementalFallbackFullScan()) {
      throw Errors.badRequest(what, reason, "Start the range later (see 'sluice timeline'), or set "
          + ConfigKeys.INCR_FALLBACK_FULL_TABLE_SCAN.name() + "=true to scan the whole table instead (the latest "
          + "snapshot's rows whose commit time is in the range).");
    }
    if (options.includeDeletes()) {
      throw Errors.badRequest(what + " with deleted rows", reason + "; a full-table scan cannot find deleted keys",
          "Start the range later (see 'sluice timeline'), or drop --include-deletes.");
    }
    ScanOptions full = options.withQueryType(QueryType.SNAPSHOT).withRange(Optional.empty(), Optional.empty())
        .withFilter(Optional.of(withRange(options.filter(), range)));
    return snapshot.plan(full);
  }

  private static Expression withRange(Optional<Expression> filter, IncrementalRange range) {
    return filter.map(f -> Expressions.and(f, range.commitTimeFilter())).orElseGet(range::commitTimeFilter);
  }

  private ScanPlan empty(Schema output, long limit) {
    return new ScanPlan(storage, List.of(), output, Optional.empty(), Set.of(MetaFields.RECORD_KEY), limit,
        Optional.empty(), output);
  }
}
