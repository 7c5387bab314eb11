package dev.sluice.internal.compact;

import dev.sluice.api.Progress;
import dev.sluice.api.ProgressListener;
import dev.sluice.api.WriteToken;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.commit.InstantAction;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.commit.Publish;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.mdt.write.FilesChange;
import dev.sluice.internal.mdt.write.MetadataTableWriter;
import dev.sluice.internal.rollback.Rollbacks;
import dev.sluice.storage.Storage;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.schema.TableSchema;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.internal.util.Parallel;
import dev.sluice.internal.util.ProgressMeter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.avro.Schema;

/**
 * Runs a planned compaction ({@code RunCompactionActionExecutor}, {@code HoodieCompactor}) through the instant
 * lifecycle: an inflight one (a compactor that died) is first rolled back to requested; then requested → inflight
 * (empty file), every slice of the plan compacted in parallel, and {@code <ts>.commit} published with the write
 * stats, {@code compacted: true} and operation COMPACT (under the table lock with optimistic concurrency control).
 * On table versions 8/9 the completed file is {@code <ts>_<completion>.commit}, named with a completion time taken
 * under the lock as a write's, and its content is Avro; the new base files are named after {@code <ts>}, and logs of
 * delta commits completed after the plan was requested stay in the slice the plan opened.
 * Its markers go last. One run of a plan at a time: the run holds the plan's lock ({@link InstantLifecycle#exclusive}).
 */
final class CompactionExecutor {
  private final Storage storage;
  private final String basePath;
  private final Supplier<BaseFileWriterOptions> fileOptions;
  private final CompactionSettings settings;
  private final InstantLifecycle lifecycle;
  private final TimelineStore store;
  private final boolean metadataEnabled;

  CompactionExecutor(Storage storage, String basePath, Supplier<BaseFileWriterOptions> fileOptions,
      CompactionSettings settings, InstantLifecycle lifecycle, boolean metadataEnabled) {
    this.storage = storage;
    this.basePath = basePath;
    this.fileOptions = fileOptions;
    this.settings = settings;
    this.lifecycle = lifecycle;
    this.store = new TimelineStore(storage, basePath);
    this.metadataEnabled = metadataEnabled;
  }

  /**
   * Runs the pending compaction at {@code time}; a CONFLICT if another run of it (another thread, or with a
   * file-system lock another process) is under way, since it would roll this one's output back as a dead attempt's.
   */
  CompactionResult run(String time, ProgressListener progress, Optional<SliceRunner> runner) {
    return lifecycle.exclusive("Running compaction " + time, Instant.requested(time, Action.COMPACTION),
        () -> runOnce(time, progress, runner));
  }

  private CompactionResult runOnce(String time, ProgressListener progress, Optional<SliceRunner> runner) {
    Timeline tl = store.load();
    Rollbacks.requireNoPendingRestore(tl, "Running compaction " + time);
    Optional<Instant> pending = tl.filter(i -> i.time().equals(time) && i.action() == Action.COMPACTION).lastInstant();
    if (pending.isEmpty()) {
      String state = tl.isCompaction(time) && tl.isCompleted(time) ? "it has completed already"
          : "the table has no pending compaction at that instant";
      throw Errors.badRequest("Running compaction " + time, state,
          "Name a pending compaction (sluice timeline TABLE shows them).");
    }
    // an earlier attempt died: its partial files go first, and a rollback of it that died is finished
    new Rollbacks(storage, basePath, lifecycle.concurrentWriters()).rollbackInflightCompaction(time);
    tl = store.load();
    Instant requested = Instant.requested(time, Action.COMPACTION);
    CompactionPlan plan = CompactionPlan.fromAvroBytes(store.read(requested), store.pathOf(requested));
    TableConfig tc = TableConfigStore.read(storage, basePath);
    Schema userSchema = TableSchema.resolve(storage, basePath, tl, tc);
    CommitMetadata md = lifecycle.run(requested, Publish.UNDER_LOCK, "commit compaction " + time,
        new InstantAction<CommitMetadata>() {
          @Override
          public CommitMetadata execute(Instant inflight) {
            return compact(time, plan, tc, userSchema, progress, runner);
          }

          @Override
          public boolean writesMarkers() {
            return true;
          }

          @Override
          public byte[] metadata(CommitMetadata result) {
            // JSON on version 6, Hudi 1.x's Avro HoodieCommitMetadata on versions 8/9
            return store.layout().encode(result);
          }

          @Override
          public void beforePublish(Instant inflight, CommitMetadata result) {
            if (metadataEnabled) {
              MetadataTableWriter.of(storage, basePath).commit(time, FilesChange.ofCommit(result));
            }
          }
        });
    return new CompactionResult(time, md);
  }

