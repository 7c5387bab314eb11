package dev.sluice.internal.read.expr;

import org.apache.avro.LogicalType;
import org.apache.avro.Schema;

/**
 * How a column's values are compared, from its Avro type and logical type. Each kind has one canonical Java
 * representation for literals: {@link Integer} for the int-backed kinds, {@link Long} for the long-backed,
 * {@link Float}, {@link Double}, {@link Boolean}, {@link TextValue} for text and {@link java.math.BigDecimal}
 * for decimals.
 */
enum ColumnKind {
  BOOLEAN("boolean"),
  INT("int"),
  LONG("long"),
  FLOAT("float"),
  DOUBLE("double"),
  STRING("string"),
  ENUM("enum"),
  /** A string holding a UUID; compared as its canonical lower-case text. */
  UUID("uuid"),
  /** Days since 1970-01-01, an int. */
  DATE("date"),
  TIME_MILLIS("time-millis"),
  TIME_MICROS("time-micros"),
  TIMESTAMP_MILLIS("timestamp-millis"),
  TIMESTAMP_MICROS("timestamp-micros"),
  TIMESTAMP_NANOS("timestamp-nanos"),
  LOCAL_TIMESTAMP_MILLIS("local-timestamp-millis"),
  LOCAL_TIMESTAMP_MICROS("local-timestamp-micros"),
  LOCAL_TIMESTAMP_NANOS("local-timestamp-nanos"),
  /** bytes or fixed with the decimal logical type. */
  DECIMAL("decimal"),
  /** Records, arrays, maps, plain bytes/fixed and multi-type unions: only null checks apply. */
  OTHER("other");

  private final String display;

  ColumnKind(String display) {
    this.display = display;
  }

  /** The type as a user would name it in an error message. */
  String display() {
    return display;
  }

  /** The kind of a non-union schema (the caller strips {@code ["null", T]}). */
  static ColumnKind of(Schema s) {
    LogicalType logical = s.getLogicalType();
    String name = logical == null ? "" : logical.getName();
    switch (s.getType()) {
      case BOOLEAN:
        return BOOLEAN;
      case INT:
        return name.equals("date") ? DATE : name.equals("time-millis") ? TIME_MILLIS : INT;
      case LONG:
        return switch (name) {
          case "time-micros" -> TIME_MICROS;
          case "timestamp-millis" -> TIMESTAMP_MILLIS;
          case "timestamp-micros" -> TIMESTAMP_MICROS;
          case "timestamp-nanos" -> TIMESTAMP_NANOS;
          case "local-timestamp-millis" -> LOCAL_TIMESTAMP_MILLIS;
          case "local-timestamp-micros" -> LOCAL_TIMESTAMP_MICROS;
          case "local-timestamp-nanos" -> LOCAL_TIMESTAMP_NANOS;
          default -> LONG;
        };
      case FLOAT:
        return FLOAT;
      case DOUBLE:
        return DOUBLE;
      case STRING:
        return name.equals("uuid") ? UUID : STRING;
      case ENUM:
        return ENUM;
      case BYTES:
      case FIXED:
        return name.equals("decimal") ? DECIMAL : OTHER;
      default:
        return OTHER;
    }
  }

  /** Whether values are held as an int (canonical {@link Integer}). */
  boolean intBacked() {
    return this == INT || this == DATE || this == TIME_MILLIS;
  }

  /** Whether values are held as a long (canonical {@link Long}). */
  boolean longBacked() {
    return this == LONG || this == TIME_MICROS || isTimestamp();
  }

  boolean isTimestamp() {
    return this == TIMESTAMP_MILLIS || this == TIMESTAMP_MICROS || this == TIMESTAMP_NANOS
        || this == LOCAL_TIMESTAMP_MILLIS || this == LOCAL_TIMESTAMP_MICROS || this == LOCAL_TIMESTAMP_NANOS;
  }

  boolean isText() {
    return this == STRING || this == ENUM || this == UUID;
  }

  /** Whether {@code <, <=, >, >=} make sense. */
  boolean ordered() {
    return this != BOOLEAN && this != OTHER;
  }
}
