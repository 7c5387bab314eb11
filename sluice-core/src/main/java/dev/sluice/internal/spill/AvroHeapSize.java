package dev.sluice.internal.spill;

import static dev.sluice.internal.spill.Serializers.align;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.util.Utf8;

/**
 * Estimates the heap bytes of an Avro generic datum by walking it along its schema, with the object layouts of a
 * 64-bit JVM with compressed references (12-byte headers, 4-byte references, 8-byte alignment). Boxed numbers
 * are counted even where the JVM caches them, so the estimate errs high.
 */
final class AvroHeapSize {
  private static final long RECORD = 24;
  private static final long UTF8 = 32;
  private static final long HEAP_BYTE_BUFFER = 56;
  private static final long FIXED = 24;
  private static final long ENUM = 24;
  private static final long LIST = 24;
  private static final long HASH_MAP = 48;
  private static final long MAP_NODE = 32;
  private static final long UNKNOWN = 32;

  private AvroHeapSize() {
  }

  static long of(Schema schema, Object datum) {
    if (datum == null) {
      return 0;
    }
    switch (schema.getType()) {
      case RECORD:
        return record(schema, datum);
      case UNION:
        return of(branch(schema, datum), datum);
      case STRING:
        return string(datum);
      case BYTES:
        return datum instanceof ByteBuffer bb ? HEAP_BYTE_BUFFER + align(16L + bb.capacity()) : UNKNOWN;
      case FIXED:
        return datum instanceof GenericFixed f ? FIXED + align(16L + f.bytes().length) : UNKNOWN;
      case ENUM:
        return ENUM;
      case ARRAY:
        return array(schema.getElementType(), datum);
      case MAP:
        return map(schema.getValueType(), datum);
      case INT:
      case FLOAT:
        return 16;
      case LONG:
      case DOUBLE:
        return 24;
      case BOOLEAN:
      case NULL:
        return 0;
      default:
        return UNKNOWN;
    }
  }

  private static long record(Schema schema, Object datum) {
    if (!(datum instanceof IndexedRecord r)) {
      return UNKNOWN;
    }
    List<Schema.Field> fields = schema.getFields();
    long total = RECORD + align(16L + 4L * fields.size());
    for (int i = 0; i < fields.size(); i++) {
      total += of(fields.get(i).schema(), r.get(i));
    }
    return total;
  }

  private static Schema branch(Schema union, Object datum) {
    List<Schema> types = union.getTypes();
    // The common optional-field shape, resolved without GenericData's per-type lookup.
    if (types.size() == 2) {
      if (types.get(0).getType() == Schema.Type.NULL) {
        return types.get(1);
      }
      if (types.get(1).getType() == Schema.Type.NULL) {
        return types.get(0);
      }
    }
    return types.get(GenericData.get().resolveUnion(union, datum));
  }

  private static long string(Object datum) {
    if (datum instanceof Utf8 u) {
      return UTF8 + align(16L + u.getByteLength());
    }
    if (datum instanceof CharSequence cs) {
      return Serializers.stringHeap(cs.length());
    }
    return UNKNOWN;
  }

  private static long array(Schema element, Object datum) {
    if (!(datum instanceof Collection<?> c)) {
      return UNKNOWN;
    }
    long total = LIST + align(16L + 4L * c.size());
    for (Object e : c) {
      total += of(element, e);
    }
    return total;
  }

  private static long map(Schema value, Object datum) {
    if (!(datum instanceof Map<?, ?> m)) {
      return UNKNOWN;
    }
    long total = HASH_MAP + align(16L + 4L * Math.max(16, m.size() * 4 / 3));
    for (Map.Entry<?, ?> e : m.entrySet()) {
      total += MAP_NODE + string(e.getKey()) + of(value, e.getValue());
    }
    return total;
  }
}
