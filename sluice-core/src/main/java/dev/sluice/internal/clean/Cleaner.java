package dev.sluice.internal.clean;

import dev.sluice.api.Progress;
import dev.sluice.api.ProgressListener;
import dev.sluice.internal.util.ProgressMeter;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.mdt.write.FilesChange;
import dev.sluice.internal.mdt.write.MetadataTableWriter;
import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.commit.InstantAction;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.commit.Publish;
import dev.sluice.internal.rollback.Rollbacks;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.table.MetadataTable;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.State;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.util.KillPoints;
import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cleaner: deletes file versions no retained instant needs, through {@code clean} instants in Hudi 0.15's form
 * ({@code CleanPlanActionExecutor}, {@code CleanActionExecutor}). A clean is planned into
 * {@code <t>.clean.requested} (Avro {@code HoodieCleanerPlan}), moved to {@code <t>.clean.inflight} (the same plan),
 * the files are deleted, and {@code <t>.clean} (Avro {@code HoodieCleanMetadata}) is published. A clean left
 * unfinished by a crash (or by Hudi) is finished from its plan before a new one is planned; deleting is idempotent,
 * so two processes finishing one clean at once do no harm.
 */
public final class Cleaner {
  private final Storage storage;
  private final String basePath;
  private final CleanSettings settings;
  private final TimelineStore store;
  private final InstantLifecycle lifecycle;
  private final boolean metadataEnabled;
  private final ProgressListener progress;

  private Cleaner(Storage storage, String basePath, CleanSettings settings, InstantLifecycle lifecycle,
      boolean metadataEnabled, ProgressListener progress) {
    this.storage = storage;
    this.basePath = basePath;
    this.settings = settings;
    this.store = new TimelineStore(storage, basePath);
    this.lifecycle = lifecycle;
    this.metadataEnabled = metadataEnabled;
    this.progress = progress;
  }

  /** This cleaner reporting the files each clean it runs deletes to {@code listener}. */
  public Cleaner withProgress(ProgressListener listener) {
    return new Cleaner(storage, basePath, settings, lifecycle, metadataEnabled, listener);
  }

  /**
   * A cleaner for the table at {@code basePath} with cleaner settings {@code settings}; checks the lock options of
   * {@code commit}. Under optimistic concurrency control it plans cleans holding the table lock, as Hudi schedules
   * table services.
   */
  public static Cleaner of(Storage storage, String basePath, CleanSettings settings, CommitSettings commit) {
    InstantLifecycle lifecycle = InstantLifecycle.of(storage, basePath, commit);
    return new Cleaner(storage, basePath, settings, lifecycle, commit.metadataEnabled(), ProgressListener.NONE);
  }

  /** A cleaner with explicit settings, for a single writer (no lock). */
  public static Cleaner of(Storage storage, String basePath, CleanSettings settings) {
    return new Cleaner(storage, basePath, settings, InstantLifecycle.withoutLock(storage, basePath, false), false,
        ProgressListener.NONE);
  }

  /** The settings in use. */
  public CleanSettings settings() {
    return settings;
  }

  /**
   * Finishes unfinished cleans, then, if enough commits completed since the last clean, plans a clean and runs it.
   * Nothing is written when there is nothing to delete.
   */
  public CleanResult clean() {
    List<CleanMetadata> done = new ArrayList<>(runPending());
    schedule().ifPresent(requested -> done.add(run(requested)));
    if (!done.isEmpty()) {
      // a clean that ran sweeps what failed writes and crashed publishes left (writes do not list for them)
      new Rollbacks(storage, basePath, lifecycle.concurrentWriters()).cleanStale();
    }
    return new CleanResult(done);
  }

  /**
   * As {@link #clean()}, but first decides from {@code known} (a writer's timeline plus its new commit) whether there
   * is anything to do: no pending clean, and either fewer than {@code hoodie.clean.max.commits} commits since the last
   * clean or a plan that deletes nothing. Then nothing is written and {@code .hoodie/} is not listed again. Otherwise
   * it cleans as {@link #clean()} does, planning from a fresh load. A view older than the table's can only
   * delay a clean to a later commit.
   */
  public CleanResult clean(Timeline known) {
    boolean pending = !known.filter(i -> i.action() == Action.CLEAN && !i.isCompleted()).isEmpty();
    if (!pending) {
      CleanPlanner planner = planner();
      if (!planner.needsCleaning(known) || planner.plan(known).fileCount() == 0) {
        return new CleanResult(List.of());
      }
    }
    return clean();
  }

