package dev.sluice.internal.write;

import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.commit.ConcurrencyMode;
import dev.sluice.internal.commit.ConflictDetector;
import dev.sluice.internal.commit.FailedWritesPolicy;
import dev.sluice.internal.commit.Heartbeats;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.commit.LiveWriters;
import dev.sluice.internal.commit.Markers;
import dev.sluice.internal.commit.Publish;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.mdt.write.FilesChange;
import dev.sluice.internal.mdt.write.MetadataTableWriter;
import dev.sluice.internal.mdt.write.RecordIndexChanges;
import dev.sluice.internal.rollback.Rollbacks;
import dev.sluice.storage.Storage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A write's part in its instant's lifecycle ({@link InstantLifecycle}), as Hudi's write client runs it:
 * <ol>
 *   <li>{@link #begin}: refuse to write while a restore is pending, and in single-writer mode while another
 *       writer is at work (a pending write with a live heartbeat, {@link LiveWriters}); roll back failed writes
 *       (those whose heartbeat expired or whose writer is gone, under the table lock); note the last completed
 *       commit and the pending instants; start the heartbeat (every mode) and create
 *       {@code <ts>.<action>.requested};</li>
 *   <li>{@link #start}: once the write is planned, its workload profile goes to {@code .inflight};</li>
 *   <li>{@link #publish}: under the table's lock (every mode: {@code TableLock}) check the heartbeat and, as the
 *       lifecycle's pre-publish work, for conflicts with writes that completed meanwhile (every mode); then the
 *       completed file (the commit point);</li>
 *   <li>{@link #abort}: on failure roll back this write's instant (a {@code rollback} instant on the timeline);</li>
 *   <li>{@link #close}: stop the heartbeat.</li>
 * </ol>
 */
public final class WriteTransaction implements AutoCloseable {
  private final Storage storage;
  private final String basePath;
  private final TimelineStore store;
  private final ConcurrencyMode mode;
  private final InstantLifecycle lifecycle;
  private final InstantLifecycle.Open open;
  private final Timeline timeline;
  private final Optional<String> lastCompleted;
  private final Set<String> pendingAtStart;
  private final boolean metadataEnabled;
  private volatile Timeline seenAtPublish;
  private volatile Timeline afterPublish;

  private WriteTransaction(Begun b) {
    this.storage = b.storage;
    this.basePath = b.basePath;
    this.store = b.store;
    this.mode = b.mode;
    this.lifecycle = b.lifecycle;
    this.open = b.open;
    this.timeline = b.timeline;
    this.lastCompleted = b.lastCompleted;
    this.pendingAtStart = b.pendingAtStart;
    this.metadataEnabled = b.metadataEnabled;
  }

  /** What {@link #begin} found and made. */
  private static final class Begun {
    private Storage storage;
    private String basePath;
    private TimelineStore store;
    private ConcurrencyMode mode;
    private InstantLifecycle lifecycle;
    private InstantLifecycle.Open open;
    private Timeline timeline;
    private Optional<String> lastCompleted;
    private Set<String> pendingAtStart;
    private boolean metadataEnabled;
  }

  /** Starts a write of {@code action} on the table at {@code basePath}: rollback of failed writes, then the instant. */
  public static WriteTransaction begin(Storage storage, String basePath, CommitSettings settings, Action action) {
    return begin(storage, basePath, settings, action, new TimelineStore(storage, basePath).load());
  }

  /**
   * As {@link #begin(Storage, String, CommitSettings, Action)}, starting from {@code loaded}, the timeline this operation
   * loaded just before (so the write lists {@code .hoodie/} once). It is loaded again only after a rollback changed
   * it; publishing under optimistic concurrency control re-reads it under the lock.
   */
  public static WriteTransaction begin(Storage storage, String basePath, CommitSettings settings, Action action,
      Timeline loaded) {
    Begun b = new Begun();
    b.storage = storage;
    b.basePath = basePath;
    b.store = new TimelineStore(storage, basePath, loaded.layout());
    b.mode = ConcurrencyMode.of(settings);
    b.metadataEnabled = settings.metadataEnabled();
    FailedWritesPolicy policy = FailedWritesPolicy.of(settings);
    b.lifecycle = InstantLifecycle.of(storage, basePath, settings);
    Heartbeats heartbeats = Heartbeats.of(storage, basePath, settings);
    Timeline tl = loaded;
    Rollbacks.requireNoPendingRestore(tl, basePath);
    LiveWriters live = new LiveWriters(heartbeats);
    if (b.mode == ConcurrencyMode.SINGLE_WRITER) {
      // a single writer that finds another writer at work stops before touching anything of it
      live.requireNone(tl, basePath);
    }
    if (policy != FailedWritesPolicy.NEVER) {
      // EAGER and LAZY alike: only writes whose writer is gone are failed; a live neighbour's instant is not touched
      Predicate<Instant> eligible = live::isFailed;
      // with nothing to roll back the timeline stands as loaded; marker folders and heartbeats of finished
      // instants are harmless, and the rollback sweeps them when there is one (no listing of .temp per write)
      if (needsRollback(tl, eligible)) {
        Rollbacks rollbacks = new Rollbacks(storage, basePath, b.lifecycle.concurrentWriters());
        b.lifecycle.locked("roll back failed writes", () -> rollbacks.rollbackFailedWrites(eligible));
        tl = b.store.load();
        if (b.metadataEnabled) {
          // the metadata table is built over completed instants only, so the prepare before this write built none
          // while the failed writes were pending; built now, before this write's instant, as Hudi 0.15 does (its
          // writer rolls failed writes back, then initializes the metadata table), so this write mirrors into it
          MetadataTableWriter mdt = MetadataTableWriter.of(storage, basePath);
          if (!mdt.isAvailable()) {
            b.lifecycle.locked("prepare the metadata table", () -> mdt.prepare(true));
          }
        }
      }
    }
    b.lastCompleted = tl.commitsTimeline().completed().lastInstant().map(Instant::time);
    b.pendingAtStart = new HashSet<>();
    for (Instant i : tl.writeTimeline().instants()) {
      if (!i.isCompleted()) {
        b.pendingAtStart.add(i.time());
      }
    }
    b.timeline = tl;
    List<Instant> pendingCompactions = tl.pendingCompactions();
    b.open = b.lifecycle.request(new InstantLifecycle.Request(action, InstantTimes::newInstantTime, tl, new byte[0],
        time -> requireAfterPendingCompaction(basePath, pendingCompactions, time),
        Optional.of(heartbeats)));
    return new WriteTransaction(b);
  }

  private static boolean needsRollback(Timeline tl, Predicate<Instant> eligible) {
    if (tl.filter(i -> i.action() == Action.ROLLBACK && !i.isCompleted()).lastInstant().isPresent()) {
      return true;
    }
    for (Instant i : tl.inflightWrites()) {
      if (eligible.test(i)) {
        return true;
      }
    }
    return false;
  }

  private static void requireAfterPendingCompaction(String basePath, List<Instant> pendingCompactions, String time) {
    if (!pendingCompactions.isEmpty() && !InstantTimes.isBefore(pendingCompactions.get(pendingCompactions.size() - 1)
        .time(), time)) {
      throw Errors.badTable(basePath, "the pending compaction " + pendingCompactions.get(pendingCompactions.size() - 1)
          .time() + " is later than the new instant " + time, "Check the clocks of the machines writing this table.");
    }
  }

  /**
   * After {@link #publish}: the timeline this write last saw (at its start, or under the lock at publish) plus its
   * completed instant, for the post-commit services to decide from without listing again; empty before.
   */
  public Optional<Timeline> timelineAfterPublish() {
    return Optional.ofNullable(afterPublish);
  }

  /** The requested instant of this write. */
  public Instant requested() {
    return open.instant();
  }

  /** The timeline as it was when the write started (after failed writes were rolled back, before its instant). */
  public Timeline timeline() {
    return timeline;
  }

  /** Moves the write's instant to inflight with {@code workloadProfile} (the planned write) as the file's content. */
  public Instant start(byte[] workloadProfile) {
    return open.start(workloadProfile, false);
  }

  /**
   * Publishes the write: under the table's lock checks its heartbeat and that no write that completed meanwhile
   * touched its file groups (in every concurrency mode), then creates the completed file. The markers are removed afterwards;
   * if that fails the commit stands and the folder stays until a later rollback, clean or archival sweeps it.
   */
  public Instant publish(Instant inflight, CommitMetadata metadata) {
    return publish(inflight, metadata, RecordIndexChanges.none());
  }

  /**
   * As {@link #publish(Instant, CommitMetadata)}, the metadata table's deltacommit also carrying the write's
   * record-index changes {@code recordIndex}.
   */
  public Instant publish(Instant inflight, CommitMetadata metadata, RecordIndexChanges recordIndex) {
    Instant requested = open.instant();
    seenAtPublish = timeline;
    Instant completed = open.publish(inflight, store.layout().encode(metadata), Publish.UNDER_LOCK, "commit instant " + requested.time(),
        () -> {
          // in every concurrency mode: another writer, configured alike or not, may have completed meanwhile; the
          // check needs the timeline as it is now, under the lock (one listing)
          Timeline now = store.load();
          seenAtPublish = now;
          open.loadedUnderLock(now);
          new ConflictDetector(storage, basePath).check(now, requested, lastCompleted, pendingAtStart, metadata);
          if (metadataEnabled) {
            // the metadata table's deltacommit at this instant completes first (Hudi's writeTableMetadata)
            MetadataTableWriter.of(storage, basePath).commit(requested.time(), FilesChange.ofCommit(metadata),
                recordIndex);
          }
        });
    afterPublish = seenAtPublish.plus(completed);
    open.deleteMarkers();
    return completed;
  }

  /**
   * Deletes the data files the markers of instant {@code time} list but {@code metadata}'s write stats do not
   * ({@link Markers#reconcile}); returns their relative paths. For writes whose tasks may run more than once (a
   * cluster's): a single-machine write runs each file group once and does not list its markers (one LIST fewer per
   * commit, which {@code ListingBudgetTest} holds it to).
   */
  public static List<String> reconcileAgainstMarkers(Storage storage, String basePath, String time,
      CommitMetadata metadata) {
    Set<String> written = new HashSet<>();
    metadata.allStats().forEach(w -> w.path().ifPresent(written::add));
    return new Markers(storage, basePath, time).reconcile(written);
  }

  /**
   * Undoes this write after {@code failure}: its instant is rolled back (under the lock, if any). A failure of the
   * rollback is attached to {@code failure}, and the next write rolls the instant back instead. Returns
   * {@code failure} for rethrowing.
   */
  public RuntimeException abort(RuntimeException failure) {
    return open.abort(failure, "roll back instant " + open.instant().time(),
        i -> new Rollbacks(storage, basePath, lifecycle.concurrentWriters()).rollbackFailed(i));
  }

  /** Stops the heartbeat. */
  @Override
  public void close() {
    open.close();
  }
}
