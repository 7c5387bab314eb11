package dev.sluice.internal.read.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Converts literals (from the parser, the Java API or a partition path) to a column kind's canonical
 * representation (see {@link ColumnKind}). Text converts to every kind it can spell, so partition values
 * taken from paths convert the same way as quoted literals.
 */
final class LiteralCoercion {
  /** Returned when a literal cannot be converted; a null literal converts to null. */
  static final Object INVALID = new Object();

  private LiteralCoercion() {
  }

  /** The canonical form of {@code literal} for a column, or {@link #INVALID}. */
  static Object coerce(ColumnKind kind, List<String> enumSymbols, Object literal) {
    if (literal == null) {
      return null;
    }
    try {
      return switch (kind) {
        case BOOLEAN -> toBoolean(literal);
        case INT -> toInt(literal);
        case LONG -> toLong(literal);
        case FLOAT -> literal instanceof Number n ? (Object) n.floatValue()
            : literal instanceof CharSequence s ? (Object) Float.parseFloat(s.toString().trim()) : INVALID;
        case DOUBLE -> literal instanceof Number n ? (Object) n.doubleValue()
            : literal instanceof CharSequence s ? (Object) Double.parseDouble(s.toString().trim()) : INVALID;
        case STRING -> literal instanceof CharSequence s ? new TextValue(s.toString()) : INVALID;
        case ENUM -> literal instanceof CharSequence s && enumSymbols.contains(s.toString())
            ? new TextValue(s.toString()) : INVALID;
        case UUID -> toUuid(literal);
        case DATE -> toDate(literal);
        case TIME_MILLIS -> toTime(literal, 1_000_000L);
        case TIME_MICROS -> toTime(literal, 1_000L);
        case TIMESTAMP_MILLIS, LOCAL_TIMESTAMP_MILLIS -> toTimestamp(literal, 1_000L);
        case TIMESTAMP_MICROS, LOCAL_TIMESTAMP_MICROS -> toTimestamp(literal, 1_000_000L);
        case TIMESTAMP_NANOS, LOCAL_TIMESTAMP_NANOS -> toTimestamp(literal, 1_000_000_000L);
        case DECIMAL -> toDecimal(literal);
        case OTHER -> INVALID;
      };
    } catch (IllegalArgumentException | DateTimeException | ArithmeticException e) {
      // The literal does not spell a value of this kind (NumberFormatException is an IllegalArgumentException);
      // the caller reports it, or keeps the partition.
      return INVALID;
    }
  }

  /** What a literal for this kind must look like, for error messages. */
  static String expected(ColumnKind kind, List<String> enumSymbols) {
    return switch (kind) {
      case BOOLEAN -> "true or false";
      case INT -> "a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
      case LONG -> "a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
      case FLOAT, DOUBLE -> "a number";
      case STRING -> "a quoted string";
      case ENUM -> "one of the quoted symbols " + enumSymbols;
      case UUID -> "a quoted UUID such as '123e4567-e89b-12d3-a456-426614174000'";
      case DATE -> "an ISO date such as '2024-01-31' or a number of days since 1970-01-01";
      case TIME_MILLIS -> "a time such as '13:45:00' or a number of milliseconds since midnight";
      case TIME_MICROS -> "a time such as '13:45:00' or a number of microseconds since midnight";
      case TIMESTAMP_MILLIS, LOCAL_TIMESTAMP_MILLIS -> timestamp("milliseconds");
      case TIMESTAMP_MICROS, LOCAL_TIMESTAMP_MICROS -> timestamp("microseconds");
      case TIMESTAMP_NANOS, LOCAL_TIMESTAMP_NANOS -> timestamp("nanoseconds");
      case DECIMAL -> "a number";
      case OTHER -> "nothing: only 'is null' and 'is not null' apply to this column";
    };
  }

  private static String timestamp(String unit) {
    return "an ISO timestamp such as '2024-01-31T12:00:00Z' (no zone means UTC) or a number of " + unit
        + " since 1970-01-01T00:00:00Z";
  }

  private static Object toBoolean(Object literal) {
    if (literal instanceof Boolean b) {
      return b;
    }
    if (literal instanceof CharSequence s) {
      String v = s.toString().trim().toLowerCase(Locale.ROOT);
      return v.equals("true") ? Boolean.TRUE : v.equals("false") ? Boolean.FALSE : INVALID;
    }
    return INVALID;
  }

  private static Object toInt(Object literal) {
    Object l = toLong(literal);
    if (l instanceof Long v && v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
      return v.intValue();
    }
    return INVALID;
  }