  /** What a clean planned now would delete, whether or not the trigger would fire; writes nothing. */
  public CleanPlan preview() {
    return planner().plan(store.load());
  }

  /**
   * Plans a clean if {@code hoodie.clean.max.commits} commits completed since the last one and the plan deletes
   * something, writing {@code <t>.clean.requested}; returns the requested instant.
   */
  public Optional<Instant> schedule() {
    return lifecycle.locked("plan a clean", this::scheduleUnlocked);
  }

  private Optional<Instant> scheduleUnlocked() {
    Timeline timeline = store.load();
    CleanPlanner planner = planner();
    if (!planner.needsCleaning(timeline)) {
      return Optional.empty();
    }
    CleanPlan plan = planner.plan(timeline);
    if (plan.fileCount() == 0) {
      // Hudi writes no instant for a plan without files
      return Optional.empty();
    }
    // under the lock already: the metadata table is made ready (or removed) here, not through prepare(settings)
    MetadataTableWriter mdt = MetadataTableWriter.of(storage, basePath);
    if (!metadataEnabled) {
      MetadataTable.removeIfPresent(storage, basePath);
    } else if (mdt.needsPrepare(true)) {
      mdt.prepare(true);
    }
    ZoneId zone = zone();
    Instant requested = lifecycle.request(Action.CLEAN, () -> InstantTimes.newInstantTime(zone), timeline,
        CleanAvro.encode(plan));
    return Optional.of(requested);
  }

  /** Finishes every requested or inflight clean, oldest first. */
  public List<CleanMetadata> runPending() {
    List<CleanMetadata> out = new ArrayList<>();
    for (Instant pending : store.load().filter(i -> i.action() == Action.CLEAN && !i.isCompleted()).instants()) {
      byte[] bytes = store.readIfExists(pending).orElse(new byte[0]);
      if (bytes.length == 0 && pending.isRequested()) {
        // an empty plan (Hudi's deleteEmptyInstantIfExists): nothing to finish
        store.delete(pending);
        continue;
      }
      out.add(run(pending));
    }
    return out;
  }

  /**
   * Runs one pending clean from its plan and completes it. Another cleaner may carry out the same plan at the same
   * time (deleting twice is harmless): the inflight and completed files it made first count as this one's.
   */
  private CleanMetadata run(Instant pending) {
    Instant requested = pending.toState(State.REQUESTED);
    byte[] bytes = store.readIfExists(pending).filter(b -> b.length > 0)
        .or(() -> store.readIfExists(requested)).orElse(new byte[0]);
    String where = store.pathOf(pending);
    CleanPlan plan = CleanAvro.decodePlan(bytes, basePath, where).orElseThrow(() -> Errors.badTable(where,
        "the clean has no plan", "Delete the pending clean's files from .hoodie; the next clean plans again."));
    MetadataTableWriter mdt = MetadataTableWriter.of(storage, basePath);
    if (!metadataEnabled) {
      MetadataTable.removeIfPresent(storage, basePath);
    } else if (mdt.needsPrepare(true)) {
      lifecycle.locked("prepare the metadata table", () -> mdt.prepare(true));
    }
    long start = System.nanoTime();
    return lifecycle.run(pending, Publish.SHARED, "complete clean " + pending.time(), new InstantAction<CleanMetadata>() {
      @Override
      public byte[] inflightContent() {
        return bytes;
      }

      @Override
      public CleanMetadata execute(Instant inflight) {
        return deleteFiles(inflight, plan, start);
      }

      @Override
      public byte[] metadata(CleanMetadata md) {
        return CleanAvro.encode(md);
      }

      @Override
      public void beforePublish(Instant inflight, CleanMetadata md) {
        if (metadataEnabled) {
          // a clean publishes without the lock (cleaners of one plan may race); its mirror commit takes it
          lifecycle.locked("mirror clean " + inflight.time() + " to the metadata table", () -> {
            mdt.commit(inflight.time(), filesChange(md));
            return null;
          });
        }
      }
    });
  }

