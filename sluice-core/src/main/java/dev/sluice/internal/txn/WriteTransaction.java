package dev.sluice.internal.txn;

import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.heartbeat.Heartbeat;
import dev.sluice.internal.heartbeat.Heartbeats;
import dev.sluice.internal.lock.TableLock;
import dev.sluice.internal.marker.Markers;
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
 * The life of one write on the timeline, as Hudi's write client runs it:
 * <ol>
 *   <li>{@link #begin}: refuse to write while a restore is pending; roll back failed writes (EAGER: every pending
 *       write; LAZY: those whose heartbeat expired, under the table lock); note the last completed commit and the
 *       pending instants; start the heartbeat (LAZY) and create {@code <ts>.<action>.requested};</li>
 *   <li>{@link #publish}: under the lock (optimistic concurrency control) check the heartbeat and for conflicts
 *       with writes that completed meanwhile, then create the completed file (the commit point);</li>
 *   <li>{@link #abort}: on failure roll back this write's instant (a {@code rollback} instant on the timeline);</li>
 *   <li>{@link #close}: stop the heartbeat.</li>
 * </ol>
 */
public final class WriteTransaction implements AutoCloseable {
  private static final int INSTANT_ATTEMPTS = 5;

  private final Storage storage;
  private final String basePath;
  private final TimelineStore store;
  private final ConcurrencyMode mode;
  private final Optional<TableLock> lock;
  private final Heartbeats heartbeats;
  private final Timeline timeline;
  private final Instant requested;
  private final Optional<Heartbeat> heartbeat;
  private final Optional<String> lastCompleted;
  private final Set<String> pendingAtStart;
  private volatile boolean published;
  private volatile Timeline afterPublish;

  private WriteTransaction(Builder b) {
    this.storage = b.storage;
    this.basePath = b.basePath;
    this.store = b.store;
    this.mode = b.mode;
    this.lock = b.lock;
    this.heartbeats = b.heartbeats;
    this.timeline = b.timeline;
    this.requested = b.requested;
    this.heartbeat = b.heartbeat;
    this.lastCompleted = b.lastCompleted;
    this.pendingAtStart = b.pendingAtStart;
  }

  private static final class Builder {
    private Storage storage;
    private String basePath;
    private TimelineStore store;
    private ConcurrencyMode mode;
    private Optional<TableLock> lock;
    private Heartbeats heartbeats;
    private Timeline timeline;
    private Instant requested;
    private Optional<Heartbeat> heartbeat = Optional.empty();
    private Optional<String> lastCompleted;
    private Set<String> pendingAtStart;
  }

  /** Starts a write of {@code action} on the table at {@code basePath}: rollback of failed writes, then the instant. */
  public static WriteTransaction begin(Storage storage, String basePath, Config config, Action action) {
    return begin(storage, basePath, config, action, new TimelineStore(storage, basePath).load());
  }

  /**
   * As {@link #begin(Storage, String, Config, Action)}, starting from {@code loaded}, the timeline this operation
   * loaded just before (so the write lists {@code .hoodie/} once). It is loaded again only after a rollback changed
   * it; publishing under optimistic concurrency control re-reads it under the lock.
   */
  public static WriteTransaction begin(Storage storage, String basePath, Config config, Action action, Timeline loaded) {
    Builder b = new Builder();
    b.storage = storage;
    b.basePath = basePath;
    b.store = new TimelineStore(storage, basePath);
    b.mode = ConcurrencyMode.fromConfig(config);
    FailedWritesPolicy policy = FailedWritesPolicy.fromConfig(config);
    b.lock = b.mode == ConcurrencyMode.OPTIMISTIC_CONCURRENCY_CONTROL
        ? Optional.of(TableLock.forTable(storage, basePath, config)) : Optional.empty();
    b.heartbeats = Heartbeats.fromConfig(storage, basePath, config);
    Timeline tl = loaded;
    Rollbacks.requireNoPendingRestore(tl, basePath);
    if (policy != FailedWritesPolicy.NEVER) {
      Heartbeats hb = b.heartbeats;
      Predicate<Instant> eligible = policy == FailedWritesPolicy.EAGER ? i -> true : i -> hb.isExpired(i.time());
      // with nothing to roll back the timeline stands as loaded; marker folders and heartbeats of finished
      // instants are harmless, and the rollback sweeps them when there is one (no listing of .temp per write)
      if (needsRollback(tl, eligible)) {
        rollbackFailedWrites(storage, basePath, b.lock, eligible);
        tl = b.store.load();
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
    createRequested(b, action, policy == FailedWritesPolicy.LAZY);
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

  private static void rollbackFailedWrites(Storage storage, String basePath, Optional<TableLock> lock,
      Predicate<Instant> eligible) {
    Rollbacks rollbacks = new Rollbacks(storage, basePath, lock.isPresent());
    if (lock.isEmpty()) {
      rollbacks.rollbackFailedWrites(eligible);
      return;
    }
    try (TableLock.Held held = lock.get().acquire("roll back failed writes")) {
      rollbacks.rollbackFailedWrites(eligible);
    }
  }

  private static void createRequested(Builder b, Action action, boolean lazy) {
    List<Instant> pendingCompactions = b.timeline.pendingCompactions();
    for (int attempt = 1; ; attempt++) {
      String time = InstantTimes.newInstantTime();
      if (b.timeline.contains(time)) {
        continue;
      }
      if (!pendingCompactions.isEmpty() && !InstantTimes.isBefore(pendingCompactions.get(pendingCompactions.size() - 1)
          .time(), time)) {
        throw Errors.badTable(b.basePath, "the pending compaction " + pendingCompactions.get(pendingCompactions.size() - 1)
            .time() + " is later than the new instant " + time, "Check the clocks of the machines writing this table.");
      }
      // the heartbeat comes first: an instant without one would look abandoned to lazy writers
      Optional<Heartbeat> hb = lazy ? Optional.of(b.heartbeats.start(time)) : Optional.empty();
      Instant req = Instant.requested(time, action);
      try {
        b.store.createRequested(req, new byte[0], b.lock.isPresent());
        b.requested = req;
        b.heartbeat = hb;
        return;
      } catch (SluiceException e) {
        if (e.kind() == SluiceException.Kind.CONFLICT) {
          // the other process that took this instant time for a write beats in the same file: leave it (if a
          // rollback or clean took it, the file is stale and the next rollback sweeps it once expired)
          hb.ifPresent(Heartbeat::abandon);
        } else {
          hb.ifPresent(Heartbeat::close);
        }
        if (e.kind() != SluiceException.Kind.CONFLICT || attempt >= INSTANT_ATTEMPTS) {
          throw e;
        }
        // another process took the same instant time (for any action): take the next one
      }
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
    return requested;
  }

  /** The timeline as it was when the write started (after failed writes were rolled back, before its instant). */
  public Timeline timeline() {
    return timeline;
  }

  /**
   * Publishes the write: under the lock (optimistic concurrency control) checks its heartbeat and that no write that
   * completed meanwhile touched its file groups, then creates the completed file. The markers are removed afterwards;
   * if that fails the commit stands and the folder stays until a later rollback, clean or archival sweeps it.
   */
  public Instant publish(Instant inflight, CommitMetadata metadata, Markers markers) {
    Instant completed;
    Optional<TableLock.Held> held = lock.map(l -> l.acquire("commit instant " + requested.time()));
    try {
      checkHeartbeat();
      Timeline seen = timeline;
      if (mode == ConcurrencyMode.OPTIMISTIC_CONCURRENCY_CONTROL) {
        // other writers may have completed meanwhile: the check needs the timeline as it is now, under the lock
        seen = store.load();
        new ConflictDetector(storage, basePath).check(seen, requested, lastCompleted, pendingAtStart, metadata);
      }
      completed = store.complete(inflight, metadata.toJson());
      afterPublish = seen.plus(completed);
      published = true;
    } finally {
      held.ifPresent(TableLock.Held::close);
    }
    try {
      markers.deleteAll();
    } catch (SluiceException e) {
      // the commit is published; markers of a completed instant are harmless and swept later
      return completed;
    }
    return completed;
  }

  private void checkHeartbeat() {
    if (heartbeat.isEmpty()) {
      return;
    }
    if (heartbeat.get().failure().isPresent() || heartbeats.isExpired(requested.time())) {
      throw Errors.conflict("Commit of instant " + requested.time(), "its heartbeat (" + heartbeats.pathOf(requested.time())
          + ") expired, so another writer may have rolled it back"
          + heartbeat.get().failure().map(f -> " (" + f.getMessage() + ")").orElse(""));
    }
  }

  /**
   * Undoes this write after {@code failure}: its instant is rolled back (under the lock, if any). A failure of the
   * rollback is attached to {@code failure}, and the next write rolls the instant back instead. Returns
   * {@code failure} for rethrowing.
   */
  public RuntimeException abort(RuntimeException failure) {
    if (published) {
      return failure;
    }
    try {
      Optional<TableLock.Held> held = lock.map(l -> l.acquire("roll back instant " + requested.time()));
      try {
        new Rollbacks(storage, basePath, lock.isPresent()).rollbackFailed(requested);
      } finally {
        held.ifPresent(TableLock.Held::close);
      }
    } catch (RuntimeException rollbackFailure) {
      failure.addSuppressed(rollbackFailure);
    }
    return failure;
  }

  /** Stops the heartbeat. */
  @Override
  public void close() {
    try {
      heartbeat.ifPresent(Heartbeat::close);
    } catch (SluiceException e) {
      // the heartbeat file of a finished instant is only a hint; a later rollback or clean removes it
      return;
    }
  }
}
