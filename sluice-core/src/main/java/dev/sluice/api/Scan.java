package dev.sluice.api;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.read.ScanPlan;
import dev.sluice.internal.read.ScanPlanner;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * An immutable query builder: each method returns a new scan. {@link #open()} starts reading.
 *
 * <pre>{@code
 * try (CloseableIterator<GenericRecord> rows = table.newScan().select("id", "ts").filter(Expressions.gt("ts", 5L)).open()) {
 *   rows.forEachRemaining(System.out::println);
 * }
 * }</pre>
 */
public final class Scan {
  private final ScanOptions options;
  private final ScanPlanner planner;
  private final Optional<Consumer<CorruptBlockInfo>> onCorruptBlock;
  private final ProgressListener progress;
  private final Optional<FileSliceInfo> onlySlice;

  /** A scan with {@code options}, planned by {@code planner} (the table's). */
  Scan(ScanOptions options, ScanPlanner planner) {
    this(options, planner, Optional.empty(), ProgressListener.NONE, Optional.empty());
  }

  private Scan(ScanOptions options, ScanPlanner planner,
      Optional<Consumer<CorruptBlockInfo>> onCorruptBlock, ProgressListener progress, Optional<FileSliceInfo> onlySlice) {
    this.options = options;
    this.planner = planner;
    this.onCorruptBlock = onCorruptBlock;
    this.progress = progress;
    this.onlySlice = onlySlice;
  }

  /**
   * Reports to {@code listener} how many of the planned file slices have been read ({@link Progress.Step#SCAN}): one
   * report as {@link #open()} starts, then as slices are read to their end and every thousand or so rows returned
   * (counted in {@link Progress#records()}, at most ten reports a second), and a last one when the rows run out or
   * the iterator is closed (below the total when a limit or an early close cut the scan short).
   */
  public Scan onProgress(ProgressListener listener) {
    return new Scan(options, planner, onCorruptBlock, Objects.requireNonNull(listener, "listener"), onlySlice);
  }

  /**
   * Calls {@code listener} for every corrupt log block the scan skips (a block cut short or damaged that no rollback
   * accounts for: the rows it held, if any, are not returned), as the slice holding it is read; with a parallelism
   * above 1 from the reading threads. Without a listener each one is logged as a warning through
   * {@link System#getLogger}. {@link Table#repair} drops such blocks for good.
   */
  public Scan onCorruptBlock(Consumer<CorruptBlockInfo> listener) {
    return new Scan(options, planner, Optional.of(Objects.requireNonNull(listener, "listener")), progress,
        onlySlice);
  }

  /** Only these user columns, in this order. */
  public Scan select(List<String> columns) {
    return with(options.withColumns(columns));
  }

  /** Only these user columns, in this order. */
  public Scan select(String... columns) {
    return select(List.of(columns));
  }

  /** Only rows matching {@code filter}. */
  public Scan filter(Expression filter) {
    return with(options.withFilter(Optional.of(filter)));
  }

  /** The snapshot as of instant {@code instantTime} ({@code yyyyMMddHHmmssSSS}). */
  public Scan asOf(String instantTime) {
    return with(options.withAsOf(Optional.of(asOfInstant(instantTime))));
  }

  /** Also return the {@code _hoodie_*} meta columns (first). */
  public Scan withMetaColumns(boolean include) {
    return with(options.withMetaColumns(include));
  }

  /** At most {@code n} rows. */
  public Scan limit(long n) {
    return with(options.withLimit(n));
  }

  /** Snapshot (default), read-optimized or incremental (then give the range with {@link #incremental}). */
  public Scan queryType(QueryType type) {
    return with(options.withQueryType(type));
  }

  /**
   * An incremental query of the instants after {@code beginInstant} up to the latest completed write: the latest
   * state of every record whose latest version one of them wrote.
   */
  public Scan incremental(String beginInstant) {
    return with(options.withQueryType(QueryType.INCREMENTAL).withRange(Optional.of(beginInstant), Optional.empty()));
  }

  /**
   * An incremental query of the instants in ({@code beginInstant}, {@code endInstant}]: the state as of
   * {@code endInstant} of every record whose latest version (as of then) one of them wrote.
   */
  public Scan incremental(String beginInstant, String endInstant) {
    return with(options.withQueryType(QueryType.INCREMENTAL)
        .withRange(Optional.of(beginInstant), Optional.of(endInstant)));
  }

  /**
   * A time-travel instant as given by a caller: digits only ({@code yyyyMMddHHmmssSSS}, or a prefix of it). Anything
   * else would compare with the timeline's instants as text and silently mean "before everything" or "after
   * everything" (a NUL or a letter read the latest snapshot). Incremental ranges are checked when planned.
   */
  private static String asOfInstant(String t) {
    if (t == null || t.isEmpty() || t.length() > 17 || !t.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw Errors.badInput("--as-of " + (t == null ? "null" : "'" + t.replace("\0", "\\0") + "'"), null,
          "not an instant time", "digits, yyyyMMddHHmmssSSS, as 'sluice timeline' shows them");
    }
    return t;
  }

  /**
   * Incremental queries: also return the records deleted in the range, as their version at the range's start
   * with an extra boolean column {@code _hoodie_is_deleted} = true (false on the other rows).
   */
  public Scan includeDeletes(boolean include) {
    return with(options.withIncludeDeletes(include));
  }

  /**
   * Reads file slices on up to {@code threads} threads (default: the table's {@code sluice.read.parallelism},
   * itself 1). Each thread reads whole slices (log merge, projection and filter included) and hands rows over in
   * batches through a bounded queue, so memory grows with the thread count, not the table. The rows come in the
   * same order as with one thread (the slices' plan order), so a query's result does not depend on its thread
   * count; a limit returns exactly that many rows. Closing the iterator stops the threads. (Incremental queries with
   * {@link #includeDeletes} compare two states and read on one thread.)
   */
  public Scan parallelism(int threads) {
    if (threads < 1) {
      throw Errors.badRequest("scan parallelism " + threads, "must be at least 1", "pass 1 or more threads");
    }
    return with(options.withParallelism(Optional.of(threads)));
  }

  /** The options so far. */
  public ScanOptions options() {
    return options;
  }

  /**
   * The schema of the rows {@link #open()} returns. It reads the table's latest schema, not its file listing: asking
   * for it before {@link #open()} does not plan the scan twice. Options a plan refuses are refused by {@link #open()}.
   */
  public Schema schema() {
    return planner.outputSchema(options);
  }

  /**
   * The file slices this scan reads, as planned now (partition pruning applied; for a Merge-on-Read snapshot with
   * their log files), in plan order. A distributed reader plans with this on its driver and reads each slice in its
   * own task with {@link #onlySlice}.
   */
  public List<FileSliceInfo> slices() {
    return plan().slices().stream().map(Infos::slice).toList();
  }

  /**
   * This scan narrowed to one of the slices {@link #slices()} returned: {@link #open()} plans the scan again (on
   * another machine, say), reads only that file group's slice, and throws a conflict
   * ({@link SluiceException.Kind#CONFLICT}) if the table's slice is no longer the same files (a commit, compaction
   * or clean landed in between), rather than mixing two states of the table in one query. A slice the scan no
   * longer plans counts as changed too.
   */
  public Scan onlySlice(FileSliceInfo slice) {
    return new Scan(options, planner, onCorruptBlock, progress, Optional.of(Objects.requireNonNull(slice, "slice")));
  }

  /** Plans the scan (file listing, pruning) without reading rows (engine tests look at the plan). */
  ScanPlan plan() {
    ScanPlan plan = planner.plan(options);
    if (onlySlice.isEmpty()) {
      return plan;
    }
    FileSliceInfo expected = onlySlice.get();
    ScanPlan one = plan.onlyFileGroup(new FileGroupId(expected.partitionPath(), expected.fileId()));
    List<FileSliceInfo> found = one.slices().stream().map(Infos::slice).toList();
    if (!found.equals(List.of(expected))) {
      throw Errors.conflict("Reading file slice " + expected.fileId() + " of partition '" + expected.partitionPath()
          + "' (base instant " + expected.baseInstant() + ")", "the table changed since the scan was planned: it now"
          + (found.isEmpty() ? " has no such slice" : " reads " + describe(found.get(0)))
          + "; plan the query again");
    }
    return one;
  }

  private static String describe(FileSliceInfo s) {
    return "base instant " + s.baseInstant() + " with " + s.logFiles().size() + " log file(s)";
  }

  /** Reads the rows; close the iterator to release open files. */
  public CloseableIterator<GenericRecord> open() {
    ScanPlan plan = plan();
    return onCorruptBlock.isPresent() ? plan.open(b -> onCorruptBlock.get().accept(Infos.corrupt(b)), progress)
        : plan.open(ScanPlan::logSkipped, progress);
  }

  private Scan with(ScanOptions o) {
    return new Scan(o, planner, onCorruptBlock, progress, onlySlice);
  }
}
