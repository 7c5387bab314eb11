package dev.sluice.internal.compact;

import dev.sluice.api.CompactionScheduling;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.rollback.Rollbacks;
import dev.sluice.storage.Storage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.util.KillPoints;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Plans a compaction ({@code ScheduleCompactionActionExecutor}, {@code HoodieCompactionPlanGenerator}): if the
 * trigger fires, every latest file slice with log files that no pending compaction or clustering holds is a
 * candidate, the strategy picks among them, and the plan is written as {@code <ts>.compaction.requested}. Nothing is
 * written when there is nothing to compact. From then on writers append to those file groups in a new slice at
 * {@code <ts>} (on versions 8/9 a log joins it when its delta commit completes after {@code <ts>}, whatever instant
 * names it), and readers merge it with the slice the plan compacts.
 */
final class CompactionScheduler {
  private final Storage storage;
  private final String basePath;
  private final CompactionSettings settings;
  private final InstantLifecycle lifecycle;
  private final boolean multiWriter;
  private final TimelineStore store;
  private final boolean metadataEnabled;

  /** {@code metadataEnabled}: plan from the metadata table's listing when it is consistent with the timeline. */
  CompactionScheduler(Storage storage, String basePath, CompactionSettings settings, InstantLifecycle lifecycle,
      boolean metadataEnabled) {
    this.metadataEnabled = metadataEnabled;
    this.storage = storage;
    this.basePath = basePath;
    this.settings = settings;
    this.lifecycle = lifecycle;
    this.multiWriter = lifecycle.concurrentWriters();
    this.store = new TimelineStore(storage, basePath);
  }

  /** Plans a compaction if {@code force} or the trigger fires; the new instant, or empty if nothing was planned. */
  Optional<String> schedule(boolean force) {
    return attempt(force).instant();
  }

  /**
   * Plans a compaction if {@code force} or the trigger fires, and says why when it plans nothing: the trigger with
   * its figures, no slice with log files, every such slice busy, the strategy's choice, or a pending write.
   */
  CompactionScheduling attempt(boolean force) {
    Timeline tl = store.load();
    Rollbacks.requireNoPendingRestore(tl, "Scheduling a compaction of " + basePath);
    String time = newInstantTime(tl);
    if (!force) {
      Trigger trigger = trigger(tl, time);
      if (!trigger.fires()) {
        return notScheduled(trigger.noDeltaCommits() ? CompactionScheduling.Reason.NO_LOG_FILES
            : CompactionScheduling.Reason.TRIGGER_NOT_REACHED, trigger.explanation());
      }
    }
    if (!multiWriter) {
      // a write still running (or failed, not yet rolled back) before the plan would append to a slice the plan
      // freezes; Hudi's single-writer scheduler declines to plan then, and so does Sluice
      Optional<Instant> earliest = tl.filter(i -> !i.isCompleted() && i.action() != Action.COMPACTION
          && i.action() != Action.LOGCOMPACTION && i.action().writesData()).firstInstant();
      if (earliest.isPresent() && !InstantTimes.isBefore(time, earliest.get().time())) {
        return notScheduled(CompactionScheduling.Reason.WRITE_PENDING, "the " + earliest.get().action().name().toLowerCase(Locale.ROOT)
            + " " + earliest.get().time() + " is pending (running, or failed and not yet rolled back); a single writer"
            + " does not plan a compaction over it (it is rolled back by the next write)");
      }
    }
    Candidates candidates = candidates(tl);
    CompactionPlan plan = plan(candidates);
    if (plan.isEmpty()) {
      if (candidates.withLogs() == 0) {
        return notScheduled(CompactionScheduling.Reason.NO_LOG_FILES, "nothing to compact: no file slice has log files");
      }
      if (candidates.operations().isEmpty()) {
        return notScheduled(CompactionScheduling.Reason.SLICES_BUSY, "nothing to compact: all " + candidates.withLogs() + " file slices "
            + "with log files are in a pending compaction or clustering plan");
      }
      return notScheduled(CompactionScheduling.Reason.STRATEGY_CHOSE_NONE, "the compaction strategy " + settings.strategy()
          + " (hoodie.compaction.strategy) took none of the " + candidates.operations().size()
          + " file slices with log files");
    }
    // with other writers the time is checked against theirs, and a later one taken if it clashed
    java.util.Iterator<String> first = List.of(time).iterator();
    String planned = lifecycle.request(Action.COMPACTION, () -> first.hasNext() ? first.next() : newInstantTime(tl), tl,
        plan.toAvroBytes(tl.layout())).time();
    KillPoints.reach("compaction.planned");
    return new CompactionScheduling(Optional.of(planned), CompactionScheduling.Reason.SCHEDULED, "scheduled compaction "
        + planned + ": " + plan.operations().size() + " file groups" + (force ? " (the trigger ignored)" : ""));
  }

