package dev.sluice.internal.read;

import dev.sluice.api.Expression;
import dev.sluice.api.Expressions;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.timeline.InstantTimes;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The instants an incremental query covers: ({@code begin}, {@code end}], exclusive start and inclusive end, as
 * Hudi's {@code findInstantsInRange}.
 *
 * @param begin the range starts after this instant time
 * @param end the last instant time in the range
 */
record IncrementalRange(String begin, String end) {
  private static final Pattern INSTANT = Pattern.compile("[0-9]{17}");
  private static final String ZEROS = "00000000000000000";

  /**
   * Validates the requested range; {@code defaultEnd} (the latest completed write) is used when no end is given.
   * Both ends must be 17-digit instant times (all zeros allowed for "from the beginning") and the end must not be
   * before the beginning.
   */
  static IncrementalRange of(Optional<String> begin, Optional<String> end, Optional<String> defaultEnd) {
    String b = begin.orElseThrow(() -> Errors.badInput("the incremental query", null, "no start instant given",
        "--from INSTANT (Java: Scan.incremental(beginInstant)): rows written after that instant are returned"));
    check("--from", b);
    end.ifPresent(e -> check("--to", e));
    if (end.isPresent() && InstantTimes.isBefore(end.get(), b)) {
      throw Errors.badInput("the incremental range", null, "--to " + end.get() + " is before --from " + b,
          "an end instant at or after the start instant");
    }
    // with no writes yet the range is empty whatever the start
    String e = end.or(() -> defaultEnd).orElse(b);
    return new IncrementalRange(b, InstantTimes.isBefore(e, b) ? b : e);
  }

  private static void check(String option, String time) {
    if (!INSTANT.matcher(time).matches()) {
      throw Errors.badInput(option + " '" + time + "'", null, "not an instant time",
          "17 digits, yyyyMMddHHmmssSSS, as 'sluice timeline' shows them");
    }
    if (!isDateAndTime(time)) {
      throw Errors.badInput(option + " '" + time + "'", null, "not a valid date and time",
          "17 digits, yyyyMMddHHmmssSSS, as 'sluice timeline' shows them");
    }
  }

  /**
   * True if the 17 digits {@code time} are a date and time (or all zeros, "from the beginning"): instant and
   * completion times alike, so that a month 13 is refused on every table version.
   */
  static boolean isDateAndTime(String time) {
    if (time.equals(ZEROS)) {
      return true;
    }
    try {
      InstantTimes.toTime(time);
      return true;
    } catch (SluiceException e) {
      return false;
    }
  }

  /** True if {@code time} is in the range. */
  boolean contains(String time) {
    return InstantTimes.isBefore(begin, time) && InstantTimes.isBeforeOrEqual(time, end);
  }

  /** True if the range holds no instant time. */
  boolean isEmpty() {
    return begin.equals(end);
  }

  /** {@code _hoodie_commit_time} in the range, as a filter. */
  Expression commitTimeFilter() {
    return Expressions.and(Expressions.gt(MetaFields.COMMIT_TIME, begin), Expressions.le(MetaFields.COMMIT_TIME, end));
  }
}
