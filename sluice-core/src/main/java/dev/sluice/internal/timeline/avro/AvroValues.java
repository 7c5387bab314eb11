package dev.sluice.internal.timeline.avro;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/** Small helpers to read and build the values of Hudi's Avro metadata records. */
public final class AvroValues {
  private AvroValues() {
  }

  /** A string field, "" if null or absent. */
  public static String string(GenericRecord r, String field) {
    return optionalString(r, field).orElse("");
  }

  /** A nullable string field. */
  public static Optional<String> optionalString(GenericRecord r, String field) {
    if (r.getSchema().getField(field) == null) {
      return Optional.empty();
    }
    Object v = r.get(field);
    return v == null ? Optional.empty() : Optional.of(v.toString());
  }

  /** A long field, 0 if null or absent. */
  public static long longValue(GenericRecord r, String field) {
    if (r.getSchema().getField(field) == null) {
      return 0;
    }
    Object v = r.get(field);
    return v instanceof Number n ? n.longValue() : 0;
  }

  /** An array of strings, empty if null or absent. */
  public static List<String> strings(GenericRecord r, String field) {
    if (r.getSchema().getField(field) == null) {
      return List.of();
    }
    Object v = r.get(field);
    List<String> out = new ArrayList<>();
    if (v instanceof Collection<?> c) {
      c.forEach(x -> out.add(String.valueOf(x)));
    }
    return out;
  }

  /** An array of records, empty if null or absent. */
  public static List<GenericRecord> records(GenericRecord r, String field) {
    if (r.getSchema().getField(field) == null) {
      return List.of();
    }
    Object v = r.get(field);
    List<GenericRecord> out = new ArrayList<>();
    if (v instanceof Collection<?> c) {
      for (Object x : c) {
        if (x instanceof GenericRecord g) {
          out.add(g);
        }
      }
    }
    return out;
  }

  /** A map of longs, empty if null or absent. */
  public static Map<String, Long> longMap(GenericRecord r, String field) {
    Map<String, Long> out = new LinkedHashMap<>();
    if (r.getSchema().getField(field) == null) {
      return out;
    }
    if (r.get(field) instanceof Map<?, ?> m) {
      m.forEach((k, v) -> out.put(String.valueOf(k), v instanceof Number n ? n.longValue() : 0L));
    }
    return out;
  }

  /** A map of values, empty if null or absent. */
  public static Map<String, Object> map(GenericRecord r, String field) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (r.getSchema().getField(field) == null) {
      return out;
    }
    if (r.get(field) instanceof Map<?, ?> m) {
      m.forEach((k, v) -> out.put(String.valueOf(k), v));
    }
    return out;
  }

  /** The non-null branch of a union schema (or the schema itself). */
  public static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    for (Schema b : s.getTypes()) {
      if (b.getType() != Schema.Type.NULL) {
        return b;
      }
    }
    return s;
  }

  /** The schema of field {@code field} of record schema {@code s}, without a null branch. */
  public static Schema fieldSchema(Schema s, String field) {
    return nonNull(s.getField(field).schema());
  }
}
