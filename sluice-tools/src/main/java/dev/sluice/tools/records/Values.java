package dev.sluice.tools.records;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * Copies values into the one representation the readers produce: strings and map keys as {@link String},
 * bytes as {@link ByteBuffer}, {@link GenericData.Fixed}, {@link GenericData.EnumSymbol},
 * {@link GenericData.Array}, {@link LinkedHashMap}, {@link GenericData.Record}. Used for schema defaults, which
 * Avro hands out as shared instances with {@code Utf8} strings.
 */
final class Values {
  private Values() {
  }

  /** A fresh, normalized deep copy of {@code value} of {@code schema}. */
  static Object normalize(Schema schema, Object value) {
    if (value == null) {
      return null;
    }
    switch (schema.getType()) {
      case UNION:
        int branch = GenericData.get().resolveUnion(schema, value);
        return normalize(schema.getTypes().get(branch), value);
      case STRING:
        return value.toString();
      case BYTES:
        return ByteBuffer.wrap(Decimals.bytesOf(value).clone());
      case FIXED:
        return new GenericData.Fixed(schema, ((GenericFixed) value).bytes().clone());
      case ENUM:
        return new GenericData.EnumSymbol(schema, value.toString());
      case ARRAY:
        Collection<?> items = (Collection<?>) value;
        GenericData.Array<Object> array = new GenericData.Array<>(items.size(), schema);
        for (Object item : items) {
          array.add(normalize(schema.getElementType(), item));
        }
        return array;
      case MAP:
        Map<?, ?> map = (Map<?, ?>) value;
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
          out.put(e.getKey().toString(), normalize(schema.getValueType(), e.getValue()));
        }
        return out;
      case RECORD:
        IndexedRecord in = (IndexedRecord) value;
        GenericData.Record rec = new GenericData.Record(schema);
        for (Schema.Field f : schema.getFields()) {
          rec.put(f.pos(), normalize(f.schema(), in.get(f.pos())));
        }
        return rec;
      default:
        return value;
    }
  }

  /** True when values of {@code schema} are immutable, so one default instance can be shared. */
  static boolean isImmutable(Schema schema, Object value) {
    if (value == null) {
      return true;
    }
    switch (schema.getType()) {
      case UNION:
        return isImmutable(schema.getTypes().get(GenericData.get().resolveUnion(schema, value)), value);
      case BYTES:
      case FIXED:
      case ARRAY:
      case MAP:
      case RECORD:
        return false;
      default:
        return true;
    }
  }
}