  private static CompactionScheduling notScheduled(CompactionScheduling.Reason reason, String explanation) {
    return new CompactionScheduling(Optional.empty(), reason, explanation);
  }

  /**
   * Where the trigger stands for a compaction at some time.
   *
   * @param fires whether a compaction is due
   * @param noDeltaCommits the table has no delta commit at all (nothing could have written a log file)
   * @param explanation the figures against the configured limits, when it does not fire
   */
  private record Trigger(boolean fires, boolean noDeltaCommits, String explanation) {
  }

  /** True if the trigger fires for a compaction at {@code time} ({@code needCompact}). */
  boolean due(Timeline tl, String time) {
    return trigger(tl, time).fires();
  }

  private Trigger trigger(Timeline tl, String time) {
    Optional<Instant> lastCompaction = tl.filter(i -> i.action() == Action.COMMIT && i.isCompleted()).lastInstant();
    Timeline deltas = tl.filter(i -> i.action() == Action.DELTACOMMIT);
    String since;
    int count;
    if (lastCompaction.isPresent()) {
      since = lastCompaction.get().time();
      count = deltas.after(since).instants().size();
    } else if (!deltas.isEmpty()) {
      since = deltas.firstInstant().get().time();
      count = deltas.instants().size();
    } else {
      return new Trigger(false, true, "nothing to compact: the table has no delta commits (no log files)");
    }
    long seconds = InstantTimes.toTime(time).getEpochSecond() - InstantTimes.toTime(since).getEpochSecond();
    boolean fires = settings.trigger().fires(count, seconds, settings.maxDeltaCommits(), settings.maxDeltaSeconds());
    String from = lastCompaction.isPresent() ? "since the last compaction " + since : "since the first delta commit " + since;
    String commits = count + " of " + settings.maxDeltaCommits() + " delta commits";
    String elapsed = seconds + " of " + settings.maxDeltaSeconds() + " seconds";
    String figures = switch (settings.trigger()) {
      case NUM_COMMITS -> commits + " " + from + " (hoodie.compact.inline.max.delta.commits=" + settings.maxDeltaCommits();
      case TIME_ELAPSED -> elapsed + " " + from + " (hoodie.compact.inline.max.delta.seconds="
          + settings.maxDeltaSeconds();
      case NUM_OR_TIME -> "neither " + commits + " nor " + elapsed + " " + from
          + " (hoodie.compact.inline.max.delta.commits=" + settings.maxDeltaCommits()
          + ", hoodie.compact.inline.max.delta.seconds=" + settings.maxDeltaSeconds();
      case NUM_AND_TIME -> commits + " and " + elapsed + " " + from + ", both needed (hoodie.compact.inline.max.delta"
          + ".commits=" + settings.maxDeltaCommits() + ", hoodie.compact.inline.max.delta.seconds="
          + settings.maxDeltaSeconds();
    };
    return new Trigger(fires, false, "the trigger is not reached: " + figures
        + ", hoodie.compact.inline.trigger.strategy=" + settings.trigger() + ")");
  }

  /**
   * The latest slices with log files that no pending compaction or clustering holds, and how many slices had log
   * files at all.
   */
  private record Candidates(List<CompactionOperation> operations, int withLogs) {
  }

  /** The plan over the table as {@code tl} shows it; empty if no slice qualifies. */
  CompactionPlan plan(Timeline tl) {
    return plan(candidates(tl));
  }

