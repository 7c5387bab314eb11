package dev.sluice.internal.read.expr;

import dev.sluice.api.Expression;
import dev.sluice.api.ExpressionParser;
import dev.sluice.internal.error.Errors;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/** The textual form shared by {@link Expression#toString()} and {@link ExpressionParser}, and its checks. */
public final class ExpressionText {
  /** What failed, in every error about an expression. */
  public static final String WHAT = "--where expression";

  /** Words that cannot be bare column names; quote such a column with backticks. */
  public static final Set<String> KEYWORDS = Set.of("and", "or", "not", "in", "is", "null", "true", "false");

  private ExpressionText() {
  }

  /** Splits a column into its nested field names. Avro names cannot contain dots, so dots always separate. */
  public static List<String> segments(String column) {
    return List.of(column.split("\\.", -1));
  }

  public static void checkColumn(String column) {
    if (column == null || column.isEmpty()) {
      throw Errors.badRequest(WHAT, "a column name is empty", "Name a field of the table schema.");
    }
    for (String segment : segments(column)) {
      if (segment.isEmpty()) {
        throw Errors.badRequest(WHAT, "column '" + column + "' has an empty field name",
            "Separate nested field names with single dots, e.g. address.city.");
      }
    }
  }

  public static void checkLiteral(String column, Object literal) {
    boolean ok = literal == null || literal instanceof CharSequence || literal instanceof Boolean
        || literal instanceof Byte || literal instanceof Short || literal instanceof Integer || literal instanceof Long
        || literal instanceof BigInteger || literal instanceof BigDecimal || literal instanceof Float
        || literal instanceof Double || literal instanceof LocalDate || literal instanceof LocalTime
        || literal instanceof LocalDateTime || literal instanceof Instant || literal instanceof UUID;
    if (!ok) {
      throw Errors.badRequest(WHAT, "the literal compared with column '" + column + "' is a "
          + literal.getClass().getName(), "Use a string, number, boolean, null, java.time value or UUID.");
    }
  }

  /** A column in parser syntax: each field name bare when it can be, else in backticks. */
  public static String column(String column) {
    StringBuilder sb = new StringBuilder();
    for (String segment : segments(column)) {
      if (sb.length() > 0) {
        sb.append('.');
      }
      if (isBareName(segment)) {
        sb.append(segment);
      } else {
        sb.append('`').append(segment.replace("`", "``")).append('`');
      }
    }
    return sb.toString();
  }

  public static boolean isBareName(String s) {
    if (s.isEmpty() || !isNameStart(s.charAt(0)) || KEYWORDS.contains(s.toLowerCase(Locale.ROOT))) {
      return false;
    }
    for (int i = 1; i < s.length(); i++) {
      if (!isNamePart(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  public static boolean isNameStart(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  public static boolean isNamePart(char c) {
    return isNameStart(c) || (c >= '0' && c <= '9');
  }

  /** A literal in parser syntax. */
  public static String literal(Object literal) {
    if (literal == null) {
      return "null";
    }
    if (literal instanceof Boolean b) {
      return b.toString();
    }
    if (literal instanceof Double d && !Double.isFinite(d)) {
      return quote(d.toString());
    }
    if (literal instanceof Float f && !Float.isFinite(f)) {
      return quote(f.toString());
    }
    if (literal instanceof Number n) {
      // BigDecimal.toString may use an exponent (1.5E+3); the parser reads it back to an equal value.
      return n.toString();
    }
    return quote(literal.toString());
  }

  public static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }
}
