package dev.sluice.tools.records;

import com.fasterxml.jackson.core.io.NumberInput;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * Text to value for every scalar Avro type and logical type, shared by the CSV reader and the JSON reader's
 * string tokens. Values come out in Avro's generic representation without conversions: {@code String},
 * {@code Integer} (int, date, time-millis), {@code Long} (long, time-micros, timestamps), {@link ByteBuffer}
 * (bytes, bytes decimals), {@link GenericData.Fixed}, {@link GenericData.EnumSymbol}.
 */
final class TextValues {
  private TextValues() {
  }

  /** A parser for a non-union, non-complex schema. */
  static TextParser parser(Schema schema) {
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal) {
      LogicalTypes.Decimal type = (LogicalTypes.Decimal) schema.getLogicalType();
      return text -> decimal(parseDecimal(text, schema), type, schema, Describe.quote(text));
    }
    String logical = Schemas.logicalName(schema);
    if (logical != null) {
      TextParser p = logicalParser(logical, schema);
      if (p != null) {
        return p;
      }
    }
    switch (schema.getType()) {
      case NULL:
        return text -> {
          throw new FieldError(Describe.quote(text) + " is not null", "null (an empty value)");
        };
      case BOOLEAN:
        return text -> {
          if ("true".equalsIgnoreCase(text)) {
            return Boolean.TRUE;
          }
          if ("false".equalsIgnoreCase(text)) {
            return Boolean.FALSE;
          }
          throw notA(text, schema);
        };
      case INT:
        return text -> intValue(parseWhole(text, schema), Describe.quote(text), schema);
      case LONG:
        return text -> parseWhole(text, schema);
      case FLOAT:
        return text -> {
          checkFloatingText(text, schema);
          float f = parseFloat(text);
          if (Float.isInfinite(f) && !text.contains("Infinity")) {
            throw outOfRange(Describe.quote(text), schema);
          }
          return f;
        };
      case DOUBLE:
        return text -> {
          checkFloatingText(text, schema);
          double d = parseDouble(text);
          if (Double.isInfinite(d) && !text.contains("Infinity")) {
            throw outOfRange(Describe.quote(text), schema);
          }
          return d;
        };
      case STRING:
        return text -> text;
      case BYTES:
        return text -> ByteBuffer.wrap(base64(text, schema));
      case FIXED:
        return text -> fixed(base64(text, schema), schema, Describe.quote(text));
      case ENUM:
        return enumParser(schema);
      default:
        throw new IllegalArgumentException("not a scalar schema: " + schema.getType());
    }
  }

  private static TextParser logicalParser(String logical, Schema schema) {
    TimeUnit unit = TimeUnit.ofLogicalType(logical);
    switch (logical) {
      case "big-decimal":
        return schema.getType() == Schema.Type.BYTES ? text -> Decimals.encodeBig(parseDecimal(text, schema)) : null;
      case "date":
        return text -> isInteger(text) ? dateValue(parseWhole(text, schema), Describe.quote(text), schema)
            : parseDate(text, schema);
      case "time-millis":
      case "time-micros":
        return text -> {
          long v = isInteger(text) ? parseWhole(text, schema) : fromNanos(parseTime(text, schema), unit, text, schema);
          return timeValue(v, unit, Describe.quote(text), schema);
        };
      case "timestamp-millis":
      case "timestamp-micros":
      case "timestamp-nanos":
        return text -> isInteger(text) ? parseWhole(text, schema) : parseTimestamp(text, unit, false, schema);
      case "local-timestamp-millis":
      case "local-timestamp-micros":
      case "local-timestamp-nanos":
        return text -> isInteger(text) ? parseWhole(text, schema) : parseTimestamp(text, unit, true, schema);
      case "uuid":
        if (schema.getType() == Schema.Type.STRING) {
          return text -> {
            checkUuid(text, schema);
            return text;
          };
        }
        if (schema.getType() == Schema.Type.FIXED && schema.getFixedSize() == 16) {
          return text -> {
            checkUuid(text, schema);
            UUID u = UUID.fromString(text);
            ByteBuffer buf = ByteBuffer.allocate(16);
            buf.putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
            return new GenericData.Fixed(schema, buf.array());
          };
        }
        return null;
      default:
        return null;
    }
  }

  private static TextParser enumParser(Schema schema) {
    Map<String, GenericData.EnumSymbol> symbols = new HashMap<>();
    for (String s : schema.getEnumSymbols()) {
      symbols.put(s, new GenericData.EnumSymbol(schema, s));
    }
    return text -> {
      GenericData.EnumSymbol symbol = symbols.get(text);
      if (symbol == null) {
        throw new FieldError(Describe.quote(text) + " is not a symbol of enum " + schema.getName(), Describe.expected(schema));
      }
      return symbol;
    };
  }

  // ---- shared pieces, also used by the JSON reader for number tokens ----

  static FieldError notA(String text, Schema schema) {
    return new FieldError(Describe.quote(text) + " is not " + Describe.article(Describe.typeName(schema)),
        Describe.expected(schema));
  }

  static FieldError outOfRange(String shown, Schema schema) {
    return new FieldError(shown + " is out of range for " + Describe.article(Describe.typeName(schema)),
        Describe.expected(schema));
  }

  /** A whole number from text: plain digits, or a decimal/exponent form that is exactly whole ({@code 1.0}, {@code 1e3}). */
  static long parseWhole(String text, Schema schema) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      // Not plain digits in long range: retry as an exact decimal below to tell "not a number" from "too big".
    }
    BigDecimal bd;
    try {
      bd = new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw notA(text, schema);
    }
    return wholeOf(bd, Describe.quote(text), schema);
  }

  /** The exact long value of a decimal, or an error naming why it is not one. */
  static long wholeOf(BigDecimal bd, String shown, Schema schema) {
    if (bd.signum() != 0 && bd.stripTrailingZeros().scale() > 0) {
      throw new FieldError(shown + " is not a whole number", Describe.expected(schema));
    }
    try {
      return bd.longValueExact();
    } catch (ArithmeticException e) {
      throw outOfRange(shown, schema);
    }
  }

  static Integer intValue(long v, String shown, Schema schema) {
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw outOfRange(shown, schema);
    }
    return (int) v;
  }

  static Integer dateValue(long days, String shown, Schema schema) {
    return intValue(days, shown, schema);
  }

  /** A time value in range [0, one day) in its unit, boxed as the physical type (int or long). */
  static Object timeValue(long v, TimeUnit unit, String shown, Schema schema) {
    if (v < 0 || v >= unit.perDay()) {
      throw new FieldError(shown + " is not a time of day (out of range)", Describe.expected(schema));
    }
    return schema.getType() == Schema.Type.INT ? (Object) (int) v : (Object) v;
  }

  static boolean isInteger(String text) {
    int n = text.length();
    int i = n > 0 && (text.charAt(0) == '-' || text.charAt(0) == '+') ? 1 : 0;
    if (i == n) {
      return false;
    }
    for (; i < n; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  static BigDecimal parseDecimal(String text, Schema schema) {
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw notA(text, schema);
    }
  }

  static Object decimal(BigDecimal value, LogicalTypes.Decimal type, Schema schema, String shown) {
    return Decimals.encode(Decimals.fit(value, type, shown), schema, shown);
  }

  /**
   * The float a decimal text denotes, correctly rounded as {@link Float#parseFloat} rounds it, through jackson-core's
   * bundled FastDoubleParser: the JDK's parser allocates big-integer arithmetic for most inputs with many digits,
   * and parsing floats and doubles was a third of the input thread's time in a cold command-line upsert.
   */
  static float parseFloat(String text) {
    return NumberInput.parseFloat(text, true);
  }

  /** As {@link #parseFloat(String)}, over {@code length} characters of {@code chars} from {@code offset}. */
  static float parseFloat(char[] chars, int offset, int length) {
    return NumberInput.parseFloat(chars, offset, length, true);
  }

  /** The double a decimal text denotes, correctly rounded (see {@link #parseFloat(String)}). */
  static double parseDouble(String text) {
    return NumberInput.parseDouble(text, true);
  }

  private static void checkFloatingText(String text, Schema schema) {
    switch (text) {
      case "NaN":
      case "Infinity":
      case "+Infinity":
      case "-Infinity":
        return;
      default:
        break;
    }
    // Java's parser also takes hex floats, type suffixes and padding; the text forms here are plain decimals.
    int n = text.length();
    int i = 0;
    if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
      i++;
    }
    int digits = 0;
    while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
      i++;
      digits++;
    }
    if (i < n && text.charAt(i) == '.') {
      i++;
      while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
        i++;
        digits++;
      }
    }
    if (digits > 0 && i < n && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
      i++;
      if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
        i++;
      }
      int expDigits = 0;
      while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
        i++;
        expDigits++;
      }
      if (expDigits == 0) {
        digits = 0;
      }
    }
    if (digits == 0 || i != n) {
      throw notA(text, schema);
    }
  }

  static byte[] base64(String text, Schema schema) {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new FieldError(Describe.quote(text) + " is not valid base64 (" + e.getMessage() + ")", Describe.expected(schema));
    }
  }

  static GenericData.Fixed fixed(byte[] bytes, Schema schema, String shown) {
    if (bytes.length != schema.getFixedSize()) {
      throw new FieldError(shown + " has " + bytes.length + " bytes, not " + schema.getFixedSize(), Describe.expected(schema));
    }
    return new GenericData.Fixed(schema, bytes);
  }

  private static Integer parseDate(String text, Schema schema) {
    DateTimeText.Parsed p;
    try {
      p = DateTimeText.parseDateTime(text);
    } catch (DateTimeException e) {
      throw new FieldError(Describe.quote(text) + " is not a valid date (" + e.getMessage() + ")", Describe.expected(schema));
    }
    if (p.hasTime()) {
      throw new FieldError(Describe.quote(text) + " is not a date (it has a time of day)", Describe.expected(schema));
    }
    return dateValue(p.epochDay(), Describe.quote(text), schema);
  }

  private static long parseTime(String text, Schema schema) {
    try {
      return DateTimeText.parseTime(text);
    } catch (DateTimeException e) {
      throw new FieldError(Describe.quote(text) + " is not a valid time of day (" + e.getMessage() + ")",
          Describe.expected(schema));
    }
  }

  private static long fromNanos(long nanos, TimeUnit unit, String text, Schema schema) {
    if (nanos % unit.nanosPerUnit != 0) {
      throw new FieldError(Describe.quote(text) + " is more precise than " + unit.plural, Describe.expected(schema));
    }
    return nanos / unit.nanosPerUnit;
  }

  private static long parseTimestamp(String text, TimeUnit unit, boolean local, Schema schema) {
    DateTimeText.Parsed p;
    try {
      p = DateTimeText.parseDateTime(text);
    } catch (DateTimeException e) {
      throw new FieldError(Describe.quote(text) + " is not a valid timestamp (" + e.getMessage() + ")",
          Describe.expected(schema));
    }
    if (local && p.hasOffset()) {
      throw new FieldError(Describe.quote(text) + " has a time zone, but " + Describe.typeName(schema) + " has none",
          Describe.expected(schema));
    }
    long nanoOfDay = p.nanoOfDay();
    long nanoOfSecond = nanoOfDay % 1_000_000_000L;
    long seconds = p.epochDay() * 86_400L + nanoOfDay / 1_000_000_000L - p.offsetSeconds();
    return instant(seconds, nanoOfSecond, unit, Describe.quote(text), schema);
  }

  /**
   * Seconds and nanoseconds since the epoch in {@code unit}s.
   *
   * @throws FieldError when the nanoseconds are finer than the unit or the result is out of range
   */
  static long instant(long seconds, long nanoOfSecond, TimeUnit unit, String shown, Schema schema) {
    if (nanoOfSecond % unit.nanosPerUnit != 0) {
      throw new FieldError(shown + " is more precise than " + unit.plural, Describe.expected(schema));
    }
    long fraction = nanoOfSecond / unit.nanosPerUnit;
    try {
      return Math.addExact(Math.multiplyExact(seconds, unit.perSecond), fraction);
    } catch (ArithmeticException e) {
      // seconds * perSecond can overflow even when adding the fraction brings it back in range (near Long.MIN_VALUE).
      BigInteger exact = BigInteger.valueOf(seconds).multiply(BigInteger.valueOf(unit.perSecond)).add(BigInteger.valueOf(fraction));
      if (exact.bitLength() < 64) {
        return exact.longValue();
      }
      throw outOfRange(shown, schema);
    }
  }

  private static void checkUuid(String text, Schema schema) {
    boolean ok = text.length() == 36;
    for (int i = 0; ok && i < 36; i++) {
      char c = text.charAt(i);
      if (i == 8 || i == 13 || i == 18 || i == 23) {
        ok = c == '-';
      } else {
        ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
      }
    }
    if (!ok) {
      throw new FieldError(Describe.quote(text) + " is not a UUID", Describe.expected(schema));
    }
  }

  /** UTF-8 bytes of a string, for string-to-bytes resolution. */
  static ByteBuffer utf8(CharSequence s) {
    return ByteBuffer.wrap(s.toString().getBytes(StandardCharsets.UTF_8));
  }
}
