package dev.sluice.internal.clean;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.mdt.write.MetadataTableForm;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.State;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The metadata table's own clean, as Hudi 0.15's metadata writer runs it before a write ({@code cleanIfNecessary}):
 * a real clean instant on the metadata table's timeline at {@code <latest completed deltacommit>002}
 * ({@code .clean.requested} and {@code .clean.inflight} hold the {@code HoodieCleanerPlan}, {@code .clean} the
 * {@code HoodieCleanMetadata}), deleting the old file slices of every file group of every metadata partition
 * ({@code files}, {@code record_index}, ...) with the data table's cleaner policy scaled as Hudi scales it
 * ({@link #settingsFor}).
 *
 * <p>No clean runs while fewer than three completed instants follow the latest metadata compaction (Hudi gives
 * readers that opened the slice before the compaction that long). A clean is planned only when a metadata
 * compaction could have made a slice deletable since the last clean (slices begin only at compactions and the
 * initialization), so a write that cannot clean anything lists no metadata partition. A clean left pending by a
 * crash (or by Hudi) is finished from its plan first; deleting is idempotent.
 *
 * <p>Run under the data table's lock, like every change of the metadata table (a single-writer table).
 */
public final class MetadataCleaner {
  /** Suffix of a metadata clean's instant ({@code HoodieTableMetadataUtil.createCleanTimestamp}). */
  public static final String SUFFIX = "002";
  /** Completed metadata instants that must follow the latest metadata compaction before a clean. */
  static final int AFTER_COMPACTION = 3;
  /** The least commits a KEEP_LATEST_COMMITS metadata clean retains ({@code DEFAULT_METADATA_CLEANER_COMMITS_RETAINED}). */
  static final int MIN_COMMITS_RETAINED = 20;

  private final Storage storage;
  private final String mdtBase;
  private final CleanSettings settings;
  private final TimelineStore store;

  private MetadataCleaner(Storage storage, String mdtBase, CleanSettings settings) {
    this.storage = storage;
    this.mdtBase = mdtBase;
    this.settings = settings;
    this.store = new TimelineStore(storage, mdtBase, "metadata.timeline");
  }

  /**
   * The cleaner of the metadata table of the data table at {@code basePath}, whose cleaner settings are {@code data};
   * does no I/O.
   */
  public static MetadataCleaner of(Storage storage, String basePath, CleanSettings data) {
    return new MetadataCleaner(storage, TableLayout.metadataTableFolder(basePath), settingsFor(data));
  }

  /**
   * The metadata table's cleaner settings from the data table's ({@code HoodieMetadataWriteUtils}): the same policy;
   * KEEP_LATEST_COMMITS retains {@code max(20, 1.2 × retained)} commits, KEEP_LATEST_FILE_VERSIONS
   * {@code ceil(1.2 × versions)}, KEEP_LATEST_BY_HOURS {@code ceil(1.2 × hours)}; a clean may follow every commit
   * ({@code hoodie.clean.max.commits} 1) and is incremental (Hudi's defaults for the metadata writer).
   */
  public static CleanSettings settingsFor(CleanSettings data) {
    int commits = Math.max(MIN_COMMITS_RETAINED, (int) (data.commitsRetained() * 1.2));
    int versions = (int) Math.ceil(data.fileVersionsRetained() * 1.2);
    int hours = (int) Math.ceil(data.hoursRetained() * 1.2);
    return new CleanSettings(data.policy(), commits, versions, hours, 1, true, false);
  }

  /** The settings in use. */
  public CleanSettings settings() {
    return settings;
  }

  /**
   * True if {@link #cleanIfDue} may have something to do with the metadata timeline {@code mdt}: a pending clean, or
   * the rules above allow a clean and a compaction lies inside the window it would clean. Reads at most the last
   * clean's metadata.
   */
  public boolean due(Timeline mdt) {
    if (!mdt.filter(i -> i.action() == Action.CLEAN && !i.isCompleted()).isEmpty()) {
      return true;
    }
    Optional<String> time = cleanTime(mdt);
    if (time.isEmpty()) {
      return false;
    }
    List<Instant> compactions = mdt.filter(i -> i.action() == Action.COMMIT && i.isCompleted()).instants();
    if (compactions.isEmpty()) {
      // every file group has one slice (the initialization's): nothing to delete
      return false;
    }
    Optional<Instant> lastClean = mdt.filter(i -> i.action() == Action.CLEAN && i.isCompleted()).lastInstant();
    // the last clean deleted every slice its window allowed; only a compaction since its window can add one
    String from = "";
    if (lastClean.isPresent()) {
      Optional<CleanMetadata> md = CleanAvro.decodeMetadata(store.readIfExists(lastClean.get()).orElse(new byte[0]),
          store.pathOf(lastClean.get()));
      from = md.map(CleanMetadata::earliestCommitToRetain).filter(e -> !e.isEmpty()).orElse(lastClean.get().time());
    }
    String since = from;
    // KEEP_LATEST_COMMITS: and before the new window's start (the slice a compaction closed is deletable only once
    // the window moved past the compaction); the zone does not matter for this policy
    Optional<String> until = settings.policy() != CleanPolicy.KEEP_LATEST_COMMITS ? Optional.empty()
        : Optional.of(RetentionWindow.earliestCommitToRetain(mdt, settings, java.time.Instant.now(), ZoneId.of("UTC"))
            .map(Instant::time).orElse(""));
    return compactions.stream().anyMatch(c -> InstantTimes.isBeforeOrEqual(since, c.time())
        && until.map(u -> InstantTimes.isBefore(c.time(), u)).orElse(true));
  }

  /**
   * The instant of a clean allowed now: {@code <latest completed deltacommit>002}, if at least three completed
   * instants follow the latest compaction (or there is none) and that instant is not on the timeline yet.
   */
  private static Optional<String> cleanTime(Timeline mdt) {
    Optional<Instant> latest = mdt.filter(i -> i.action() == Action.DELTACOMMIT && i.isCompleted()).lastInstant();
    if (latest.isEmpty()) {
      return Optional.empty();
    }
    Optional<Instant> compaction = mdt.filter(i -> i.action() == Action.COMMIT && i.isCompleted()).lastInstant();
    if (compaction.isPresent()) {
      String c = compaction.get().time();
      long after = mdt.completed().instants().stream().filter(i -> InstantTimes.isBefore(c, i.time())).count();
      if (after < AFTER_COMPACTION) {
        return Optional.empty();
      }
    }
    String time = MetadataTableForm.of(mdt.layout()).clean(latest.get().time(), mdt);
    return mdt.contains(time) ? Optional.empty() : Optional.of(time);
  }

  /**
   * Finishes pending metadata cleans, then plans and runs one if {@link #due} and the plan deletes something.
   * Returns the cleans completed.
   */
  public List<CleanMetadata> cleanIfDue() {
    List<CleanMetadata> done = new ArrayList<>();
    Timeline mdt = store.load();
    for (Instant pending : mdt.filter(i -> i.action() == Action.CLEAN && !i.isCompleted()).instants()) {
      runPending(pending).ifPresent(done::add);
    }
    mdt = store.load();
    if (!due(mdt)) {
      return done;
    }
    Optional<String> time = cleanTime(mdt);
    if (time.isEmpty()) {
      return done;
    }
    CleanPlan plan = CleanPlanner.ofMetadataTable(storage, mdtBase, settings, zone()).plan(mdt);
    if (plan.isEmpty()) {
      // as Hudi: no instant for a plan without files
      return done;
    }
    Instant requested = Instant.requested(time.get(), Action.CLEAN);
    byte[] bytes = CleanAvro.encode(plan);
    store.createRequested(requested, bytes);
    KillPoints.reach("metadata.clean.requested");
    done.add(run(requested, plan, bytes));
    return done;
  }

  private Optional<CleanMetadata> runPending(Instant pending) {
    Instant requested = pending.toState(State.REQUESTED);
    byte[] bytes = store.readIfExists(pending).filter(b -> b.length > 0)
        .or(() -> store.readIfExists(requested)).orElse(new byte[0]);
    if (bytes.length == 0) {
      // an empty plan (Hudi's deleteEmptyInstantIfExists): nothing to finish
      store.deleteInstantFiles(requested);
      return Optional.empty();
    }
    String where = store.pathOf(pending);
    CleanPlan plan = CleanAvro.decodePlan(bytes, mdtBase, where).orElseThrow(() -> Errors.badTable(where,
        "the metadata table's pending clean has no plan",
        "Delete the pending clean's files from .hoodie/metadata/.hoodie; the next write plans again."));
    return Optional.of(run(pending, plan, bytes));
  }

  /** Moves {@code pending} to inflight (the plan again), deletes the plan's files and completes the clean. */
  private CleanMetadata run(Instant pending, CleanPlan plan, byte[] bytes) {
    long start = System.nanoTime();
    Instant inflight = pending.isInflight() ? pending : store.transitionToInflight(pending, bytes);
    Map<String, PartitionCleanStats> stats = new LinkedHashMap<>();
    int deleted = 0;
    for (Map.Entry<String, List<CleanFile>> e : plan.filesToDelete().entrySet()) {
      List<String> patterns = new ArrayList<>();
      List<String> success = new ArrayList<>();
      List<String> failed = new ArrayList<>();
      for (CleanFile f : e.getValue()) {
        patterns.add(f.name());
        KillPoints.reach("metadata.clean.delete");
        boolean gone;
        try {
          gone = storage.delete(f.path());
        } catch (IOException ex) {
          // recorded as a failed delete, as Hudi does; a later clean whose window covers the slice lists it again
          gone = false;
        }
        (gone ? success : failed).add(f.name());
      }
      deleted += success.size();
      stats.put(e.getKey(), new PartitionCleanStats(e.getKey(), plan.policy().name(), patterns, success, failed,
          Optional.of(false)));
    }
    long millis = (System.nanoTime() - start) / 1_000_000L;
    CleanMetadata md = new CleanMetadata(inflight.time(), millis, deleted,
        plan.earliestInstantToRetain().map(Instant::time).orElse(""), plan.lastCompletedCommit(), stats, Map.of(),
        plan.extraMetadata());
    KillPoints.reach("metadata.clean.complete");
    store.complete(inflight, CleanAvro.encode(md));
    return md;
  }

  private ZoneId zone() {
    return TableConfigStore.read(storage, mdtBase).timelineTimezone().zoneId();
  }
}
