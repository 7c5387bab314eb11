package dev.sluice.tools.records;

import org.apache.avro.Schema;

/** The precision of an Avro time or timestamp logical type. */
enum TimeUnit {
  MILLIS(1_000L, 1_000_000L, 3, "milliseconds"),
  MICROS(1_000_000L, 1_000L, 6, "microseconds"),
  NANOS(1_000_000_000L, 1L, 9, "nanoseconds");

  final long perSecond;
  final long nanosPerUnit;
  final int digits;
  final String plural;

  TimeUnit(long perSecond, long nanosPerUnit, int digits, String plural) {
    this.perSecond = perSecond;
    this.nanosPerUnit = nanosPerUnit;
    this.digits = digits;
    this.plural = plural;
  }

  /** Units in one day. */
  long perDay() {
    return perSecond * 86_400L;
  }

  /** The unit of a time/timestamp logical type name, or null if the name is not one. */
  static TimeUnit ofLogicalType(String name) {
    if (name == null) {
      return null;
    }
    if (name.endsWith("-millis")) {
      return MILLIS;
    }
    if (name.endsWith("-micros")) {
      return MICROS;
    }
    if (name.endsWith("-nanos")) {
      return NANOS;
    }
    return null;
  }

  /** The unit of a schema's time/timestamp logical type, or null. */
  static TimeUnit of(Schema schema) {
    return ofLogicalType(Schemas.logicalName(schema));
  }
}
