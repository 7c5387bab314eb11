package dev.sluice.tools.records;

import java.time.DateTimeException;
import java.time.LocalDate;

/**
 * A small, allocation-light parser and formatter for the ISO-8601 forms the readers accept and the writers
 * produce: {@code 2024-01-31}, {@code 2024-01-31T10:15:30.123456Z}, {@code 2024-01-31 10:15:30+02:00},
 * {@code 10:15:30.5}. Years beyond 9999 carry a sign ({@code +10000-01-01}), as {@link LocalDate#toString()}
 * prints them. Parse failures throw {@link DateTimeException} with the reason.
 */
final class DateTimeText {
  static final long NANOS_PER_DAY = 86_400_000_000_000L;

  /** The result of parsing a date with optional time and offset. */
  record Parsed(long epochDay, long nanoOfDay, boolean hasTime, boolean hasOffset, int offsetSeconds) {
  }

  private final String s;
  private int pos;

  private DateTimeText(String s) {
    this.s = s;
  }

  /** Parses a date, optionally followed by {@code T} or a space, a time and an offset. */
  static Parsed parseDateTime(String text) {
    DateTimeText p = new DateTimeText(text);
    long epochDay = p.date();
    if (p.pos == text.length()) {
      return new Parsed(epochDay, 0, false, false, 0);
    }
    char sep = text.charAt(p.pos);
    if (sep != 'T' && sep != 't' && sep != ' ') {
      throw new DateTimeException("unexpected '" + sep + "' after the date");
    }
    p.pos++;
    long nanoOfDay = p.time();
    boolean hasOffset = false;
    int offset = 0;
    if (p.pos < text.length()) {
      offset = p.offset();
      hasOffset = true;
    }
    return new Parsed(epochDay, nanoOfDay, true, hasOffset, offset);
  }

  /** Parses a time of day {@code HH:mm[:ss[.fraction]]} to nanoseconds of the day. */
  static long parseTime(String text) {
    DateTimeText p = new DateTimeText(text);
    long nanos = p.time();
    p.end();
    return nanos;
  }

  private long date() {
    int start = pos;
    boolean negative = false;
    if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
      negative = s.charAt(pos) == '-';
      pos++;
    }
    int digitsStart = pos;
    long year = 0;
    while (pos < s.length() && isDigit(s.charAt(pos))) {
      if (pos - digitsStart >= 10) {
        throw new DateTimeException("year out of range");
      }
      year = year * 10 + (s.charAt(pos) - '0');
      pos++;
    }
    int yearDigits = pos - digitsStart;
    if (yearDigits < 4) {
      throw new DateTimeException("the year needs four digits");
    }
    if (yearDigits > 4 && start == digitsStart) {
      throw new DateTimeException("a year beyond 9999 needs a leading sign");
    }
    expect('-');
    int month = twoDigits();
    expect('-');
    int day = twoDigits();
    if (year > 999_999_999L) {
      throw new DateTimeException("year out of range");
    }
    return LocalDate.of((int) (negative ? -year : year), month, day).toEpochDay();
  }

  private long time() {
    int hour = twoDigits();
    expect(':');
    int minute = twoDigits();
    int second = 0;
    long nano = 0;
    if (pos < s.length() && s.charAt(pos) == ':') {
      pos++;
      second = twoDigits();
      if (pos < s.length() && (s.charAt(pos) == '.' || s.charAt(pos) == ',')) {
        pos++;
        int fracStart = pos;
        while (pos < s.length() && isDigit(s.charAt(pos))) {
          if (pos - fracStart >= 9) {
            throw new DateTimeException("more than 9 fraction digits");
          }
          nano = nano * 10 + (s.charAt(pos) - '0');
          pos++;
        }
        int digits = pos - fracStart;
        if (digits == 0) {
          throw new DateTimeException("no digits after the decimal point");
        }
        for (int i = digits; i < 9; i++) {
          nano *= 10;
        }
      }
    }
    if (hour > 23 || minute > 59 || second > 59) {
      throw new DateTimeException("hour, minute or second out of range");
    }
    return ((hour * 60L + minute) * 60L + second) * 1_000_000_000L + nano;
  }

  private int offset() {
    char c = s.charAt(pos);
    if (c == 'Z' || c == 'z') {
      pos++;
      end();
      return 0;
    }
    if (c != '+' && c != '-') {
      throw new DateTimeException("unexpected '" + c + "' after the time");
    }
    pos++;
    int hours = twoDigits();
    int minutes = 0;
    int seconds = 0;
    if (pos < s.length()) {
      if (s.charAt(pos) == ':') {
        pos++;
      }
      minutes = twoDigits();
      if (pos < s.length()) {
        if (s.charAt(pos) == ':') {
          pos++;
        }
        seconds = twoDigits();
      }
    }
    end();
    if (hours > 18 || minutes > 59 || seconds > 59 || hours * 3600 + minutes * 60 + seconds > 18 * 3600) {
      throw new DateTimeException("time zone offset out of range");
    }
    int total = hours * 3600 + minutes * 60 + seconds;
    return c == '-' ? -total : total;
  }

  private int twoDigits() {
    if (pos + 2 > s.length() || !isDigit(s.charAt(pos)) || !isDigit(s.charAt(pos + 1))) {
      throw new DateTimeException("expected two digits at position " + (pos + 1));
    }
    int v = (s.charAt(pos) - '0') * 10 + (s.charAt(pos + 1) - '0');
    pos += 2;
    return v;
  }

  private void expect(char c) {
    if (pos >= s.length() || s.charAt(pos) != c) {
      throw new DateTimeException("expected '" + c + "' at position " + (pos + 1));
    }
    pos++;
  }

  private void end() {
    if (pos != s.length()) {
      throw new DateTimeException("unexpected text at position " + (pos + 1));
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** {@code yyyy-MM-dd} (signed beyond four digits). */
  static String formatDate(long epochDay) {
    return LocalDate.ofEpochDay(epochDay).toString();
  }

  /** {@code HH:mm:ss.fff} with exactly {@code unit.digits} fraction digits; {@code value} must be within a day. */
  static String formatTime(long value, TimeUnit unit) {
    StringBuilder sb = new StringBuilder(18);
    appendTime(sb, value / unit.perSecond, value % unit.perSecond, unit);
    return sb.toString();
  }

  /** An ISO-8601 date-time with the unit's fraction digits, followed by {@code Z} when {@code utc}. */
  static String formatTimestamp(long value, TimeUnit unit, boolean utc) {
    long seconds = Math.floorDiv(value, unit.perSecond);
    long fraction = Math.floorMod(value, unit.perSecond);
    long day = Math.floorDiv(seconds, 86_400L);
    long secondOfDay = Math.floorMod(seconds, 86_400L);
    StringBuilder sb = new StringBuilder(32);
    sb.append(formatDate(day)).append('T');
    appendTime(sb, secondOfDay, fraction, unit);
    if (utc) {
      sb.append('Z');
    }
    return sb.toString();
  }

  private static void appendTime(StringBuilder sb, long secondOfDay, long fraction, TimeUnit unit) {
    pad(sb, secondOfDay / 3600, 2);
    sb.append(':');
    pad(sb, secondOfDay / 60 % 60, 2);
    sb.append(':');
    pad(sb, secondOfDay % 60, 2);
    sb.append('.');
    pad(sb, fraction, unit.digits);
  }

  private static void pad(StringBuilder sb, long value, int width) {
    String digits = Long.toString(value);
    for (int i = digits.length(); i < width; i++) {
      sb.append('0');
    }
    sb.append(digits);
  }
}
