package dev.sluice.internal.compact;

import dev.sluice.internal.error.Errors;
import java.util.Arrays;
import java.util.Locale;

/**
 * When a compaction is due ({@code CompactionTriggerStrategy}), counted from the last completed compaction (or,
 * before the first, from the first delta commit): the number of delta commits since then, the seconds since then,
 * or both.
 */
public enum TriggerStrategy {
  /** At least {@code hoodie.compact.inline.max.delta.commits} delta commits (any state). */
  NUM_COMMITS,
  /** At least {@code hoodie.compact.inline.max.delta.seconds} seconds. */
  TIME_ELAPSED,
  /** Either of the two. */
  NUM_OR_TIME,
  /** Both. */
  NUM_AND_TIME;

  /** True if the trigger fires for {@code deltaCommits} delta commits and {@code seconds} elapsed. */
  public boolean fires(int deltaCommits, long seconds, int maxDeltaCommits, long maxDeltaSeconds) {
    boolean byNum = maxDeltaCommits <= deltaCommits;
    boolean byTime = maxDeltaSeconds <= seconds;
    return switch (this) {
      case NUM_COMMITS -> byNum;
      case TIME_ELAPSED -> byTime;
      case NUM_OR_TIME -> byNum || byTime;
      case NUM_AND_TIME -> byNum && byTime;
    };
  }

  /** The strategy named {@code value} (any case); BAD_CONFIG naming {@code key} otherwise. */
  public static TriggerStrategy parse(String key, String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw Errors.badConfig(key, value, "one of " + Arrays.toString(values()));
    }
  }
}
