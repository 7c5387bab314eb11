package dev.sluice.api;

import java.util.Objects;
import java.util.Optional;

/**
 * What an attempt to schedule a compaction did ({@link TableCompaction#attemptSchedule(boolean)}): the instant it
 * planned, or why it planned nothing, as the scheduler decided it.
 *
 * @param instant the planned compaction's instant; empty when nothing was scheduled
 * @param reason why (or that) it was scheduled
 * @param explanation the reason in words, with the figures behind it (e.g. "2 of 5 delta commits since the last
 *     compaction") and the configuration keys that set them
 */
public record CompactionScheduling(Optional<String> instant, Reason reason, String explanation) {
  /** Why a compaction was or was not scheduled. */
  public enum Reason {
    /** A plan was written. */
    SCHEDULED,
    /**
     * The trigger ({@code hoodie.compact.inline.trigger.strategy}) is not reached: too few delta commits
     * ({@code hoodie.compact.inline.max.delta.commits}) or too little time ({@code hoodie.compact.inline.max.delta.seconds})
     * since the last compaction.
     */
    TRIGGER_NOT_REACHED,
    /** Nothing to compact: no latest file slice has log files. */
    NO_LOG_FILES,
    /** Every file slice with log files is already in a pending compaction or clustering plan. */
    SLICES_BUSY,
    /** The compaction strategy ({@code hoodie.compaction.strategy}) took none of the slices with log files. */
    STRATEGY_CHOSE_NONE,
    /**
     * A write is pending before the new instant (running, or failed and not yet rolled back); a single writer does not
     * plan over it.
     */
    WRITE_PENDING
  }

  /** Checks that an instant is there exactly when one was scheduled. */
  public CompactionScheduling {
    Objects.requireNonNull(instant, "instant");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(explanation, "explanation");
    if (instant.isPresent() != (reason == Reason.SCHEDULED)) {
      throw new IllegalArgumentException("an instant goes with SCHEDULED and only with it: " + instant + " " + reason);
    }
  }

  /** True if a plan was written. */
  public boolean scheduled() {
    return instant.isPresent();
  }
}
