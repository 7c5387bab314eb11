package dev.sluice.internal.timeline;

import dev.sluice.api.SluiceException;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.util.KillPoints;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The timeline files of a table: loading the active timeline and moving instants through their states (each
 * transition creates the next state's file and keeps the earlier ones). Every state file is created with
 * {@link Storage#createExclusive}, so it appears whole in one step and never replaces an existing file; publishing
 * the completed file is the commit point of a write. Where the files are and how they are named is the store's
 * {@link TimelineLayout}: layout 1 (table version 6) or layout 2 (versions 8 and 9), where a completed file is named
 * with its completion time, taken when it is created ({@link #complete}); a store of layout 2 refuses the instant
 * files of actions Sluice does not run on it.
 */
public final class TimelineStore {
  private static final Set<Action> COMMIT_METADATA_ACTIONS = EnumSet.of(Action.COMMIT, Action.DELTACOMMIT,
      Action.REPLACECOMMIT);

  private static final int NEW_TIME_ATTEMPTS = 5;

  private final Storage storage;
  private final String basePath;
  private final String killPointPrefix;
  // null until first needed for a store of "the table's layout": read from hoodie.properties then
  private volatile TimelineLayout layout;
  // layout 2: completion times of the completed files seen by the last load, to name them again
  private final Map<String, String> completionTimes = new ConcurrentHashMap<>();

  /**
   * A store for the table at {@code basePath} in the layout of its version; does no I/O (the layout is read from
   * {@code hoodie.properties} when first needed; layout 1 if there is none).
   */
  public TimelineStore(Storage storage, String basePath) {
    this(storage, basePath, "timeline", null);
  }

  /** A store for the table at {@code basePath} whose timeline has {@code layout}; does no I/O. */
  public TimelineStore(Storage storage, String basePath, TimelineLayout layout) {
    this(storage, basePath, "timeline", layout);
  }

  /**
   * A store whose kill points are named {@code <killPointPrefix>.<action>.<state>...}: the metadata table's timeline
   * uses its own, so that the crash harness tells its completions from the data table's commit point. The layout is
   * read from the table's {@code hoodie.properties} when first needed, as for {@link #TimelineStore(Storage, String)}
   * (a metadata table has the layout of its data table's version).
   */
  public TimelineStore(Storage storage, String basePath, String killPointPrefix) {
    this(storage, basePath, killPointPrefix, null);
  }

  private TimelineStore(Storage storage, String basePath, String killPointPrefix, TimelineLayout layout) {
    this.storage = storage;
    this.basePath = basePath;
    this.killPointPrefix = killPointPrefix;
    this.layout = layout;
  }

  /**
   * This store, knowing the completion times of {@code loaded}'s completed instants (a timeline of this table loaded
   * before): {@link #pathOf} of those needs no listing of the timeline folder. Returns this store.
   */
  public TimelineStore knowing(Timeline loaded) {
    for (Instant i : loaded.completed().instants()) {
      loaded.completionTime(i).ifPresent(c -> completionTimes.put(Timeline.completionKey(i.time(), i.action()), c));
    }
    return this;
  }

  /** The layout of this store's timeline. */
  public TimelineLayout layout() {
    TimelineLayout l = layout;
    if (l == null) {
      // no hoodie.properties (a bare timeline folder, as tests and tools build them): the layout Sluice always wrote
      // not kept until the properties exist: a metadata table is created by the same store that found none
      Optional<TimelineLayout> read = TableConfigStore.readIfPresent(storage, basePath).map(TimelineLayout::of);
      read.ifPresent(r -> layout = r);
      l = read.orElse(TimelineLayout.V1);
    }
    return l;
  }

  private String metaPath() {
    return layout().folder(basePath);
  }

  /** The table's base path. */
  public String basePath() {
    return basePath;
  }

  /**
   * The path of an instant's file. A completed instant of layout 2 is named with its completion time, known from
   * the last {@link #load()} (or, if that did not see it, from a listing of the timeline folder).
   */
  public String pathOf(Instant instant) {
    TimelineLayout layout = layout();
    Optional<String> completion = Optional.empty();
    if (instant.isCompleted() && layout.slicesByCompletionTime()) {
      String key = Timeline.completionKey(instant.time(), instant.action().completedAs());
      completion = Optional.ofNullable(completionTimes.get(key));
      if (completion.isEmpty()) {
        load();
        completion = Optional.ofNullable(completionTimes.get(key));
      }
    }
    return StoragePaths.join(metaPath(), layout.fileName(instant, completion));
  }

  /** Loads the active timeline with one listing of the timeline folder. */
  public Timeline load() {
    TimelineLayout layout = layout();
    List<FileInfo> files = listFolder();
    List<Instant> states = new ArrayList<>();
    Map<String, String> completions = new HashMap<>();
    for (FileInfo f : files) {
      if (!f.directory()) {
        layout.parse(f.name()).ifPresent(file -> {
          states.add(file.instant());
          file.completionTime().ifPresent(c -> completions.put(
              Timeline.completionKey(file.instant().time(), file.instant().action()), c));
        });
      }
    }
    completionTimes.putAll(completions);
    return Timeline.of(layout, states, completions);
  }

  /** Creates the requested state of an instant with {@code content} (may be empty). */
  public void createRequested(Instant requested, byte[] content) {
    if (requested.state() != State.REQUESTED) {
      throw Errors.internal("createRequested needs a requested instant, got " + requested, null);
    }
    publish(requested, content, "request");
  }

  /**
   * As {@link #createRequested(Instant, byte[])}; with {@code concurrentWriters} (tables that several processes
   * write) it also fails with CONFLICT if another instant (of another action) already has the time, removing the
   * file just created again. One listing more.
   *
   * <p>Two processes may take the same millisecond for different actions, say a writer's commit and another
   * writer's rollback. Their files do not collide by name, but an instant time must name one instant: the markers,
   * heartbeat and rollback bookkeeping of one would act on the other's files. Whichever creator lists second sees
   * the first one's file, so at most one of them keeps the time. (Within one process the times never repeat.)
   */
  public void createRequested(Instant requested, byte[] content, boolean concurrentWriters) {
    createRequested(requested, content);
    if (!concurrentWriters) {
      return;
    }
    Optional<String> other;
    try {
      other = otherInstantAt(requested);
    } catch (SluiceException e) {
      removeClashing(requested, e);
      throw e;
    }
    if (other.isPresent()) {
      SluiceException conflict = Errors.conflict("Cannot request instant " + requested.time() + " ("
          + requested.action().id() + ")", other.get() + " has the same instant time; take a new one");
      removeClashing(requested, conflict);
      throw conflict;
    }
  }

  private void removeClashing(Instant requested, SluiceException cause) {
    String path = pathOf(requested);
    try {
      storage.delete(path);
    } catch (IOException e) {
      // the requested instant stays, without files; the next rollback of failed writes removes it
      cause.addSuppressed(e);
    }
  }

  /**
   * Creates the requested state of a new instant of {@code action} at a time from {@code times}, skipping times
   * {@code known} (the timeline as last loaded) has. With {@code concurrentWriters} the time must be unique among
   * all actions ({@link #createRequested(Instant, byte[], boolean)}) and the next time is taken while another process holds it.
   */
  public Instant createRequestedAtNewTime(Action action, Supplier<String> times, Timeline known, byte[] content,
      boolean concurrentWriters) {
    for (int attempt = 1; ; attempt++) {
      String time = times.get();
      if (known.contains(time)) {
        continue;
      }
      Instant requested = Instant.requested(time, action);
      try {
        createRequested(requested, content, concurrentWriters);
        return requested;
      } catch (SluiceException e) {
        if (e.kind() != SluiceException.Kind.CONFLICT || attempt >= NEW_TIME_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /** The file name of another instant (another action) at {@code instant}'s time, if the folder has one. */
  private Optional<String> otherInstantAt(Instant instant) {
    for (FileInfo f : listFolder()) {
      if (f.directory() || !f.name().startsWith(instant.time())) {
        continue;
      }
      Optional<Instant> i = layout().parse(f.name()).map(TimelineLayout.InstantFile::instant);
      if (i.isPresent() && i.get().time().equals(instant.time()) && i.get().action() != instant.action()) {
        return Optional.of(f.name());
      }
    }
    return Optional.empty();
  }

  /** Creates the inflight state of an instant that has no requested state (a savepoint) with {@code content}. */
  public void createInflight(Instant inflight, byte[] content) {
    if (inflight.state() != State.INFLIGHT) {
      throw Errors.internal("createInflight needs an inflight instant, got " + inflight, null);
    }
    publish(inflight, content, "start");
  }

  /**
   * Moves a requested instant to inflight, writing {@code content} to the inflight file, and returns the inflight
   * instant. Fails with CONFLICT if the requested file is gone or the inflight file already exists.
   */
  public Instant transitionToInflight(Instant requested, byte[] content) {
    if (requested.state() != State.REQUESTED) {
      throw Errors.internal("transitionToInflight needs a requested instant, got " + requested, null);
    }
    requireExists(requested, "start");
    Instant inflight = requested.toState(State.INFLIGHT);
    publish(inflight, content, "start");
    return inflight;
  }

  /**
   * Completes an inflight instant by publishing its completed file with {@code content} in one atomic step and
   * returns the completed instant (a compaction completes as a commit). Fails with CONFLICT if the completed file
   * exists (another writer completed it) or the inflight file is gone (it was rolled back).
   */
  public Instant complete(Instant inflight, byte[] content) {
    // listed now, under the caller's lock
    return complete(inflight, content, () -> latestTime(load()));
  }

  /**
   * As {@link #complete(Instant, byte[])}, with {@code underLock} the timeline loaded under the lock this completion
   * is taken under: its latest time is what a listing would find now, so the completion time needs no second
   * listing of the timeline folder.
   */
  public Instant complete(Instant inflight, byte[] content, Timeline underLock) {
    return complete(inflight, content, () -> latestTime(underLock));
  }

  private Instant complete(Instant inflight, byte[] content, Supplier<String> latestTime) {
    if (inflight.state() != State.INFLIGHT) {
      throw Errors.internal("complete needs an inflight instant, got " + inflight, null);
    }
    requireExists(inflight, "complete");
    Instant completed = inflight.toState(State.COMPLETED);
    TimelineLayout layout = layout();
    layout.requireWritable(completed.action(), "Writing instant " + completed.time() + " (" + completed.action().id() + ")");
    Optional<String> completion = layout.slicesByCompletionTime() ? layout.newCompletionTime(latestTime.get())
        : layout.newCompletionTime("");
    String key = Timeline.completionKey(completed.time(), completed.action());
    completion.ifPresent(c -> completionTimes.put(key, c));
    try {
      publish(completed, content, "complete");
    } catch (RuntimeException e) {
      completion.ifPresent(c -> completionTimes.remove(key, c));
      throw e;
    }
    return completed;
  }

  /**
   * The latest requested or completion time of {@code loaded} (layout 2: a completion is taken under the table lock,
   * after every completion another writer published, so from a timeline listed under that lock).
   */
  private static String latestTime(Timeline loaded) {
    String latest = "";
    for (Instant i : loaded.instants()) {
      String t = loaded.completionTime(i).filter(c -> c.compareTo(i.time()) > 0).orElse(i.time());
      latest = t.compareTo(latest) > 0 ? t : latest;
    }
    return latest;
  }

  private List<FileInfo> listFolder() {
    String metaPath = metaPath();
    try {
      return storage.list(metaPath);
    } catch (IOException e) {
      throw Errors.storage("list the timeline folder", metaPath, e);
    }
  }

  /** The content of an instant's file; BAD_TABLE if it does not exist. */
  public byte[] read(Instant instant) {
    return readIfExists(instant).orElseThrow(() -> Errors.badTable(pathOf(instant), "the timeline file does not exist",
        "Reload the timeline; the instant may have been archived or rolled back."));
  }

  /** The content of an instant's file, or empty if it does not exist. */
  public Optional<byte[]> readIfExists(Instant instant) {
    String path = pathOf(instant);
    try (InputStream in = storage.openRead(path)) {
      return Optional.of(in.readAllBytes());
    } catch (NoSuchFileException | FileNotFoundException e) {
      // absent is an answer here, not a failure
      return Optional.empty();
    } catch (IOException e) {
      throw Errors.storage("read", path, e);
    }
  }

  /**
   * Parses the commit metadata of a completed commit, deltacommit or replacecommit; empty if its file does not
   * exist (any more). Malformed JSON is a BAD_TABLE error naming the file.
   */
  public Optional<CommitMetadata> readCommitMetadata(Instant instant) {
    if (!instant.isCompleted() || !COMMIT_METADATA_ACTIONS.contains(instant.action())) {
      throw Errors.internal("commit metadata exists only for completed commits, not " + instant, null);
    }
    return readIfExists(instant).map(bytes -> layout().commitMetadata(bytes, pathOf(instant)));
  }

  /** Deletes one state file of an instant; false if it was not there. */
  public boolean delete(Instant instant) {
    layout().requireWritable(instant.action(), "Deleting the timeline file of instant " + instant.time() + " ("
        + instant.action().id() + ")");
    String path = pathOf(instant);
    KillPoints.reach(killPointPrefix + ".delete." + instant.action().id() + "." + instant.state().name().toLowerCase(Locale.ROOT));
    try {
      return storage.delete(path);
    } catch (IOException e) {
      throw Errors.storage("delete", path, e);
    }
  }

  /**
   * Deletes {@code file}, a state file of an instant archival has already published in the archived timeline; false
   * if it was not there. Allowed on every layout: removing an archived instant's file writes no instant, so the
   * layout-2 guard against layout-1 instant files ({@link TimelineLayout#requireWritable}) does not apply.
   */
  public boolean deleteArchived(TimelineLayout.InstantFile file) {
    Instant instant = file.instant();
    String path = StoragePaths.join(metaPath(), layout().fileName(instant, file.completionTime()));
    KillPoints.reach(killPointPrefix + ".delete." + instant.action().id() + "." + instant.state().name().toLowerCase(Locale.ROOT));
    try {
      return storage.delete(path);
    } catch (IOException e) {
      throw Errors.storage("delete", path, e);
    }
  }

  /**
   * Deletes every state file of the instant's (time, action), completed first so that the instant turns pending
   * before its plan disappears. For a compaction or log compaction this includes the commit/deltacommit it
   * completed as. Used by rollback.
   */
  public void deleteInstantFiles(Instant instant) {
    Action a = instant.action();
    List<Instant> files = new ArrayList<>();
    files.add(Instant.completed(instant.time(), a));
    files.add(Instant.inflight(instant.time(), a));
    if (a != Action.SAVEPOINT) {
      files.add(Instant.requested(instant.time(), a));
    }
    for (Instant f : files) {
      delete(f);
    }
  }

  private void requireExists(Instant from, String verb) {
    String path = pathOf(from);
    try {
      if (storage.info(path).isEmpty()) {
        throw Errors.conflict("Cannot " + verb + " instant " + from.time() + " (" + from.action().id() + ")",
            path + " does not exist; another writer may have rolled it back");
      }
    } catch (IOException e) {
      throw Errors.storage("check", path, e);
    }
  }

  private void publish(Instant target, byte[] content, String verb) {
    layout().requireWritable(target.action(), "Writing instant " + target.time() + " (" + target.action().id() + ")");
    String path = pathOf(target);
    String point = killPointPrefix + "." + target.action().id() + "." + target.state().name().toLowerCase(Locale.ROOT);
    KillPoints.reach(point + ".before");
    try {
      storage.createExclusive(path, content);
      KillPoints.reach(point + ".after");
    } catch (FileAlreadyExistsException e) {
      throw Errors.conflict("Cannot " + verb + " instant " + target.time() + " (" + target.action().id() + ")",
          path + " already exists; another writer got there first");
    } catch (IOException e) {
      throw Errors.storage("write the timeline file", path, e);
    }
  }
}
