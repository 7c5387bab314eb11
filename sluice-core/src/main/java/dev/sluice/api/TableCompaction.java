package dev.sluice.api;

import dev.sluice.internal.compact.Compaction;
import dev.sluice.internal.compact.CompactionResult;
import dev.sluice.internal.service.Compactor;
import dev.sluice.internal.timeline.WriteStat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Compaction of a Merge-on-Read table ({@link Table#compaction()}): schedule a plan, run one or all pending ones, or
 * keep running them in the background. Writes can schedule and run compactions themselves: see
 * {@code hoodie.compact.inline}, {@code hoodie.compact.schedule.inline} and {@code sluice.compact.async}.
 */
public final class TableCompaction {
  private final Compaction compaction;
  private final String basePath;
  private final Map<String, String> options;

  TableCompaction(Compaction compaction, String basePath, Map<String, String> options) {
    this.compaction = compaction;
    this.basePath = basePath;
    this.options = options;
  }

  /** Schedules a compaction if the trigger ({@code hoodie.compact.inline.trigger.strategy}) fires; its instant time. */
  public Optional<String> schedule() {
    return compaction.schedule();
  }

  /**
   * Schedules a compaction as {@link #schedule()} (or, with {@code force}, as {@link #scheduleNow()}) and says why
   * when nothing was scheduled: the trigger not reached (with its figures: delta commits or seconds since the last
   * compaction against {@code hoodie.compact.inline.max.delta.commits} / {@code hoodie.compact.inline.max.delta.seconds}),
   * no slice with log files, every such slice already planned, the strategy's choice, or a pending write.
   */
  public CompactionScheduling attemptSchedule(boolean force) {
    return compaction.attemptSchedule(force);
  }

  /** Schedules a compaction of every slice with log files, whatever the trigger says; its instant time. */
  public Optional<String> scheduleNow() {
    return compaction.scheduleNow();
  }

  /** Runs the pending compaction at {@code instantTime}. */
  public CompactionInfo run(String instantTime) {
    return run(instantTime, ProgressListener.NONE);
  }

  /**
   * Runs the pending compaction at {@code instantTime}, reporting to {@code progress} the file groups of its plan as
   * they are compacted and the records merged into them as they go ({@link Progress.Step#COMPACTION}).
   */
  public CompactionInfo run(String instantTime, ProgressListener progress) {
    return Infos.compaction(compaction.run(instantTime, Objects.requireNonNull(progress, "progress")));
  }

  /**
   * Runs the pending compaction at {@code instantTime} as {@link #run(String)} (an attempt that died rolled back
   * first, the instant inflight, the commit with its metadata-table mirror published here), its slices compacted by
   * {@code tasks}, a cluster engine's, each through {@link CompactionUnits#compact}. Before the commit, files under
   * the instant's markers that the results do not name (failed or duplicate attempts) are deleted.
   */
  public CompactionInfo runWith(String instantTime, CompactionTasks tasks) {
    Objects.requireNonNull(tasks, "tasks");
    return Infos.compaction(compaction.run(instantTime, job -> {
      List<CompactionSlice> slices = CompactionSlice.of(basePath, options, job);
      List<Optional<WriteStat>> stats = new ArrayList<>(Collections.nCopies(slices.size(), Optional.empty()));
      for (CompactedSlice r : tasks.compact(slices)) {
        String problem = r.index() < 0 || r.index() >= slices.size() ? "operation " + r.index() + ", not in the plan"
            : stats.get(r.index()).isPresent() ? "two results for operation " + r.index()
            : !slices.get(r.index()).fileId().equals(r.fileId()) ? "file group " + r.fileId() + " for operation "
                + r.index() + ", which compacts " + slices.get(r.index()).fileId()
            : null;
        if (problem != null) {
          throw SluiceException.badRequest("Completing compaction " + instantTime, "the tasks returned " + problem,
              "Return one result per slice: the attempt kept.");
        }
        stats.set(r.index(), Optional.of(r.toStat()));
      }
      return stats;
    }));
  }

  /** Runs every pending compaction, oldest first. */
  public List<CompactionInfo> runPending() {
    List<CompactionInfo> out = new ArrayList<>();
    for (CompactionResult r : compaction.runPending()) {
      out.add(Infos.compaction(r));
    }
    return out;
  }

  /** The instant times of the pending (requested or inflight) compactions, oldest first. */
  public List<String> pending() {
    return compaction.pending();
  }

  /** The plan of the compaction at {@code instantTime}. */
  public CompactionPlanInfo plan(String instantTime) {
    return Infos.compactionPlan(instantTime, compaction.plan(instantTime));
  }

  /** A background compactor over this table: configure it, then {@link BackgroundCompactor.Builder#start()}. */
  public BackgroundCompactor.Builder background() {
    return new BackgroundCompactor.Builder(Compactor.builder(compaction));
  }

  /**
   * Runs pending compactions on its own thread, every interval and when woken, one at a time; {@link #close()} lets the
   * compaction in progress finish, then stops.
   */
  public static final class BackgroundCompactor implements AutoCloseable {
    private final Compactor compactor;

    BackgroundCompactor(Compactor compactor) {
      this.compactor = compactor;
    }

    /** Asks for a round now. */
    public void wake() {
      compactor.wake();
    }

    /**
     * Waits until a round that started after this call has finished; false if the compactor stopped or {@code timeout}
     * passed first.
     */
    public boolean drain(Duration timeout) {
      return compactor.drain(timeout);
    }

    /** Compactions this compactor completed. */
    public long completed() {
      return compactor.completed();
    }

    /** The failure of the latest round, if it failed. */
    public Optional<SluiceException> lastFailure() {
      return compactor.lastFailure();
    }

    /** True while the compactor's thread runs. */
    public boolean isRunning() {
      return compactor.isRunning();
    }

    /** Stops the compactor after the compaction in progress. */
    @Override
    public void close() {
      compactor.close();
    }

    /** Options of a {@link BackgroundCompactor}. */
    public static final class Builder {
      private final Compactor.Builder builder;

      Builder(Compactor.Builder builder) {
        this.builder = Objects.requireNonNull(builder, "builder");
      }

      /** How often to look for pending compactions without being woken (default 60 s). */
      public Builder interval(Duration d) {
        builder.interval(d);
        return this;
      }

      /** Also schedule compactions (as the trigger says) each round. */
      public Builder schedule(boolean v) {
        builder.schedule(v);
        return this;
      }

      /** Called after each completed compaction, on the compactor's thread. */
      public Builder onCompleted(Consumer<CompactionInfo> c) {
        builder.onCompleted(r -> c.accept(Infos.compaction(r)));
        return this;
      }

      /**
       * Receives the progress of each compaction it runs ({@link Progress.Step#COMPACTION}), on the compactor's
       * thread (default: none).
       */
      public Builder progress(ProgressListener p) {
        builder.progress(p);
        return this;
      }

      /** Called when a round fails, on the compactor's thread; the next round retries. */
      public Builder onFailure(Consumer<SluiceException> c) {
        builder.onFailure(c);
        return this;
      }

      /** Starts the compactor's thread. */
      public BackgroundCompactor start() {
        return new BackgroundCompactor(builder.start());
      }
    }
  }
}
