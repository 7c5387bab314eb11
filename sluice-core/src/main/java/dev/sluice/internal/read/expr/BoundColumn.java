package dev.sluice.internal.read.expr;

import dev.sluice.internal.error.Errors;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * A column resolved against a schema: the field position at each level of its path, and how its values
 * compare. Reading a record whose schema is the bound one costs one array index per level; records of another
 * schema (e.g. the writer's schema of a Parquet file) are looked up by name, cached per schema.
 */
final class BoundColumn {
  private final String name;
  private final String[] fieldNames;
  private final Schema[] recordSchemas;
  private final int[] positions;
  private final Slot[] lastForeign;
  private final ColumnKind kind;
  private final Schema type;
  private final List<String> enumSymbols;
  private final int decimalScale;
  private final ChronoUnit timeUnit;

  /** Where a field sits in a record schema other than the bound one. */
  private record Slot(Schema schema, int pos) {
  }

  BoundColumn(List<Schema.Field> path, List<Schema> recordSchemas, Schema type) {
    int depth = path.size();
    this.fieldNames = new String[depth];
    this.positions = new int[depth];
    for (int i = 0; i < depth; i++) {
      fieldNames[i] = path.get(i).name();
      positions[i] = path.get(i).pos();
    }
    this.name = String.join(".", fieldNames);
    this.recordSchemas = recordSchemas.toArray(new Schema[0]);
    this.lastForeign = new Slot[depth];
    this.type = type;
    this.kind = type.getType() == Schema.Type.UNION ? ColumnKind.OTHER : ColumnKind.of(type);
    this.enumSymbols = kind == ColumnKind.ENUM ? type.getEnumSymbols() : List.of();
    this.decimalScale = kind == ColumnKind.DECIMAL ? ((LogicalTypes.Decimal) type.getLogicalType()).getScale() : 0;
    this.timeUnit = switch (kind) {
      case TIMESTAMP_MILLIS, LOCAL_TIMESTAMP_MILLIS -> ChronoUnit.MILLIS;
      case TIMESTAMP_NANOS, LOCAL_TIMESTAMP_NANOS -> ChronoUnit.NANOS;
      default -> ChronoUnit.MICROS;
    };
  }

  /** The resolved dotted path, spelled as in the schema. */
  String name() {
    return name;
  }

  ColumnKind kind() {
    return kind;
  }

  /** The column's Avro type without the null branch. */
  Schema type() {
    return type;
  }

  List<String> enumSymbols() {
    return enumSymbols;
  }

  /** The value at this column's path, or null if it or a record on the way is null or absent. */
  Object read(IndexedRecord record) {
    IndexedRecord current = record;
    int last = fieldNames.length - 1;
    for (int level = 0; level < last; level++) {
      Object v = field(current, level);
      if (!(v instanceof IndexedRecord nested)) {
        return null;
      }
      current = nested;
    }
    return field(current, last);
  }

  private Object field(IndexedRecord record, int level) {
    Schema schema = record.getSchema();
    if (schema == recordSchemas[level]) {
      return record.get(positions[level]);
    }
    Slot slot = lastForeign[level];
    if (slot == null || slot.schema() != schema) {
      Schema.Field f = schema.getField(fieldNames[level]);
      slot = new Slot(schema, f == null ? -1 : f.pos());
      // A benign race: concurrent readers may each compute and store an equal slot.
      lastForeign[level] = slot;
    }
    return slot.pos() < 0 ? null : record.get(slot.pos());
  }

  /** Compares a non-null record value with a non-null canonical literal of this column's kind. */
  int compare(Object value, Object literal) {
    switch (kind) {
      case BOOLEAN:
        return Boolean.compare(asBoolean(value), (Boolean) literal);
      case INT:
      case DATE:
      case TIME_MILLIS:
        return Integer.compare(asInt(value), (Integer) literal);
      case FLOAT:
        return Float.compare(asNumber(value).floatValue(), (Float) literal);
      case DOUBLE:
        return Double.compare(asNumber(value).doubleValue(), (Double) literal);
      case STRING:
      case ENUM:
      case UUID:
        return ((TextValue) literal).compareValue(value);
      case DECIMAL:
        return asDecimal(value).compareTo((BigDecimal) literal);
      case OTHER:
        throw Errors.internal("comparison bound on column '" + name + "' of type " + type, null);
      default:
        return Long.compare(asLong(value), (Long) literal);
    }
  }

  private boolean asBoolean(Object v) {
    if (v instanceof Boolean b) {
      return b;
    }
    throw mismatch(v);
  }

  private Number asNumber(Object v) {
    if (v instanceof Number n) {
      return n;
    }
    throw mismatch(v);
  }

  private int asInt(Object v) {
    if (v instanceof Integer i) {
      return i;
    }
    if (v instanceof LocalDate d) {
      return Math.toIntExact(d.toEpochDay());
    }
    if (v instanceof LocalTime t) {
      return (int) (t.toNanoOfDay() / 1_000_000L);
    }
    return asNumber(v).intValue();
  }

  private long asLong(Object v) {
    if (v instanceof Long l) {
      return l;
    }
    if (v instanceof Instant i) {
      return timeUnit.between(Instant.EPOCH, i);
    }
    if (v instanceof LocalDateTime t) {
      return timeUnit.between(Instant.EPOCH, t.toInstant(ZoneOffset.UTC));
    }
    if (v instanceof LocalTime t) {
      return t.toNanoOfDay() / 1_000L;
    }
    return asNumber(v).longValue();
  }

  private BigDecimal asDecimal(Object v) {
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof ByteBuffer b) {
      ByteBuffer copy = b.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return unscaled(bytes);
    }
    if (v instanceof GenericFixed f) {
      return unscaled(f.bytes());
    }
    throw mismatch(v);
  }

  private BigDecimal unscaled(byte[] twosComplement) {
    BigInteger unscaled = twosComplement.length == 0 ? BigInteger.ZERO : new BigInteger(twosComplement);
    return new BigDecimal(unscaled, decimalScale);
  }

  private RuntimeException mismatch(Object v) {
    return Errors.badInput("record", name, "value " + v + " is a " + v.getClass().getName(),
        "a value of the schema's type " + type);
  }

  @Override
  public String toString() {
    return name;
  }
}
