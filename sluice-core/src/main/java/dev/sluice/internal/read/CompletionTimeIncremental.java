package dev.sluice.internal.read;

import dev.sluice.api.ConfigKeys;
import dev.sluice.api.Expression;
import dev.sluice.api.Expressions;
import dev.sluice.api.QueryType;
import dev.sluice.api.ScanOptions;
import dev.sluice.api.TableType;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileListing;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.read.expr.BoundExpression;
import dev.sluice.internal.read.expr.ExpressionBinder;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.lsm.LsmTimeline;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.Schema;

/**
 * Incremental queries on table versions 8 and 9, as Hudi 1.1.1 runs them ({@code IncrementalQueryAnalyzer} and the
 * Spark incremental relation v2): the range is one of <em>completion</em> times.
 *
 * <ol>
 *   <li>The instants: the completed commits, delta commits, replacecommits and compactions whose completion time is
 *       in ({@code begin}, {@code end}] (no end: every later one). {@code begin} may be {@code earliest}: no lower
 *       bound. (Hudi 1.1.1's Spark relation returns no rows for {@code earliest} without an end and fails on it
 *       with one, so Sluice takes the word's meaning, the same range as a start of all zeros.)
 *       A pending instant is in no range, whenever it was requested: it joins the range its completion falls in,
 *       so nothing holds the end back.</li>
 *   <li>The files: only those the chosen instants' write stats name (Hudi's "affected files"), grouped into slices
 *       by completion time over the whole timeline, and per file group the latest merged slice at or before the
 *       newest chosen instant's <em>requested</em> time.</li>
 *   <li>The rows: those slices read as a snapshot reads them (base file merged with the logs), keeping the rows
 *       whose {@code _hoodie_commit_time} is the requested time of a chosen instant. A compaction's rows keep their
 *       delta commits' times, so a compaction in the range adds rows only of delta commits also in it; a log-only
 *       slice is merged without the base file before it; a record deleted in the range is simply absent.</li>
 * </ol>
 *
 * <p>Completion times come from the loaded timeline ({@link Timeline#completionTime}); a range that starts before
 * it is checked against the completion times of Hudi 1.x's LSM archive ({@code timeline.lsm}): if an archived write
 * completed inside it (its commit file is gone, so its files are unknown) the query is refused, or with
 * {@link ConfigKeys#INCR_FALLBACK_FULL_TABLE_SCAN} answered from the latest snapshot, as is a range whose files the
 * cleaner removed; if none did, the range is planned from the active timeline alone.
 */
final class CompletionTimeIncremental {
  static final String EARLIEST = "earliest";

  /** The completed actions whose instants write rows. */
  private static final java.util.Set<String> WRITE_ACTIONS = java.util.Set.of(Action.COMMIT.id(),
      Action.DELTACOMMIT.id(), Action.REPLACECOMMIT.id());

  private final SnapshotPlanner snapshot;
  private final Storage storage;
  private final String basePath;
  private final TableConfig tableConfig;
  private final Timeline timeline;
  private final ReadSettings settings;

  CompletionTimeIncremental(SnapshotPlanner snapshot, Storage storage, String basePath, TableConfig tableConfig,
      Timeline timeline, ReadSettings settings) {
    this.snapshot = snapshot;
    this.storage = storage;
    this.basePath = basePath;
    this.tableConfig = tableConfig;
    this.timeline = timeline;
    this.settings = settings;
  }

