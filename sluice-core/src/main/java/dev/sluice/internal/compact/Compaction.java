package dev.sluice.internal.compact;

import dev.sluice.api.Progress;
import dev.sluice.api.ProgressListener;
import dev.sluice.api.WriteToken;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.internal.util.ParsedSchemas;
import dev.sluice.internal.util.ProgressMeter;
import dev.sluice.api.CompactionScheduling;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.commit.ConcurrencyMode;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.mdt.write.MetadataTableWriter;
import dev.sluice.storage.Storage;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.TimelineStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Compaction of a Merge-on-Read table in Hudi 0.15's format: {@link #schedule} plans one into
 * {@code <ts>.compaction.requested}, {@link #run} carries a plan out and completes it as {@code <ts>.commit}. Plans
 * written by Hudi run here and plans written here run in Hudi. With optimistic concurrency control, scheduling and
 * the commit take the table lock.
 */
public final class Compaction {
  private final Storage storage;
  private final String basePath;
  private final CompactionSettings settings;
  private final CommitSettings commit;
  private final Supplier<BaseFileWriterOptions> fileOptions;

  private Compaction(Storage storage, String basePath, CompactionSettings settings, CommitSettings commit,
      Supplier<BaseFileWriterOptions> fileOptions) {
    this.storage = storage;
    this.basePath = basePath;
    this.settings = settings;
    this.commit = commit;
    this.fileOptions = fileOptions;
    // the concurrency mode is checked now; the lock options when the lock is first needed
    ConcurrencyMode.of(commit);
  }

  /**
   * Compaction of the table at {@code basePath}; checks the concurrency mode, does no I/O. {@code fileOptions} is
   * asked for the base file options when a compaction runs (and may refuse bad ones then), not before: scheduling
   * does not write base files.
   */
  public static Compaction of(Storage storage, String basePath, CompactionSettings settings, CommitSettings commit,
      Supplier<BaseFileWriterOptions> fileOptions) {
    return new Compaction(storage, basePath, settings, commit, fileOptions);
  }

  /** The settings in force. */
  public CompactionSettings settings() {
    return settings;
  }

  /**
   * Plans a compaction if the trigger ({@code hoodie.compact.inline.trigger.strategy}) fires and some file slice has
   * log files; returns its instant, or empty if nothing was planned.
   */
  public Optional<String> schedule() {
    return schedule(false);
  }

  /** Plans a compaction of the slices with log files whatever the trigger says; empty if there are none. */
  public Optional<String> scheduleNow() {
    return schedule(true);
  }

  private Optional<String> schedule(boolean force) {
    return attemptSchedule(force).instant();
  }

  /**
   * Plans a compaction as {@link #schedule()} (or, with {@code force}, {@link #scheduleNow()}) and says why when
   * nothing was planned.
   */
  public CompactionScheduling attemptSchedule(boolean force) {
    requireMergeOnRead("Scheduling a compaction");
    InstantLifecycle lifecycle = lifecycle();
    return lifecycle.locked("schedule a compaction", () -> new CompactionScheduler(storage, basePath, settings, lifecycle,
        commit.metadataEnabled()).attempt(force));
  }

  /**
   * Runs the pending compaction at {@code instantTime}: an attempt that died is rolled back first, then every slice
   * of the plan is compacted and the compaction committed.
   */
  public CompactionResult run(String instantTime) {
    return run(instantTime, ProgressListener.NONE);
  }

  /** Runs the pending compaction at {@code instantTime} as {@link #run(String)}, reporting to {@code progress}. */
  public CompactionResult run(String instantTime, ProgressListener progress) {
    return run(instantTime, progress, Optional.empty());
  }

  /**
   * Runs the pending compaction at {@code instantTime} as {@link #run(String)}, its slices compacted by
   * {@code runner} (a cluster engine's tasks, each through {@link #compactSlice}); the commit is made here.
   */
  public CompactionResult run(String instantTime, SliceRunner runner) {
    return run(instantTime, ProgressListener.NONE, Optional.of(runner));
  }

  private CompactionResult run(String instantTime, ProgressListener progress, Optional<SliceRunner> runner) {
    requireMergeOnRead("Running compaction " + instantTime);
    // a compaction changes the file listing too: the metadata table is kept (or, when off, removed) as for a write
    MetadataTableWriter.prepare(storage, basePath, commit);
    return new CompactionExecutor(storage, basePath, fileOptions, settings, lifecycle(), commit.metadataEnabled())
        .run(instantTime, progress, runner);
  }

  /**
   * Compacts operation {@code index} of {@code job} (its compaction inflight) as task attempt {@code token}, with
   * the code a single-machine run uses; the new base file's write stat, or empty if the slice yields none. The file
   * is behind a marker of the instant, so that an attempt whose stat is not committed is deleted.
   */
  public Optional<WriteStat> compactSlice(SliceJob job, int index, WriteToken token) {
    if (index < 0 || index >= job.operations().size()) {
      throw Errors.badRequest("Compacting a slice of " + job.instant(), "operation " + index + " is not in the plan"
          + " of " + job.operations().size(), "Name an operation of the plan.");
    }
    TableConfig tc = TableConfigStore.read(storage, basePath);
    Timeline tl = new TimelineStore(storage, basePath).load();
    SliceCompactor compactor = SliceCompactor.of(storage, basePath, tc, ParsedSchemas.parse(job.userSchema()), tl,
        job.maxInstant(), job.memoryBudget(), settings.spillDirectory(), fileOptions.get(), job.instant());
    return compactor.compact(job.operations().get(index), token,
        ProgressMeter.start(ProgressListener.NONE, Progress.Step.COMPACTION, 1, 1));
  }

  /** Runs every pending compaction, oldest first, and returns what each did. */
  public List<CompactionResult> runPending() {
    List<CompactionResult> out = new ArrayList<>();
    for (String t : pending()) {
      out.add(run(t));
    }
    return out;
  }

  /** The instants of pending (requested or inflight) compactions, oldest first. */
  public List<String> pending() {
    List<String> out = new ArrayList<>();
    for (Instant i : new TimelineStore(storage, basePath).load().pendingCompactions()) {
      out.add(i.time());
    }
    return out;
  }

  /** The plan of a pending compaction. */
  public CompactionPlan plan(String instantTime) {
    TimelineStore store = new TimelineStore(storage, basePath);
    Instant requested = Instant.requested(instantTime, Action.COMPACTION);
    byte[] bytes = store.readIfExists(requested).orElseThrow(() -> Errors.badRequest("The compaction plan of "
        + instantTime, "there is no " + requested.fileName(), "Name a pending compaction (sluice timeline TABLE)."));
    return CompactionPlan.fromAvroBytes(bytes, store.pathOf(requested));
  }

  private void requireMergeOnRead(String what) {
    if (TableConfigStore.read(storage, basePath).type() != TableType.MERGE_ON_READ) {
      throw Errors.badRequest(what, "the table at " + basePath + " is Copy-on-Write; only Merge-on-Read tables have "
          + "log files to compact", "Compact a table created with --type mor.");
    }
  }

  /** The lifecycle of the table's instants; made when used, so that the lock options are read then. */
  private InstantLifecycle lifecycle() {
    return InstantLifecycle.of(storage, basePath, commit);
  }
}
