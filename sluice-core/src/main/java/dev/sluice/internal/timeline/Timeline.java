package dev.sluice.internal.timeline;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * An immutable snapshot of the active timeline: for each (time, action) only its latest state, sorted in Hudi's
 * order. It also remembers the times that have compaction files, because a completed compaction is just a
 * {@code <ts>.commit}, the {@link TimelineLayout} it was loaded from, and (layout 2) the completion times of its
 * completed instants.
 */
public final class Timeline {
  private static final Set<Action> WRITE_ACTIONS = EnumSet.of(Action.COMMIT, Action.DELTACOMMIT,
      Action.REPLACECOMMIT, Action.COMPACTION, Action.LOGCOMPACTION, Action.CLUSTERING);
  private static final Set<Action> COMMIT_ACTIONS = EnumSet.of(Action.COMMIT, Action.DELTACOMMIT, Action.REPLACECOMMIT);
  private static final Timeline EMPTY = new Timeline(List.of(), Set.of(), Set.of(), TimelineLayout.V1, Map.of());

  private final List<Instant> instants;
  private final Set<String> compactionTimes;
  private final Set<String> logCompactionTimes;
  private final TimelineLayout layout;
  private final Map<String, String> completionTimes;

  private Timeline(List<Instant> sorted, Set<String> compactionTimes, Set<String> logCompactionTimes,
      TimelineLayout layout, Map<String, String> completionTimes) {
    this.instants = List.copyOf(sorted);
    this.compactionTimes = compactionTimes;
    this.logCompactionTimes = logCompactionTimes;
    this.layout = layout;
    this.completionTimes = completionTimes;
  }

  /** A timeline with no instants. */
  public static Timeline empty() {
    return EMPTY;
  }

  /**
   * The timeline of a set of state files: groups them by (time, action, with a compaction counting as a commit)
   * and keeps the latest state of each.
   */
  public static Timeline of(Collection<Instant> stateFiles) {
    return of(TimelineLayout.V1, stateFiles, Map.of());
  }

  /**
   * As {@link #of(Collection)} for a timeline of {@code layout}, with the completion times the completed files'
   * names carry (requested time → completion time; layout 2 only).
   */
  public static Timeline of(TimelineLayout layout, Collection<Instant> stateFiles, Map<String, String> completionTimes) {
    Map<String, Instant> latest = new HashMap<>();
    Set<String> compactions = new HashSet<>();
    Set<String> logCompactions = new HashSet<>();
    for (Instant i : stateFiles) {
      if (i.action() == Action.COMPACTION) {
        compactions.add(i.time());
      } else if (i.action() == Action.LOGCOMPACTION) {
        logCompactions.add(i.time());
      }
      String key = i.time() + "." + i.action().completedAs().id();
      latest.merge(key, i, (a, b) -> a.state().compareTo(b.state()) >= 0 ? a : b);
    }
    List<Instant> sorted = new ArrayList<>(latest.values());
    sorted.sort(null);
    return new Timeline(sorted, Set.copyOf(compactions), Set.copyOf(logCompactions), layout,
        Map.copyOf(completionTimes));
  }

  /**
   * This timeline with {@code stateFile} added (a later state of an instant replaces the earlier one): what a
   * writer that just created that state file would see on a fresh load, without listing {@code .hoodie/} again.
   */
  public Timeline plus(Instant stateFile) {
    Map<String, Instant> latest = new HashMap<>();
    for (Instant i : instants) {
      latest.put(i.time() + "." + i.action().completedAs().id(), i);
    }
    latest.merge(stateFile.time() + "." + stateFile.action().completedAs().id(), stateFile,
        (a, b) -> a.state().compareTo(b.state()) >= 0 ? a : b);
    Set<String> compactions = new HashSet<>(compactionTimes);
    Set<String> logCompactions = new HashSet<>(logCompactionTimes);
    if (stateFile.action() == Action.COMPACTION) {
      compactions.add(stateFile.time());
    } else if (stateFile.action() == Action.LOGCOMPACTION) {
      logCompactions.add(stateFile.time());
    }
    List<Instant> sorted = new ArrayList<>(latest.values());
    sorted.sort(null);
    return new Timeline(sorted, Set.copyOf(compactions), Set.copyOf(logCompactions), layout, completionTimes);
  }