  ScanPlan plan(ScanOptions options) {
    int version = timeline.layout().tableVersion();
    if (options.asOf().isPresent()) {
      throw Errors.badRequest("An incremental query with --as-of", "the range's end is the completion time its "
          + "rows are read up to", "Give the end of the range with --to (Java: Scan.incremental(begin, end)).");
    }
    if (options.includeDeletes()) {
      throw Errors.unsupported("Deleted rows (--include-deletes) in an incremental query on a Hudi table of version "
          + version, "Hudi 1.x's incremental query over completion times returns the rows a range wrote, without "
          + "the keys it deleted; drop --include-deletes (deleted keys are absent from the result).");
    }
    CompletionRange range = CompletionRange.of(options.beginInstant(), options.endInstant(), version);
    Schema full = snapshot.fullSchema();
    Schema output = SnapshotPlanner.outputSchema(full, options);
    List<Instant> chosen = chosen(range);
    if (chosen.isEmpty()) {
      return empty(output, options.limit());
    }
    List<String> times = chosen.stream().map(Instant::time).toList();
    Expression inRange = Expressions.in(MetaFields.COMMIT_TIME, new ArrayList<>(times));
    Expression combined = options.filter().map(f -> Expressions.and(f, inRange)).orElse(inRange);
    if (mayReachArchive(range)) {
      return fallback(options, combined, range, "writes that completed in the range are archived (Hudi 1.x's archive "
          + "under .hoodie/timeline/history), their commit files gone from the active timeline");
    }
    TimelineStore store = new TimelineStore(storage, basePath, timeline.layout());
    Map<String, Map<String, WriteStat>> affected = new TreeMap<>();
    for (Instant i : chosen) {
      if (i.action() == Action.COMPACTION || i.action() == Action.LOGCOMPACTION) {
        i = Instant.completed(i.time(), i.action() == Action.COMPACTION ? Action.COMMIT : Action.DELTACOMMIT);
      }
      Optional<CommitMetadata> md = store.readCommitMetadata(i);
      if (md.isEmpty()) {
        return fallback(options, combined, range, "the commit file of " + i.time() + " is gone (archived)");
      }
      for (WriteStat s : md.get().allStats()) {
        if (s.path().isPresent() && !s.fileId().isEmpty()) {
          affected.computeIfAbsent(s.partitionPath(), k -> new TreeMap<>()).put(StoragePaths.name(s.path().get()), s);
        }
      }
    }
    Optional<BoundExpression> userFilter = options.filter().map(e -> ExpressionBinder.bind(e, full));
    AffectedFiles listing = new AffectedFiles(storage, basePath, affected);
    Optional<String> missing = listing.missing(userFilter, tableConfig);
    if (missing.isPresent()) {
      return fallback(options, combined, range, "file " + missing.get() + " that the range wrote was cleaned");
    }
    FileSystemView view = FileSystemView.of(storage, basePath, timeline, listing);
    String last = times.get(times.size() - 1);
    boolean mor = tableConfig.type() == TableType.MERGE_ON_READ;
    List<FileSlice> slices = new ArrayList<>();
    for (String partition : listing.partitions()) {
      if (userFilter.isPresent() && !userFilter.get().mightMatchPartition(
          PartitionValues.parse(partition, tableConfig.partitionFields(), tableConfig.hiveStylePartitioning()))) {
        continue;
      }
      for (FileSlice s : view.latestMergedSlicesBeforeOrOn(partition, last)) {
        if (mor && !s.isEmpty()) {
          slices.add(s);
        } else if (!mor && s.baseFile().isPresent()) {
          slices.add(new FileSlice(s.id(), s.baseInstant(), s.baseFile(), List.of()));
        }
      }
    }
    Optional<BoundExpression> bound = Optional.of(ExpressionBinder.bind(combined, full));
    Set<String> readColumns = ScanPlan.readColumns(output, bound, bound.get().columns());
    int threads = snapshot.parallelism(options);
    // log blocks are read up to the table's latest completed write, as Hudi's relation reads them
    String queryInstant = timeline.writeTimeline().completed().lastInstant().map(Instant::time).orElse(last);
    Optional<LogMerge> merge = mor ? Optional.of(snapshot.logMerge(view.timeline(), queryInstant, threads))
        : Optional.empty();
    Schema mergeSchema = mor ? snapshot.mergeSchema(full, readColumns) : output;
    return new ScanPlan(storage, slices, output, bound, readColumns, options.limit(), merge, mergeSchema, threads);
  }