  private Candidates candidates(Timeline tl) {
    // as Hudi's writers, the plan lists through the metadata table when it is valid (no LIST of data partitions)
    FileSystemView view = metadataEnabled
        ? MetadataTables.view(storage, basePath, tl, TableConfigStore.read(storage, basePath), true)
        : FileSystemView.of(storage, basePath, tl);
    Set<FileGroupId> busy = new HashSet<>(view.pendingCompactionOperations().keySet());
    busy.addAll(PendingClustering.fileGroups(store, tl));
    List<CompactionOperation> candidates = new ArrayList<>();
    int withLogs = 0;
    // one batched lookup through the metadata table for every partition (a no-op when listing storage)
    view.prefetch(view.partitions());
    for (String partition : view.partitions()) {
      for (FileSlice s : view.latestSlices(partition)) {
        if (!s.logFiles().isEmpty()) {
          withLogs++;
          if (!busy.contains(s.id())) {
            candidates.add(operation(s));
          }
        }
      }
    }
    return new Candidates(candidates, withLogs);
  }

  private CompactionPlan plan(Candidates found) {
    List<CompactionOperation> candidates = found.operations();
    List<CompactionOperation> chosen = settings.strategy().orderAndFilter(candidates, settings);
    // Hudi 1.x records the partitions of the slices the strategy left out (missingSchedulePartitions)
    Set<String> missing = new LinkedHashSet<>();
    Set<CompactionOperation> kept = new HashSet<>(chosen);
    for (CompactionOperation op : candidates) {
      if (!kept.contains(op)) {
        missing.add(op.partitionPath());
      }
    }
    return new CompactionPlan(chosen, Map.of(), CompactionPlan.VERSION, List.copyOf(missing));
  }

  /** {@code CompactionUtils.buildFromFileSlice} with the strategy's metrics ({@code FileSliceMetricUtils}). */
  private CompactionOperation operation(FileSlice s) {
    long logBytes = 0;
    List<String> logs = new ArrayList<>();
    for (LogFile l : s.logFiles()) {
      logs.add(l.fileName());
      logBytes += Math.max(0, l.size());
    }
    long baseBytes = s.baseFile().map(b -> b.size()).orElse(0L);
    long readMb = mb(baseBytes + logBytes);
    long writeMb = mb(baseBytes > 0 ? baseBytes : settings.maxFileSize());
    Map<String, Double> metrics = new LinkedHashMap<>();
    metrics.put(CompactionOperation.TOTAL_IO_READ_MB, (double) readMb);
    metrics.put(CompactionOperation.TOTAL_IO_WRITE_MB, (double) writeMb);
    metrics.put(CompactionOperation.TOTAL_IO_MB, (double) (readMb + writeMb));
    metrics.put(CompactionOperation.TOTAL_LOG_FILES_SIZE, (double) logBytes);
    metrics.put(CompactionOperation.TOTAL_LOG_FILES, (double) logs.size());
    return new CompactionOperation(s.partitionPath(), s.fileId(), s.baseInstant(),
        s.baseFile().map(b -> b.fileName()), logs, metrics);
  }

  private static long mb(long bytes) {
    return bytes / (1024 * 1024);
  }

  /**
   * A new instant later than every write and pending compaction on the timeline (Hudi checks the same). On versions
   * 8/9 it is also later than every completion time there: a log whose delta commit completed after the plan's time
   * would join the slice the plan opens although the plan compacts it (Hudi 1.x takes both times from one
   * monotonic generator under the lock); if the clock is behind the latest completion, the time just after it.
   */
  private String newInstantTime(Timeline tl) {
    String time = InstantTimes.newInstantTime();
    if (tl.layout().slicesByCompletionTime()) {
      String latest = "";
      for (Instant i : tl.completed().instants()) {
        String c = tl.completionTime(i.time()).orElse(i.time());
        latest = c.compareTo(latest) > 0 ? c : latest;
      }
      if (!InstantTimes.isBefore(latest, time)) {
        time = tl.layout().newCompletionTime(latest).orElse(time);
      }
    }
    Optional<Instant> last = tl.lastInstant();
    if (last.isPresent() && !InstantTimes.isBefore(last.get().time(), time)) {
      throw Errors.badTable(basePath, "the instant " + last.get().time() + " is not earlier than the new compaction "
          + "instant " + time, "Check the clocks of the machines writing this table.");
    }
    return time;
  }
}