  /** The layout of the timeline folder this timeline was loaded from (layout 1 unless loaded from layout 2). */
  public TimelineLayout layout() {
    return layout;
  }

  /**
   * The completion time of the completed instant requested at {@code time}, when its file name carries one (layout
   * 2); empty for pending instants, instants of layout 1 and completed files left without one by an upgrade.
   */
  public Optional<String> completionTime(String time) {
    return Optional.ofNullable(completionTimes.get(time)).filter(c -> isCompleted(time));
  }

  /**
   * The completion time of the completed {@code instant} (as {@link #completionTime(String)}, but a savepoint's is its
   * own, not that of the commit it shares its time with).
   */
  public Optional<String> completionTime(Instant instant) {
    return Optional.ofNullable(completionTimes.get(completionKey(instant.time(), instant.action())))
        .filter(c -> isCompleted(instant.time()));
  }

  /**
   * The key of an instant's completion time in the maps of requested → completion time: the requested time, except
   * for a savepoint, which has the time of the commit it savepoints and completes at a time of its own.
   */
  static String completionKey(String time, Action action) {
    return action == Action.SAVEPOINT ? time + "." + action.id() : time;
  }

  /** The instants, oldest first. */
  public List<Instant> instants() {
    return instants;
  }

  /** True if there are no instants. */
  public boolean isEmpty() {
    return instants.isEmpty();
  }

  /** The completed instants. */
  public Timeline completed() {
    return filter(Instant::isCompleted);
  }

  /** Instants of actions that write data files: commit, deltacommit, replacecommit, compaction, log compaction. */
  public Timeline writeTimeline() {
    return filter(i -> WRITE_ACTIONS.contains(i.action()));
  }

  /** Instants of commit, deltacommit and replacecommit (any state). */
  public Timeline commitsTimeline() {
    return filter(i -> COMMIT_ACTIONS.contains(i.action()));
  }

  /** Completed instants plus pending compactions ({@code filterCompletedAndCompactionInstants}). */
  public Timeline completedAndPendingCompactions() {
    return filter(i -> i.isCompleted() || i.action() == Action.COMPACTION);
  }

  /** The instants that match. */
  public Timeline filter(Predicate<Instant> keep) {
    List<Instant> out = new ArrayList<>();
    for (Instant i : instants) {
      if (keep.test(i)) {
        out.add(i);
      }
    }
    return out.size() == instants.size() ? this
        : new Timeline(out, compactionTimes, logCompactionTimes, layout, completionTimes);
  }

  /** The oldest instant. */
  public Optional<Instant> firstInstant() {
    return instants.isEmpty() ? Optional.empty() : Optional.of(instants.get(0));
  }

  /** The newest instant. */
  public Optional<Instant> lastInstant() {
    return instants.isEmpty() ? Optional.empty() : Optional.of(instants.get(instants.size() - 1));
  }

  /** The newest completed instant of any action. */
  public Optional<Instant> lastCompleted() {
    for (int i = instants.size() - 1; i >= 0; i--) {
      if (instants.get(i).isCompleted()) {
        return Optional.of(instants.get(i));
      }
    }
    return Optional.empty();
  }

  /** The newest completed commit, deltacommit or replacecommit (this includes completed compactions). */
  public Optional<Instant> lastCompletedCommit() {
    for (int i = instants.size() - 1; i >= 0; i--) {
      Instant x = instants.get(i);
      if (x.isCompleted() && COMMIT_ACTIONS.contains(x.action())) {
        return Optional.of(x);
      }
    }
    return Optional.empty();
  }

