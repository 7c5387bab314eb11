package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.sluice.api.Table;
import dev.sluice.api.CloseableIterator;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/**
 * Compares rows from different readers (Hudi's through the oracle, Sluice's scan) by field name, whatever Java
 * types each reader chose: {@code Utf8} and {@code String} become {@code String}, decimals (bytes, fixed or
 * {@code BigDecimal}) become {@code BigDecimal} with the schema's scale, dates become epoch days, timestamps
 * epoch micros/millis, records ordered maps, maps sorted maps with string keys, other bytes hex.
 */
final class Rows {

  static final String COMMIT_TIME = "_hoodie_commit_time";
  static final String SEQNO = "_hoodie_commit_seqno";
  static final String RECORD_KEY = "_hoodie_record_key";
  static final String PARTITION = "_hoodie_partition_path";
  static final String FILE_NAME = "_hoodie_file_name";
  static final List<String> META = List.of(COMMIT_TIME, SEQNO, RECORD_KEY, PARTITION, FILE_NAME);

  private Rows() {
  }

  /** A record as a canonical map, field name to canonical value, in the record's field order. */
  static Map<String, Object> canonical(GenericRecord record) {
    return canonicalRecord(record.getSchema(), record);
  }

  /** The record without the meta fields, canonical. */
  static Map<String, Object> data(GenericRecord record) {
    Map<String, Object> out = canonical(record);
    META.forEach(out::remove);
    return out;
  }

  /** A field as a string, or null. */
  static String text(GenericRecord record, String field) {
    Object v = record.get(field);
    return v == null ? null : v.toString();
  }

  /** Every row of a Sluice scan of the latest snapshot (or as of an instant), meta columns included. */
  static List<GenericRecord> scan(Table table, Optional<String> asOf) {
    var scan = table.newScan().withMetaColumns(true);
    if (asOf.isPresent()) {
      scan = scan.asOf(asOf.get());
    }
    List<GenericRecord> out = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = scan.open()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  /** Rows sorted as the oracle sorts them: by record key, then partition path. */
  static List<GenericRecord> sorted(List<GenericRecord> rows) {
    List<GenericRecord> out = new ArrayList<>(rows);
    out.sort(Comparator.comparing((GenericRecord r) -> String.valueOf(text(r, RECORD_KEY)))
        .thenComparing(r -> String.valueOf(text(r, PARTITION))));
    return out;
  }

  /**
   * Asserts both readers returned the same rows, all fields (meta columns included) compared by name, in record
   * key order; first the keys, so a missing or duplicate row is named.
   */
  static void assertSameRows(List<GenericRecord> expected, List<GenericRecord> actual, String what) {
    assertSame(expected, actual, Rows::canonical, what);
  }

  /** Like {@link #assertSameRows} without the meta columns. */
  static void assertSameData(List<GenericRecord> expected, List<GenericRecord> actual, String what) {
    assertSame(expected, actual, Rows::data, what);
  }

  private static void assertSame(List<GenericRecord> expected, List<GenericRecord> actual,
      Function<GenericRecord, Map<String, Object>> view, String what) {
    List<GenericRecord> e = sorted(expected);
    List<GenericRecord> a = sorted(actual);
    assertEquals(keys(e), keys(a), what + ": record keys");
    for (int i = 0; i < e.size(); i++) {
      assertEquals(view.apply(e.get(i)), view.apply(a.get(i)), what + ": row " + text(e.get(i), RECORD_KEY));
    }
  }

  /** The partition/record key of each row. */
  static List<String> keys(List<GenericRecord> rows) {
    return rows.stream().map(r -> text(r, PARTITION) + "|" + text(r, RECORD_KEY)).collect(Collectors.toList());
  }

  /** Field names of a record schema, in order. */
  static List<String> fieldNames(Schema schema) {
    return schema.getFields().stream().map(Schema.Field::name).collect(Collectors.toList());
  }

  private static Map<String, Object> canonicalRecord(Schema schema, GenericRecord record) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Schema.Field f : schema.getFields()) {
      out.put(f.name(), canonicalValue(f.schema(), record.get(f.pos())));
    }
    return out;
  }

  /** The canonical form of {@code value} of type {@code schema}. */
  static Object canonicalValue(Schema schema, Object value) {
    if (value == null) {
      return null;
    }
    LogicalType logical = schema.getLogicalType();
    switch (schema.getType()) {
      case UNION:
        return canonicalValue(branch(schema, value), value);
      case RECORD:
        return canonicalRecord(schema, (GenericRecord) value);
      case STRING:
      case ENUM:
        return value.toString();
      case ARRAY: {
        List<Object> out = new ArrayList<>();
        for (Object item : (Iterable<?>) value) {
          out.add(canonicalValue(schema.getElementType(), item));
        }
        return out;
      }
      case MAP: {
        Map<String, Object> out = new TreeMap<>();
        ((Map<?, ?>) value).forEach((k, v) -> out.put(k.toString(), canonicalValue(schema.getValueType(), v)));
        return out;
      }
      case BYTES:
      case FIXED:
        return canonicalBytes(logical, value);
      case INT:
        if (value instanceof LocalDate date) {
          return (int) date.toEpochDay();
        }
        return ((Number) value).intValue();
      case LONG:
        if (value instanceof java.time.Instant instant) {
          return logical instanceof LogicalTypes.TimestampMillis ? instant.toEpochMilli()
              : ChronoUnit.MICROS.between(java.time.Instant.EPOCH, instant);
        }
        return ((Number) value).longValue();
      default:
        return value;
    }
  }

  private static Object canonicalBytes(LogicalType logical, Object value) {
    if (logical instanceof LogicalTypes.Decimal decimal) {
      if (value instanceof BigDecimal big) {
        return big.setScale(decimal.getScale());
      }
      return new BigDecimal(new BigInteger(bytes(value)), decimal.getScale());
    }
    return HexFormat.of().formatHex(bytes(value));
  }

  private static byte[] bytes(Object value) {
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] out = new byte[copy.remaining()];
      copy.get(out);
      return out;
    }
    if (value instanceof GenericFixed fixed) {
      return fixed.bytes().clone();
    }
    if (value instanceof byte[] raw) {
      return raw.clone();
    }
    throw new AssertionError("not a byte value: " + value.getClass() + " " + value);
  }

  private static Schema branch(Schema union, Object value) {
    List<Schema> nonNull = union.getTypes().stream().filter(s -> s.getType() != Schema.Type.NULL)
        .collect(Collectors.toList());
    if (nonNull.size() == 1) {
      return nonNull.get(0);
    }
    return union.getTypes().get(GenericData.get().resolveUnion(union, value));
  }
}
