package dev.sluice.api;

import dev.sluice.internal.timeline.InstantTimes;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * One instant of a table's timeline, read-only.
 *
 * @param time the instant time ({@code yyyyMMddHHmmssSSS})
 * @param action Hudi's action id: {@code commit}, {@code deltacommit}, {@code compaction}, {@code clean},
 *     {@code rollback}, {@code savepoint}, {@code restore}, {@code replacecommit}, ...
 * @param state requested, inflight or completed
 */
public record InstantInfo(String time, String action, State state) {
  /** The states of an instant, in the order it passes through them. */
  public enum State {
    /** Planned: {@code <time>.<action>.requested}. */
    REQUESTED,
    /** Running: {@code <time>.<action>.inflight}. */
    INFLIGHT,
    /** Done: {@code <time>.<action>}. */
    COMPLETED
  }

  /** Rejects nulls. */
  public InstantInfo {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(state, "state");
  }

  /**
   * The point in time of the instant time {@code time} written in {@code zone} (17- or 14-digit forms); empty for a
   * time that is not a clock time (shorter than 14 digits, such as the fixed {@code 00000000000001}).
   */
  public static Optional<java.time.Instant> clockTime(String time, ZoneId zone) {
    if (time.length() < InstantTimes.SECONDS_LENGTH) {
      return Optional.empty();
    }
    return Optional.of(InstantTimes.toTime(time, zone));
  }

  /** Whether the instant is completed. */
  public boolean isCompleted() {
    return state == State.COMPLETED;
  }
}