  /** The first instant that is not a savepoint's; what "before the timeline starts" is measured against. */
  public Optional<Instant> firstNonSavepoint() {
    Set<String> savepointTimes = new HashSet<>();
    for (Instant i : instants) {
      if (i.action() == Action.SAVEPOINT) {
        savepointTimes.add(i.time());
      }
    }
    for (Instant i : instants) {
      if (!savepointTimes.contains(i.time())) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  /**
   * True if an instant at {@code time} is completed. A 17-digit time ending in {@code 999} also matches a
   * completed 14-digit instant (Hudi's second-granularity compatibility).
   */
  public boolean isCompleted(String time) {
    for (Instant i : instants) {
      if (i.isCompleted() && sameTime(i.time(), time)) {
        return true;
      }
    }
    return false;
  }

  /** True if any instant at {@code time} is in this timeline (any state). */
  public boolean contains(String time) {
    for (Instant i : instants) {
      if (sameTime(i.time(), time)) {
        return true;
      }
    }
    return false;
  }

  /** True if {@code time} is older than the first non-savepoint instant (archived instants count as committed). */
  public boolean isBeforeStart(String time) {
    Optional<Instant> first = firstNonSavepoint();
    return first.isPresent() && InstantTimes.isBefore(time, first.get().time());
  }

  /** Completed, or before the start of this timeline ({@code containsOrBeforeTimelineStarts} on completed instants). */
  public boolean containsOrBeforeStart(String time) {
    return isCompleted(time) || isBeforeStart(time);
  }

  /** True if an instant at {@code time} is requested or inflight. */
  public boolean isInflight(String time) {
    for (Instant i : instants) {
      if (!i.isCompleted() && sameTime(i.time(), time)) {
        return true;
      }
    }
    return false;
  }

  /** Requested or inflight compactions, oldest first. */
  public List<Instant> pendingCompactions() {
    return filter(i -> i.action() == Action.COMPACTION && !i.isCompleted()).instants();
  }

  /** Requested or inflight log compactions, oldest first. */
  public List<Instant> pendingLogCompactions() {
    return filter(i -> i.action() == Action.LOGCOMPACTION && !i.isCompleted()).instants();
  }

  /** Requested or inflight commits, deltacommits and replacecommits: writes that are running or failed. */
  public List<Instant> inflightWrites() {
    return filter(i -> !i.isCompleted() && COMMIT_ACTIONS.contains(i.action())).instants();
  }

  /** True if {@code time} has compaction files: a pending compaction, or a commit that completed one. */
  public boolean isCompaction(String time) {
    return compactionTimes.contains(time);
  }

  /** True if {@code time} has log-compaction files. */
  public boolean isLogCompaction(String time) {
    return logCompactionTimes.contains(time);
  }

  /** The instants at or before {@code time} (time travel). */
  public Timeline asOf(String time) {
    return filter(i -> InstantTimes.isBeforeOrEqual(i.time(), time));
  }

  /** The instants strictly after {@code time}. */
  public Timeline after(String time) {
    return filter(i -> InstantTimes.isBefore(time, i.time()));
  }

  /** The instant at {@code time}, if any (the first in timeline order if several actions share it). */
  public Optional<Instant> find(String time) {
    for (Instant i : instants) {
      if (i.time().equals(time)) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  private static boolean sameTime(String have, String want) {
    if (have.equals(want)) {
      return true;
    }
    return want.length() == InstantTimes.MILLIS_LENGTH && have.length() == InstantTimes.SECONDS_LENGTH
        && want.endsWith(InstantTimes.DEFAULT_MILLIS_EXT) && want.startsWith(have);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Timeline t && t.instants.equals(instants) && t.compactionTimes.equals(compactionTimes)
        && t.logCompactionTimes.equals(logCompactionTimes) && t.layout.equals(layout)
        && t.completionTimes.equals(completionTimes);
  }

  @Override
  public int hashCode() {
    return instants.hashCode();
  }

  @Override
  public String toString() {
    return "Timeline" + instants;
  }
}