  /** A whole number as a Long; decimals qualify only when they have no fraction. */
  private static Object toLong(Object literal) {
    if (literal instanceof Long || literal instanceof Integer || literal instanceof Short || literal instanceof Byte) {
      return ((Number) literal).longValue();
    }
    if (literal instanceof BigInteger b) {
      return b.longValueExact();
    }
    if (literal instanceof BigDecimal d) {
      return d.longValueExact();
    }
    if (literal instanceof Double || literal instanceof Float) {
      double d = ((Number) literal).doubleValue();
      return Double.isFinite(d) ? toLong(BigDecimal.valueOf(d)) : INVALID;
    }
    if (literal instanceof CharSequence s) {
      return new BigDecimal(s.toString().trim()).longValueExact();
    }
    return INVALID;
  }

  private static Object toUuid(Object literal) {
    if (literal instanceof UUID u) {
      return new TextValue(u.toString());
    }
    if (literal instanceof CharSequence s) {
      String v = s.toString().trim();
      UUID u = UUID.fromString(v);
      // UUID.fromString accepts short groups ("1-2-3-4-5"); require the canonical 36-character layout.
      return v.length() == 36 ? new TextValue(u.toString()) : INVALID;
    }
    return INVALID;
  }

  private static Object toDate(Object literal) {
    if (literal instanceof LocalDate d) {
      return Math.toIntExact(d.toEpochDay());
    }
    if (literal instanceof CharSequence s && !isWholeNumber(s)) {
      return Math.toIntExact(LocalDate.parse(s.toString().trim()).toEpochDay());
    }
    return toInt(literal);
  }

  /** Time of day in units of {@code 1e9 / nanosPerUnit}; int-backed for millis, long-backed for micros. */
  private static Object toTime(Object literal, long nanosPerUnit) {
    boolean millis = nanosPerUnit == 1_000_000L;
    LocalTime t = literal instanceof LocalTime lt ? lt
        : literal instanceof CharSequence s && !isWholeNumber(s) ? LocalTime.parse(s.toString().trim()) : null;
    if (t == null) {
      return millis ? toInt(literal) : toLong(literal);
    }
    long units = t.toNanoOfDay() / nanosPerUnit;
    return millis ? (Object) (int) units : (Object) units;
  }

  /** Timestamps as a count of units per second since the epoch; a value without a zone is read as UTC. */
  private static Object toTimestamp(Object literal, long unitsPerSecond) {
    Instant instant;
    if (literal instanceof Instant i) {
      instant = i;
    } else if (literal instanceof LocalDateTime ldt) {
      instant = ldt.toInstant(ZoneOffset.UTC);
    } else if (literal instanceof LocalDate d) {
      instant = d.atStartOfDay().toInstant(ZoneOffset.UTC);
    } else if (literal instanceof CharSequence s && !isWholeNumber(s)) {
      instant = parseInstant(s.toString().trim());
    } else {
      return toLong(literal);
    }
    long seconds = Math.multiplyExact(instant.getEpochSecond(), unitsPerSecond);
    return Math.addExact(seconds, instant.getNano() / (1_000_000_000L / unitsPerSecond));
  }

  private static Instant parseInstant(String s) {
    String iso = s.length() > 10 && s.charAt(10) == ' ' ? s.substring(0, 10) + 'T' + s.substring(11) : s;
    if (iso.length() <= 10) {
      return LocalDate.parse(iso).atStartOfDay().toInstant(ZoneOffset.UTC);
    }
    try {
      return OffsetDateTime.parse(iso).toInstant();
    } catch (DateTimeException noZone) {
      // No offset in the text: the wall-clock time is taken as UTC.
      return LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC);
    }
  }

  private static Object toDecimal(Object literal) {
    if (literal instanceof BigDecimal d) {
      return d;
    }
    if (literal instanceof BigInteger b) {
      return new BigDecimal(b);
    }
    if (literal instanceof Long || literal instanceof Integer || literal instanceof Short || literal instanceof Byte) {
      return BigDecimal.valueOf(((Number) literal).longValue());
    }
    if (literal instanceof Double || literal instanceof Float) {
      double d = ((Number) literal).doubleValue();
      return Double.isFinite(d) ? BigDecimal.valueOf(d) : INVALID;
    }
    if (literal instanceof CharSequence s) {
      return new BigDecimal(s.toString().trim());
    }
    return INVALID;
  }

  private static boolean isWholeNumber(CharSequence s) {
    String v = s.toString().trim();
    int start = v.startsWith("-") ? 1 : 0;
    if (v.length() == start) {
      return false;
    }
    for (int i = start; i < v.length(); i++) {
      if (v.charAt(i) < '0' || v.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }
}
