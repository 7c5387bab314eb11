package dev.sluice.internal.commit;

import dev.sluice.api.SluiceException;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.State;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.Storage;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one way an instant goes through the timeline, for every action: {@link #request} writes its plan to
 * {@code <ts>.<action>.requested}; {@link Open#start} moves it to inflight; the action does its work; {@link
 * Open#publish} creates the completed file in one exclusive create (the commit point), under the table's lock (in
 * every concurrency mode: {@link TableLock}) and after the heartbeat check and the action's pre-publish work; then the instant's
 * markers go. {@link Open#abort} undoes a failed instant, {@link Open#close} stops its heartbeat. {@link #run} does
 * all of it for an action that runs in one call ({@link InstantAction}); a write, which plans between request and
 * inflight, drives the same {@link Open} steps itself.
 *
 * <p>{@link #locked} is the only place the table's lock is taken. The kill points are the timeline's, the
 * markers' and the lock's own ({@link TimelineStore}, {@link Markers}, {@link FileSystemLockProvider}); the lifecycle
 * adds none, so the crash harness sees the points in the order it always did.
 */
public final class InstantLifecycle {
  /** Attempts at a new instant time when other processes take the same one. */
  private static final int NEW_TIME_ATTEMPTS = 5;

  private final Storage storage;
  private final String basePath;
  private final TimelineStore store;
  private final Optional<TableLock> lock;
  private final boolean concurrentWriters;
  private final Optional<CommitSettings> settings;

  private InstantLifecycle(Storage storage, String basePath, Optional<TableLock> lock, boolean concurrentWriters,
      Optional<CommitSettings> settings) {
    this.storage = storage;
    this.basePath = basePath;
    this.store = new TimelineStore(storage, basePath);
    this.lock = lock;
    this.concurrentWriters = concurrentWriters;
    this.settings = settings;
  }

  /**
   * The lifecycle of the instants of the table at {@code basePath} as {@code settings}' concurrency mode wants it:
   * the table's lock ({@link TableLock#forTable}: the publish lock file in every mode, with optimistic concurrency
   * control the configured lock too); with optimistic concurrency control new instant times are also made unique
   * among processes. Checks the lock options; does no I/O.
   */
  public static InstantLifecycle of(Storage storage, String basePath, CommitSettings settings) {
    boolean occ = ConcurrencyMode.of(settings) == ConcurrencyMode.OPTIMISTIC_CONCURRENCY_CONTROL;
    Optional<TableLock> lock = Optional.of(TableLock.forTable(storage, basePath, settings));
    return new InstantLifecycle(storage, basePath, lock, occ, Optional.of(settings));
  }

  /**
   * A lifecycle that takes no lock: for a single writer, or for an action its caller runs inside {@link #locked}
   * (a rollback, a savepoint, a restore). With {@code concurrentWriters} new instant times are still made unique
   * among processes. Does no I/O.
   */
  public static InstantLifecycle withoutLock(Storage storage, String basePath, boolean concurrentWriters) {
    return new InstantLifecycle(storage, basePath, Optional.empty(), concurrentWriters, Optional.empty());
  }

  /** True if several processes may write the table (optimistic concurrency control). */
  public boolean concurrentWriters() {
    return concurrentWriters;
  }

  /**
   * Runs {@code work} holding the table's lock (waiting for it as configured); a lifecycle made {@link #withoutLock}
   * just runs it. The only place the lock is taken.
   */
  public <T> T locked(String purpose, Supplier<T> work) {
    if (lock.isEmpty()) {
      return work.get();
    }
    TableLock.Held held = lock.get().acquire(purpose);
    T result;
    try {
      result = work.get();
    } catch (RuntimeException | Error e) {
      // an Error too: a simulated crash in the tests, or out of memory; the release marks the lock as given up by
      // this process even when deleting its file fails, so a next writer here does not wait for it
      try {
        held.close();
      } catch (RuntimeException | Error releaseFailure) {
        e.addSuppressed(releaseFailure);
      }
      throw e;
    }
    try {
      held.close();
    } catch (SluiceException releaseFailure) {
      // the work is done (a commit may be published): reporting it as failed would be false. The lock file left
      // behind names this process, whose provider has released it, so the next writer here breaks it at once and
      // writers elsewhere once this process ends (on this host) or the lock expires
      return result;
    }
    return result;
  }

  /**
   * Runs {@code work} as the only run of {@code instant}'s plan: a second run fails at once with a CONFLICT while
   * this one holds the instant's lock. The lock is the table's lock provider's for that instant (a lock file
   * {@code lock.<action>.<time>} next to the table's with a file-system lock, so processes exclude each other too);
   * with a single writer, or the in-process provider, it guards the threads of this process.
   */
  public <T> T exclusive(String purpose, Instant instant, Supplier<T> work) {
    String name = instant.action().id() + "." + instant.time();
    LockProvider provider = concurrentWriters && settings.isPresent()
        ? TableLock.provider(storage, basePath, settings.get(), Optional.of(name))
        : new InProcessLockProvider(basePath + "@" + name);
    if (!provider.tryLock()) {
      String owner = provider.currentOwner().map(o -> " (" + o + ")").orElse("");
      throw Errors.conflict(purpose, "another run holds " + provider.lockName() + owner + "; if it is gone, delete the "
          + "lock file");
    }
    try {
      return work.get();
    } finally {
      provider.unlock();
    }
  }

  /**
   * What {@link #request} writes: a new instant of {@code action} at a time from {@code times}, skipping times
   * {@code known} (the timeline as last loaded) has, with {@code plan} as the requested file's content.
   *
   * @param action the instant's action
   * @param times the source of instant times
   * @param known the timeline as last loaded
   * @param plan the requested file's content (may be empty)
   * @param checkTime run on each time before it is taken; throws to refuse it (a write behind a pending compaction)
   * @param heartbeats where a heartbeat is started before the requested file appears (a writer under the LAZY
   *     failed-writes policy: an instant without one would look abandoned to other writers); empty for none
   */
  public record Request(Action action, Supplier<String> times, Timeline known, byte[] plan, Consumer<String> checkTime,
      Optional<Heartbeats> heartbeats) {
    /** A request without a time check or heartbeat. */
    public static Request of(Action action, Supplier<String> times, Timeline known, byte[] plan) {
      return new Request(action, times, known, plan, t -> { }, Optional.empty());
    }
  }

  /** Requests a new instant ({@link Request}) and returns its requested state. */
  public Instant request(Action action, Supplier<String> times, Timeline known, byte[] plan) {
    return request(Request.of(action, times, known, plan)).instant();
  }

  /**
   * Creates the requested file of a new instant. With concurrent writers a time another process took (for any
   * action) is given up and the next one tried, up to {@value #NEW_TIME_ATTEMPTS} attempts.
   */
  public Open request(Request r) {
    for (int attempt = 1; ; attempt++) {
      String time = r.times().get();
      if (r.known().contains(time)) {
        continue;
      }
      r.checkTime().accept(time);
      // the heartbeat comes first: an instant without one would look abandoned to lazy writers
      Optional<Heartbeat> hb = r.heartbeats().map(h -> h.start(time));
      Instant requested = Instant.requested(time, r.action());
      try {
        store.createRequested(requested, r.plan(), concurrentWriters);
        return new Open(requested, hb, r.heartbeats());
      } catch (SluiceException e) {
        if (e.kind() == SluiceException.Kind.CONFLICT) {
          // the other process that took this instant time for a write beats in the same file: leave it (if a
          // rollback or clean took it, the file is stale and the next rollback sweeps it once expired)
          hb.ifPresent(Heartbeat::abandon);
        } else {
          hb.ifPresent(Heartbeat::close);
        }
        if (e.kind() != SluiceException.Kind.CONFLICT || attempt >= NEW_TIME_ATTEMPTS) {
          throw e;
        }
        // another process took the same instant time (for any action): take the next one
      }
    }
  }

  /** An instant that is pending already (requested, or inflight from an attempt that died), to finish. */
  public Open open(Instant pending) {
    if (pending.isCompleted()) {
      throw Errors.internal("instant " + pending + " is completed; only a pending instant goes on", null);
    }
    return new Open(pending, Optional.empty(), Optional.empty());
  }

  /**
   * Runs {@code action} on {@code pending} (requested: moved to inflight first; inflight: an earlier attempt's,
   * carried on) and publishes its metadata as {@code publish} says; returns what the action produced.
   */
  public <R> R run(Instant pending, Publish publish, String purpose, InstantAction<R> action) {
    try (Open open = open(pending)) {
      Instant inflight = pending.isRequested() ? open.start(action.inflightContent(), publish == Publish.SHARED)
          : pending;
      return finish(open, inflight, publish, purpose, action);
    }
  }

  /**
   * As {@link #run}, for an action with no requested state (a savepoint): creates {@code inflight}'s file first,
   * unless {@code exists} (an earlier attempt that died left it).
   */
  public <R> R runWithoutRequest(Instant inflight, boolean exists, Publish publish, String purpose,
      InstantAction<R> action) {
    if (!exists) {
      store.createInflight(inflight, action.inflightContent());
    }
    try (Open open = open(inflight)) {
      return finish(open, inflight, publish, purpose, action);
    }
  }

  private <R> R finish(Open open, Instant inflight, Publish publish, String purpose, InstantAction<R> action) {
    R result = action.execute(inflight);
    if (publish != Publish.NEVER) {
      open.publish(inflight, action.metadata(result), publish, purpose, () -> action.beforePublish(inflight, result));
      if (action.writesMarkers()) {
        open.deleteMarkers();
      }
    }
    return result;
  }

  /** The markers of the instant at {@code time}. */
  public Markers markers(String time) {
    return new Markers(storage, basePath, time);
  }

  /** One pending instant on its way to completed: its heartbeat, and whether it was published. */
  public final class Open implements AutoCloseable {
    private final Instant pending;
    private final Optional<Heartbeat> heartbeat;
    private final Optional<Heartbeats> heartbeats;
    private volatile boolean published;
    private Optional<Timeline> loadedUnderLock = Optional.empty();

    private Open(Instant pending, Optional<Heartbeat> heartbeat, Optional<Heartbeats> heartbeats) {
      this.pending = pending;
      this.heartbeat = heartbeat;
      this.heartbeats = heartbeats;
    }

    /** The instant as it was opened (requested, for a new one). */
    public Instant instant() {
      return pending;
    }

    /**
     * Moves the requested instant to inflight with {@code content}. With {@code shared} (several processes carry
     * out the same plan) an inflight file another process created first is taken as this one's.
     */
    public Instant start(byte[] content, boolean shared) {
      Instant requested = pending.toState(State.REQUESTED);
      try {
        return store.transitionToInflight(requested, content);
      } catch (SluiceException e) {
        Instant inflight = requested.toState(State.INFLIGHT);
        if (shared && e.kind() == SluiceException.Kind.CONFLICT && store.readIfExists(inflight).isPresent()) {
          // another process started the same plan; carrying it out twice is harmless
          return inflight;
        }
        throw e;
      }
    }

    /**
     * Publishes {@code inflight} with {@code content}: under the lock if {@code publish} is UNDER_LOCK, checks the
     * heartbeat, runs {@code beforePublish} (a write's conflict check, later the metadata table's mirror commit),
     * then creates the completed file. Returns the completed instant.
     */
    /**
     * Tells the publish under way that {@code now} was loaded under its lock, by its {@code beforePublish}: the
     * completion time (layout 2) is then taken from it instead of another listing of the timeline folder. Ignored by
     * a publish not taken under the lock.
     */
    public void loadedUnderLock(Timeline now) {
      loadedUnderLock = Optional.of(now);
    }

    public Instant publish(Instant inflight, byte[] content, Publish publish, String purpose, Runnable beforePublish) {
      Supplier<Instant> commit = () -> {
        checkHeartbeat();
        beforePublish.run();
        Optional<Timeline> fresh = publish == Publish.UNDER_LOCK ? loadedUnderLock : Optional.empty();
        loadedUnderLock = Optional.empty();
        Instant completed = complete(inflight, content, publish == Publish.SHARED, fresh);
        published = true;
        return completed;
      };
      return publish == Publish.UNDER_LOCK ? locked(purpose, commit) : commit.get();
    }

    private Instant complete(Instant inflight, byte[] content, boolean shared, Optional<Timeline> fresh) {
      try {
        return fresh.isPresent() ? store.complete(inflight, content, fresh.get()) : store.complete(inflight, content);
      } catch (SluiceException e) {
        Instant completed = inflight.toState(State.COMPLETED);
        if (!shared || e.kind() != SluiceException.Kind.CONFLICT
            || store.readIfExists(completed).isEmpty() && !goneFromActiveTimeline(inflight)) {
          throw e;
        }
        // another process completed the same plan first (Hudi's checkIfOtherWriterCommitted), and archival may
        // already have moved it out of the active timeline
        return completed;
      }
    }

    /**
     * True if no file of {@code instant} is left in the active timeline. A shared plan (a clean) is never rolled back,
     * so its files all go only when another process completed it and archival, which archives completed instants
     * only, then moved it.
     */
    private boolean goneFromActiveTimeline(Instant instant) {
      return store.load().filter(i -> i.time().equals(instant.time()) && i.action() == instant.action()).isEmpty();
    }

    /**
     * Deletes the instant's markers after its publish. If that fails the commit stands: markers of a completed
     * instant are harmless and a later rollback, clean or archival sweeps them.
     */
    public void deleteMarkers() {
      try {
        markers(pending.time()).deleteAll();
      } catch (SluiceException e) {
        // the instant is published; its markers are swept later
        return;
      }
    }

    private void checkHeartbeat() {
      if (heartbeat.isEmpty() || heartbeats.isEmpty()) {
        return;
      }
      Heartbeats hbs = heartbeats.get();
      if (heartbeat.get().failure().isPresent() || hbs.isExpired(pending.time())) {
        throw Errors.conflict("Commit of instant " + pending.time(), "its heartbeat (" + hbs.pathOf(pending.time())
            + ") expired, so another writer may have rolled it back"
            + heartbeat.get().failure().map(f -> " (" + f.getMessage() + ")").orElse(""));
      }
    }

    /** True once the completed file was created. */
    public boolean published() {
      return published;
    }

    /**
     * Undoes the instant after {@code failure}, unless it was published: {@code undo} (a rollback) runs under the
     * lock. A failure of the undo is attached to {@code failure}, and a later rollback finishes it. Returns
     * {@code failure} for rethrowing.
     */
    public RuntimeException abort(RuntimeException failure, String purpose, Function<Instant, ?> undo) {
      if (published) {
        return failure;
      }
      try {
        locked(purpose, () -> undo.apply(pending));
      } catch (RuntimeException undoFailure) {
        failure.addSuppressed(undoFailure);
      }
      return failure;
    }

    /** Stops the heartbeat, if the instant has one. */
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
}