  /**
   * Compacts every slice of {@code plan} (the compaction is inflight) through {@code runner} (empty: this machine's
   * threads) and returns the commit's metadata. Files under the instant's markers that no returned stat names (a
   * failed or duplicate task attempt's) are deleted first.
   */
  private CommitMetadata compact(String time, CompactionPlan plan, TableConfig tc, Schema userSchema,
      ProgressListener progress, Optional<SliceRunner> runner) {
    Timeline now = store.load();
    SliceJob job = new SliceJob(time, plan.operations(), userSchema.toString(), maxInstant(now, time),
        settings.memoryBudget());
    List<Optional<WriteStat>> stats = runner.isPresent() ? runner.get().compact(job)
        : compactHere(job, tc, userSchema, now, progress);
    if (stats.size() != plan.operations().size()) {
      throw Errors.badRequest("Completing compaction " + time, "the slices returned " + stats.size()
          + " results for " + plan.operations().size() + " operations", "Return one result per operation.");
    }
    Map<String, List<WriteStat>> byPartition = new TreeMap<>();
    Set<String> written = new HashSet<>();
    for (Optional<WriteStat> s : stats) {
      s.ifPresent(w -> {
        byPartition.computeIfAbsent(w.partitionPath(), p -> new ArrayList<>()).add(w);
        w.path().ifPresent(written::add);
      });
    }
    // a retried or speculative task's other attempt left its file behind a marker: it must not join the table
    lifecycle.markers(time).reconcile(written);
    Map<String, String> extra = new LinkedHashMap<>();
    extra.put(CommitMetadata.SCHEMA_KEY, userSchema.toString());
    extra.putAll(plan.extraMetadata());
    CommitMetadata md = new CommitMetadata(byPartition, true, extra, WriteOperationType.COMPACT);
    // the point is outside the lock the publish takes
    KillPoints.reach("compaction.publish.before");
    return md;
  }

  /** Compacts the slices of {@code job} on this machine's threads; the stats in plan order. */
  private List<Optional<WriteStat>> compactHere(SliceJob job, TableConfig tc, Schema userSchema, Timeline now,
      ProgressListener progress) {
    List<CompactionOperation> ops = job.operations();
    int threads = Math.min(settings.parallelism(), Math.max(1, ops.size()));
    // the slices compacted at once share the merge budget
    SliceCompactor compactor = SliceCompactor.of(storage, basePath, tc, userSchema, now, job.maxInstant(),
        Math.max(1, job.memoryBudget() / threads), settings.spillDirectory(), fileOptions.get(), job.instant());
    List<Integer> tasks = new ArrayList<>();
    for (int i = 0; i < ops.size(); i++) {
      tasks.add(i);
    }
    // largest slices first, so the threads finish together: a big slice started last would run alone while the
    // other threads idle (slices differ tenfold: a table's first file groups hold most rows and updates)
    tasks.sort(Comparator.comparingDouble((Integer i) -> -ops.get(i).metric(
        CompactionOperation.TOTAL_IO_READ_MB)).thenComparing(i -> i));
    ProgressMeter meter = ProgressMeter.start(progress, Progress.Step.COMPACTION, tasks.size(), 1);
    List<Optional<WriteStat>> done = Parallel.map(tasks, threads, i -> {
      Optional<WriteStat> stat = compactor.compact(ops.get(i), WriteToken.of(i), meter);
      meter.advance(1);
      return stat;
    });
    meter.finish();
    // the commit lists the write stats in plan order, whatever order the slices ran in
    List<Optional<WriteStat>> stats = new ArrayList<>(Collections.nCopies(tasks.size(), Optional.empty()));
    for (int k = 0; k < tasks.size(); k++) {
      stats.set(tasks.get(k), done.get(k));
    }
    return stats;
  }

  /**
   * The newest completed commit, delta commit or rollback ({@code getMaxInstantTime}): log blocks up to it are read.
   * With none (a plan over archived history), the compaction instant itself.
   */
  private static String maxInstant(Timeline tl, String time) {
    return tl.filter(i -> i.isCompleted() && (i.action() == Action.COMMIT || i.action() == Action.DELTACOMMIT
        || i.action() == Action.ROLLBACK)).lastInstant().map(Instant::time).orElse(time);
  }
}