  /** A clean's change to the metadata table: each partition's deleted files, and the partitions it deleted. */
  static FilesChange filesChange(CleanMetadata md) {
    Map<String, List<String>> deleted = new LinkedHashMap<>();
    List<String> partitions = new ArrayList<>();
    md.partitionMetadata().forEach((p, stats) -> {
      deleted.put(p, stats.deletePathPatterns());
      if (stats.partitionDeleted().orElse(false)) {
        partitions.add(p);
      }
    });
    return FilesChange.ofClean(deleted, partitions);
  }

  /** Deletes what {@code plan} lists (the clean is inflight) and returns the clean's metadata. */
  private CleanMetadata deleteFiles(Instant inflight, CleanPlan plan, long start) {
    Map<String, PartitionCleanStats> stats = new LinkedHashMap<>();
    Map<String, PartitionCleanStats> bootstrapStats = new LinkedHashMap<>();
    boolean partitioned = TableConfigStore.read(storage, basePath).isPartitioned();
    List<String> partitionsDeleted = partitioned ? plan.partitionsToDelete() : List.of();
    int deleted = 0;
    ProgressMeter meter = ProgressMeter.start(progress, Progress.Step.CLEAN, plan.fileCount(), 1);
    for (Map.Entry<String, List<CleanFile>> e : plan.filesToDelete().entrySet()) {
      Deletes table = new Deletes();
      Deletes bootstrap = new Deletes();
      for (CleanFile f : e.getValue()) {
        // bootstrap source files are recorded by full path, table files by name (PartitionCleanStat)
        if (f.bootstrapBaseFile()) {
          bootstrap.delete(f.path(), f.path());
        } else {
          table.delete(f.path(), f.name());
        }
        meter.advance(1);
      }
      Optional<Boolean> partitionDeleted = Optional.of(partitionsDeleted.contains(e.getKey()));
      stats.put(e.getKey(), table.stats(e.getKey(), plan.policy(), partitionDeleted));
      if (!bootstrap.patterns.isEmpty()) {
        bootstrapStats.put(e.getKey(), bootstrap.stats(e.getKey(), plan.policy(), partitionDeleted));
      }
      deleted += table.success.size();
    }
    for (String partition : partitionsDeleted) {
      deletePartition(partition);
    }
    meter.finish();
    long millis = (System.nanoTime() - start) / 1_000_000L;
    return new CleanMetadata(inflight.time(), millis, deleted,
        plan.earliestInstantToRetain().map(Instant::time).orElse(""), plan.lastCompletedCommit(), stats,
        bootstrapStats, plan.extraMetadata());
  }

  private void deletePartition(String partition) {
    if (partition.isEmpty()) {
      return;
    }
    String dir = StoragePaths.join(basePath, partition);
    try {
      storage.deleteRecursively(dir);
    } catch (IOException e) {
      throw Errors.storage("delete the partition folder", dir, e);
    }
  }

  private CleanPlanner planner() {
    return CleanPlanner.of(storage, basePath, settings, zone(), metadataEnabled);
  }

  private ZoneId zone() {
    TableConfig tc = TableConfigStore.read(storage, basePath);
    return tc.timelineTimezone().zoneId();
  }

  /** The outcome of the deletes of one partition. */
  private final class Deletes {
    private final List<String> patterns = new ArrayList<>();
    private final List<String> success = new ArrayList<>();
    private final List<String> failed = new ArrayList<>();

    void delete(String path, String recordedAs) {
      patterns.add(recordedAs);
      KillPoints.reach("clean.delete");
      boolean gone;
      try {
        gone = storage.delete(path);
      } catch (IOException e) {
        // recorded as a failed delete, as Hudi does; the file stays and a later full clean lists it again
        gone = false;
      }
      (gone ? success : failed).add(recordedAs);
    }

    PartitionCleanStats stats(String partition, CleanPolicy policy, Optional<Boolean> partitionDeleted) {
      return new PartitionCleanStats(partition, policy.name(), patterns, success, failed, partitionDeleted);
    }
  }
}
