package dev.sluice.tools.records;

import com.fasterxml.jackson.core.io.NumberOutput;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.UUID;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;

/**
 * Value to text for every scalar type, in exactly the forms {@link TextValues} parses back: ISO-8601 dates,
 * times and timestamps with the type's fraction digits (UTC instants end in {@code Z}), plain decimals with
 * their scale, base64 bytes, {@code NaN}/{@code Infinity} for non-finite floats. Also takes the Java objects of
 * Avro's logical-type conversions ({@link BigDecimal}, {@link LocalDate}, {@link Instant}, ...).
 */
final class TextFormat {
  private TextFormat() {
  }

  /** Formats one non-null scalar value. */
  @FunctionalInterface
  interface ValueText {
    String format(Object value);
  }

  /** True for types whose text form the JSON writer emits as a JSON number. */
  static boolean isJsonNumber(Schema schema) {
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal || "big-decimal".equals(Schemas.logicalName(schema))) {
      return true;
    }
    if (schema.getLogicalType() != null) {
      return false;
    }
    switch (schema.getType()) {
      case INT:
      case LONG:
      case FLOAT:
      case DOUBLE:
        return true;
      default:
        return false;
    }
  }

  /**
   * A finite double's text as {@code Double.toString} writes it from JDK 19 on: the shortest decimal that reads back
   * as the value, through Jackson's copy of that conversion (Schubfach). The same on every JDK, where JDK 17 writes
   * more digits than needed for some values, and about twice as fast as JDK 17's under the C1 compiler. Every
   * formatter's finite floats and doubles take their text from here (or, for hundredths, from digits that equal it:
   * {@link Utf8Sink#finiteDouble}).
   */
  static String shortestText(double d) {
    return NumberOutput.toString(d, true);
  }

  /** A finite float's text as {@code Float.toString} writes it from JDK 19 on (see {@link #shortestText(double)}). */
  static String shortestText(float f) {
    return NumberOutput.toString(f, true);
  }

  /** A float's or double's text: {@link #shortestText(double)} when finite, else {@code NaN} or the infinity. */
  static String floating(Object v) {
    if (v instanceof Double d && Double.isFinite(d)) {
      return shortestText(d);
    }
    if (v instanceof Float f && Float.isFinite(f)) {
      return shortestText(f);
    }
    return ((Number) v).toString();
  }

  /** The formatter for a non-union, non-container schema. */
  static ValueText compile(Schema schema) {
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal) {
      int scale = ((LogicalTypes.Decimal) schema.getLogicalType()).getScale();
      return v -> v instanceof BigDecimal ? ((BigDecimal) v).setScale(scale).toPlainString()
          : Decimals.decode(v, scale).toPlainString();
    }
    String logical = Schemas.logicalName(schema);
    if (logical != null) {
      ValueText t = logical(logical, schema);
      if (t != null) {
        return t;
      }
    }
    switch (schema.getType()) {
      case BYTES:
      case FIXED:
        return v -> base64(v);
      case INT:
      case LONG:
        // The casts catch a value of the wrong type rather than writing text no reader would take back.
        return v -> ((Number) v).toString();
      case FLOAT:
      case DOUBLE:
        return TextFormat::floating;
      case BOOLEAN:
        return v -> ((Boolean) v).toString();
      case STRING:
        return v -> ((CharSequence) v).toString();
      default:
        return Object::toString;
    }
  }

  private static ValueText logical(String logical, Schema schema) {
    TimeUnit unit = TimeUnit.ofLogicalType(logical);
    switch (logical) {
      case "big-decimal":
        return v -> v instanceof BigDecimal ? v.toString() : Decimals.decodeBig((ByteBuffer) v).toString();
      case "date":
        return v -> v instanceof LocalDate ? v.toString() : DateTimeText.formatDate(((Number) v).longValue());
      case "time-millis":
      case "time-micros":
        return v -> {
          if (v instanceof LocalTime) {
            v = ((LocalTime) v).toNanoOfDay() / unit.nanosPerUnit;
          }
          long n = ((Number) v).longValue();
          // An out-of-range time (written by someone else) stays a number, which the readers also accept.
          return n >= 0 && n < unit.perDay() ? DateTimeText.formatTime(n, unit) : Long.toString(n);
        };
      case "timestamp-millis":
      case "timestamp-micros":
      case "timestamp-nanos":
        return v -> DateTimeText.formatTimestamp(v instanceof Instant ? units((Instant) v, unit) : ((Number) v).longValue(),
            unit, true);
      case "local-timestamp-millis":
      case "local-timestamp-micros":
      case "local-timestamp-nanos":
        return v -> DateTimeText.formatTimestamp(v instanceof LocalDateTime
            ? units(((LocalDateTime) v).toInstant(ZoneOffset.UTC), unit) : ((Number) v).longValue(), unit, false);
      case "uuid":
        if (schema.getType() == Schema.Type.FIXED) {
          return v -> v instanceof UUID ? v.toString() : ScalarResolver.uuidText(((GenericFixed) v).bytes());
        }
        return Object::toString;
      default:
        return null;
    }
  }

  private static long units(Instant instant, TimeUnit unit) {
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), unit.perSecond), instant.getNano() / unit.nanosPerUnit);
  }

  static String base64(Object bytes) {
    if (bytes instanceof ByteBuffer) {
      ByteBuffer buf = ((ByteBuffer) bytes).duplicate();
      return new String(Base64.getEncoder().encode(buf).array(), java.nio.charset.StandardCharsets.ISO_8859_1);
    }
    return Base64.getEncoder().encodeToString(Decimals.bytesOf(bytes));
  }
}
