package dev.sluice.internal.timeline;

import dev.sluice.internal.error.Errors;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Instant times: {@code yyyyMMddHHmmssSSS} strings ({@code HoodieInstantTimeGenerator}). They order as strings.
 */
public final class InstantTimes {
  /** Length of a millisecond instant time. */
  public static final int MILLIS_LENGTH = 17;
  /** Length of an old second-granularity instant time. */
  public static final int SECONDS_LENGTH = 14;
  /** Milliseconds Hudi appends to second-granularity times when it needs millisecond ones. */
  public static final String DEFAULT_MILLIS_EXT = "999";
  /** The instant time of table initialization ({@code HoodieTimeline.INIT_INSTANT_TS}). */
  public static final String INIT_INSTANT = "00000000000000";

  private static final DateTimeFormatter FORMAT = new DateTimeFormatterBuilder()
      .appendPattern("uuuuMMddHHmmss")
      .appendValue(ChronoField.MILLI_OF_SECOND, 3)
      .toFormatter()
      .withResolverStyle(ResolverStyle.STRICT);

  // process-wide, like Hudi's lastInstantTime: every new time is strictly greater than the last one handed out
  private static final AtomicReference<String> LAST = new AtomicReference<>("0");

  private InstantTimes() {
  }

  /** A new instant time in the JVM's time zone, strictly greater than every earlier one from this process. */
  public static String newInstantTime() {
    return newInstantTime(ZoneId.systemDefault());
  }

  /**
   * A new instant time in {@code zone}, strictly greater than every earlier one from this process. When the
   * clock has not moved past the last time handed out (many calls in one millisecond), the last time plus one
   * millisecond is used instead of spinning until the clock advances; the times then run slightly ahead of the
   * clock, which keeps them unique and ordered.
   */
  public static String newInstantTime(ZoneId zone) {
    return LAST.updateAndGet(last -> {
      String now = LocalDateTime.now(zone).format(FORMAT);
      if (now.compareTo(last) > 0) {
        return now;
      }
      return LocalDateTime.parse(last.substring(0, MILLIS_LENGTH), FORMAT).plusNanos(1_000_000L).format(FORMAT);
    });
  }

  /** Compares two instant times the way Hudi does (as strings). */
  public static int compare(String a, String b) {
    return a.compareTo(b);
  }

  /** True if {@code a} is strictly before {@code b}. */
  public static boolean isBefore(String a, String b) {
    return a.compareTo(b) < 0;
  }

  /** True if {@code a} is before or equal to {@code b}. */
  public static boolean isBeforeOrEqual(String a, String b) {
    return a.compareTo(b) <= 0;
  }

  /** The point in time of an instant time in the JVM's time zone; accepts 17- and 14-digit forms. */
  public static java.time.Instant toTime(String instant) {
    return toTime(instant, ZoneId.systemDefault());
  }

  /** The point in time of an instant time written in {@code zone}; accepts 17- and 14-digit forms. */
  public static java.time.Instant toTime(String instant, ZoneId zone) {
    String millis = instant;
    if (instant.length() == SECONDS_LENGTH) {
      millis = instant + DEFAULT_MILLIS_EXT;
    } else if (instant.length() > MILLIS_LENGTH) {
      // suffixed metadata-table instants: the first 17 digits are the time
      millis = instant.substring(0, MILLIS_LENGTH);
    }
    try {
      return LocalDateTime.parse(millis, FORMAT).atZone(zone).toInstant();
    } catch (DateTimeParseException e) {
      throw Errors.badInput("instant time '" + instant + "'", null, "not a valid date-time",
          "yyyyMMddHHmmssSSS (17 digits) or yyyyMMddHHmmss (14 digits)");
    }
  }

  /** Formats a point in time as a 17-digit instant time in {@code zone}. */
  public static String format(java.time.Instant time, ZoneId zone) {
    return LocalDateTime.ofInstant(time, zone).format(FORMAT);
  }
}