  /**
   * The completed instants whose completion time is in the range, in requested-time order
   * ({@code getCommitsAndCompactionTimeline().filterCompletedAndCompactionInstants()}, a compaction completed as a
   * commit).
   */
  private List<Instant> chosen(CompletionRange range) {
    Timeline writes = timeline.filter(i -> i.isCompleted() && isWrite(i.action()));
    List<Instant> out = new ArrayList<>();
    for (Instant i : writes.instants()) {
      if (range.contains(completion(i))) {
        out.add(i);
      }
    }
    return out;
  }

  private static boolean isWrite(Action a) {
    return a == Action.COMMIT || a == Action.DELTACOMMIT || a == Action.REPLACECOMMIT || a == Action.COMPACTION
        || a == Action.LOGCOMPACTION;
  }

  /** The completion time of a completed instant: from its file name, else (left so by an upgrade) its own time. */
  private String completion(Instant i) {
    return timeline.completionTime(i.time()).orElse(i.time());
  }

  /**
   * True if a write only in the archive completed inside the range: the table has an LSM archive, the range starts
   * before the earliest completion time on the active timeline, and the archive holds a commit, delta commit or
   * replacecommit whose completion time is in the range. Their commit files are gone from the active timeline, so
   * such a range falls back to a full scan (or is refused) as before.
   */
  private boolean mayReachArchive(CompletionRange range) {
    String history = StoragePaths.join(timeline.layout().folder(basePath), "history");
    List<FileInfo> files;
    try {
      files = storage.list(history);
    } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException e) {
      // no archive folder: nothing was archived
      return false;
    } catch (IOException e) {
      throw Errors.storage("list the archived timeline", history, e);
    }
    if (files.stream().noneMatch(f -> f.name().startsWith("manifest_"))) {
      return false;
    }
    Optional<String> earliest = timeline.completed().instants().stream().map(this::completion)
        .min(String::compareTo);
    boolean before = range.begin().isEmpty() || earliest.isEmpty()
        || InstantTimes.isBefore(range.begin().get(), earliest.get());
    if (!before) {
      return false;
    }
    // the range starts before the active timeline: only an archived write that completed inside it matters (Hudi
    // 1.x's IncrementalQueryAnalyzer reads the archive's completion times the same way)
    return LsmTimeline.of(storage, basePath, tableConfig).instants().stream()
        .anyMatch(a -> WRITE_ACTIONS.contains(a.action()) && range.contains(a.completionTime()));
  }

  private ScanPlan fallback(ScanOptions options, Expression combined, CompletionRange range, String reason) {
    String what = "The incremental query " + range;
    if (!settings.incrementalFallbackFullScan()) {
      throw Errors.badRequest(what, reason, "Start the range later (see 'sluice timeline'), or set "
          + ConfigKeys.INCR_FALLBACK_FULL_TABLE_SCAN.name() + "=true to scan the whole table instead (the latest "
          + "snapshot's rows whose commit time is an instant of the range).");
    }
    ScanOptions full = options.withQueryType(QueryType.SNAPSHOT).withRange(Optional.empty(), Optional.empty())
        .withFilter(Optional.of(combined));
    return snapshot.plan(full);
  }

  private ScanPlan empty(Schema output, long limit) {
    return new ScanPlan(storage, List.of(), output, Optional.empty(), Set.of(MetaFields.RECORD_KEY), limit,
        Optional.empty(), output);
  }

  /**
   * The files the range's instants wrote, as a listing: only those still on storage (one list per partition), with
   * their sizes from storage.
   */
  private static final class AffectedFiles implements FileListing {
    private final Storage storage;
    private final String basePath;
    private final Map<String, Map<String, WriteStat>> byPartition;
    private final Map<String, List<FileInfo>> present = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();

    AffectedFiles(Storage storage, String basePath, Map<String, Map<String, WriteStat>> byPartition) {
      this.storage = storage;
      this.basePath = basePath;
      this.byPartition = byPartition;
    }

    /** The first affected file (in a partition the filter may match) that is no longer on storage. */
    Optional<String> missing(Optional<BoundExpression> filter, TableConfig config) {
      for (String partition : byPartition.keySet()) {
        if (filter.isPresent() && !filter.get().mightMatchPartition(
            PartitionValues.parse(partition, config.partitionFields(), config.hiveStylePartitioning()))) {
          continue;
        }
        Set<String> names = new HashSet<>();
        files(partition).forEach(f -> names.add(f.name()));
        for (String name : byPartition.get(partition).keySet()) {
          if (!names.contains(name)) {
            return Optional.of((partition.isEmpty() ? "" : partition + "/") + name);
          }
        }
      }
      return Optional.empty();
    }

    @Override
    public List<String> partitions() {
      return List.copyOf(byPartition.keySet());
    }

    @Override
    public List<FileInfo> files(String partition) {
      return present.computeIfAbsent(partition, p -> {
        Map<String, WriteStat> wanted = byPartition.getOrDefault(p, Map.of());
        String dir = p.isEmpty() ? basePath : StoragePaths.join(basePath, p);
        try {
          calls.incrementAndGet();
          return storage.list(dir).stream().filter(f -> !f.directory() && wanted.containsKey(f.name())).toList();
        } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException e) {
          // the partition is gone (deleted): none of its files is present
          return List.of();
        } catch (IOException e) {
          throw Errors.storage("list the partition", dir, e);
        }
      });
    }

    @Override
    public long listCalls() {
      return calls.get();
    }

    @Override
    public String source() {
      return "storage";
    }
  }

  /**
   * A range of completion times: ({@code begin}, {@code end}], either side open when absent ({@code begin} absent
   * means Hudi's {@code earliest}).
   */
  record CompletionRange(Optional<String> begin, Optional<String> end) {
    private static final java.util.regex.Pattern INSTANT = java.util.regex.Pattern.compile("[0-9]{17}");

    static CompletionRange of(Optional<String> begin, Optional<String> end, int version) {
      String b = begin.orElseThrow(() -> Errors.badInput("the incremental query", null, "no start given",
          "--from COMPLETION_TIME or --from earliest (Java: Scan.incremental(begin)): on a table of version "
              + version + " the rows of the instants completed after that time are returned"));
      Optional<String> from = b.equalsIgnoreCase(EARLIEST) ? Optional.empty() : Optional.of(check("--from", b));
      Optional<String> to = end.map(e -> check("--to", e));
      if (from.isPresent() && to.isPresent() && InstantTimes.isBefore(to.get(), from.get())) {
        throw Errors.badInput("the incremental range", null, "--to " + to.get() + " is before --from " + from.get(),
            "an end completion time at or after the start");
      }
      return new CompletionRange(from, to);
    }

    private static String check(String option, String time) {
      if (!INSTANT.matcher(time).matches()) {
        throw Errors.badInput(option + " '" + time + "'", null, "not a completion time",
            "17 digits, yyyyMMddHHmmssSSS, as 'sluice timeline' shows them after 'completed'"
                + (option.equals("--from") ? ", or 'earliest'" : ""));
      }
      if (!IncrementalRange.isDateAndTime(time)) {
        throw Errors.badInput(option + " '" + time + "'", null, "not a valid date and time",
            "17 digits, yyyyMMddHHmmssSSS, as 'sluice timeline' shows them after 'completed'");
      }
      return time;
    }

    boolean contains(String completion) {
      return begin.map(b -> InstantTimes.isBefore(b, completion)).orElse(true)
          && end.map(e -> InstantTimes.isBeforeOrEqual(completion, e)).orElse(true);
    }

    @Override
    public String toString() {
      return "(" + begin.orElse(EARLIEST) + ", " + end.orElse("latest") + "] of completion times";
    }
  }
}
