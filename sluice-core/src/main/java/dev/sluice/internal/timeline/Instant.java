package dev.sluice.internal.timeline;

import dev.sluice.internal.error.Errors;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One state of one action at one instant time, i.e. one file of the timeline ({@code HoodieInstant}).
 * A completed compaction is the commit file {@code <ts>.commit}, so {@code (ts, COMPACTION, COMPLETED)} is
 * normalized to {@code (ts, COMMIT, COMPLETED)} (and a completed log compaction to a deltacommit); the
 * {@link Timeline} remembers which commits were compactions.
 *
 * @param time instant time, e.g. {@code 20240101120000123}
 * @param action the action
 * @param state the state
 */
public record Instant(String time, Action action, State state) implements Comparable<Instant> {
  // HoodieInstant.NAME_FORMAT: timestamp, .action, optional .state
  private static final Pattern NAME = Pattern.compile("^(\\d+)(\\.\\w+)(\\.\\D+)?$");

  /** Hudi's order: time, then action (a compaction sorts as a commit), then state. */
  private static final Comparator<Instant> ORDER = Comparator.comparing(Instant::time)
      .thenComparing(i -> i.action().completedAs().id())
      .thenComparing(Instant::state);

  /** Validates and normalizes the completed forms of compaction and log compaction. */
  public Instant {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(state, "state");
    if (time.isEmpty() || !time.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw Errors.internal("instant time must be digits, got '" + time + "'", null);
    }
    if (state == State.COMPLETED) {
      action = action.completedAs();
    }
  }

  /** A requested instant. */
  public static Instant requested(String time, Action action) {
    return new Instant(time, action, State.REQUESTED);
  }

  /** An inflight instant. */
  public static Instant inflight(String time, Action action) {
    return new Instant(time, action, State.INFLIGHT);
  }

  /** A completed instant. */
  public static Instant completed(String time, Action action) {
    return new Instant(time, action, State.COMPLETED);
  }

  /** The file name of this state under {@code .hoodie/} ({@code HoodieInstant.getFileName}). */
  public String fileName() {
    if (action == Action.COMMIT && state == State.INFLIGHT) {
      // legacy name kept for commits
      return time + ".inflight";
    }
    if (action == Action.SAVEPOINT && state == State.REQUESTED) {
      throw Errors.internal("savepoints have no requested state (" + time + ")", null);
    }
    return switch (state) {
      case REQUESTED -> time + "." + action.id() + ".requested";
      case INFLIGHT -> time + "." + action.id() + ".inflight";
      case COMPLETED -> time + "." + action.id();
    };
  }

  /**
   * The instant a timeline file name stands for; empty for anything else ({@code hoodie.properties},
   * {@code .crc} side files, folders, unknown actions).
   */
  public static Optional<Instant> parse(String fileName) {
    Matcher m = NAME.matcher(fileName);
    if (!m.matches()) {
      return Optional.empty();
    }
    String time = m.group(1);
    String actionPart = m.group(2).substring(1);
    String statePart = m.group(3);
    if (actionPart.equals("inflight")) {
      return statePart == null ? Optional.of(inflight(time, Action.COMMIT)) : Optional.empty();
    }
    Optional<Action> action = Action.fromId(actionPart);
    if (action.isEmpty()) {
      return Optional.empty();
    }
    Action a = action.get();
    State s;
    if (statePart == null) {
      if (a != a.completedAs()) {
        // "<ts>.compaction" is not a file Hudi writes: compactions complete as "<ts>.commit"
        return Optional.empty();
      }
      s = State.COMPLETED;
    } else if (statePart.equals(".requested")) {
      if (a == Action.SAVEPOINT) {
        return Optional.empty();
      }
      s = State.REQUESTED;
    } else if (statePart.equals(".inflight")) {
      s = State.INFLIGHT;
    } else {
      return Optional.empty();
    }
    Instant parsed = new Instant(time, a, s);
    return parsed.fileName().equals(fileName) ? Optional.of(parsed) : Optional.empty();
  }

  /** The same action at the same time in another state (a completed compaction becomes a commit). */
  public Instant toState(State newState) {
    return new Instant(time, action, newState);
  }

  /** True if completed. */
  public boolean isCompleted() {
    return state == State.COMPLETED;
  }

  /** True if inflight. */
  public boolean isInflight() {
    return state == State.INFLIGHT;
  }

  /** True if requested. */
  public boolean isRequested() {
    return state == State.REQUESTED;
  }

  @Override
  public int compareTo(Instant o) {
    return ORDER.compare(this, o);
  }

  @Override
  public String toString() {
    return "[" + time + "__" + action.id() + "__" + state + "]";
  }
}
