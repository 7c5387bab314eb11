package dev.sluice.tools.records;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;

/**
 * Writes one value of a fixed schema as plain JSON, in exactly the form {@link JsonReaders} reads back: numbers
 * for numeric types and decimals (with their scale), strings for logical date/time/uuid types, base64 for bytes,
 * {@code null} for nulls, objects for records and maps.
 */
abstract class JsonValueWriter {
  abstract void write(JsonGenerator g, Object value) throws IOException;

  /** Compiles a writer for {@code schema}. */
  static JsonValueWriter compile(Schema schema) {
    return compile(schema, new IdentityHashMap<>());
  }

  private static JsonValueWriter compile(Schema schema, Map<Schema, RecordWriter> records) {
    switch (schema.getType()) {
      case RECORD: {
        RecordWriter known = records.get(schema);
        if (known != null) {
          return known;
        }
        RecordWriter w = new RecordWriter(schema);
        records.put(schema, w);
        for (Schema.Field f : schema.getFields()) {
          w.fields[f.pos()] = compile(f.schema(), records);
        }
        return w;
      }
      case ARRAY: {
        JsonValueWriter element = compile(schema.getElementType(), records);
        return new JsonValueWriter() {
          @Override
          void write(JsonGenerator g, Object value) throws IOException {
            g.writeStartArray();
            for (Object item : (Collection<?>) value) {
              element.write(g, item);
            }
            g.writeEndArray();
          }
        };
      }
      case MAP: {
        JsonValueWriter element = compile(schema.getValueType(), records);
        return new JsonValueWriter() {
          @Override
          void write(JsonGenerator g, Object value) throws IOException {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
              g.writeFieldName(e.getKey().toString());
              element.write(g, e.getValue());
            }
            g.writeEndObject();
          }
        };
      }
      case UNION:
        return union(schema, records);
      default:
        return scalar(schema);
    }
  }

  private static JsonValueWriter union(Schema schema, Map<Schema, RecordWriter> records) {
    Schema single = Schemas.singleNonNull(schema);
    if (single != null) {
      JsonValueWriter inner = compile(single, records);
      return new JsonValueWriter() {
        @Override
        void write(JsonGenerator g, Object value) throws IOException {
          if (value == null) {
            g.writeNull();
          } else {
            inner.write(g, value);
          }
        }
      };
    }
    List<JsonValueWriter> branches = new ArrayList<>();
    for (Schema b : schema.getTypes()) {
      branches.add(compile(b, records));
    }
    return new JsonValueWriter() {
      @Override
      void write(JsonGenerator g, Object value) throws IOException {
        branches.get(GenericData.get().resolveUnion(schema, value)).write(g, value);
      }
    };
  }

  private static JsonValueWriter scalar(Schema schema) {
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal || "big-decimal".equals(Schemas.logicalName(schema))) {
      TextFormat.ValueText text = TextFormat.compile(schema);
      return new JsonValueWriter() {
        @Override
        void write(JsonGenerator g, Object value) throws IOException {
          g.writeNumber(text.format(value));
        }
      };
    }
    String logical = Schemas.logicalName(schema);
    if ("date".equals(logical) || "uuid".equals(logical) || TimeUnit.ofLogicalType(logical) != null) {
      TextFormat.ValueText text = TextFormat.compile(schema);
      return new JsonValueWriter() {
        @Override
        void write(JsonGenerator g, Object value) throws IOException {
          g.writeString(text.format(value));
        }
      };
    }
    switch (schema.getType()) {
      case NULL:
        return new JsonValueWriter() {
          @Override
          void write(JsonGenerator g, Object value) throws IOException {
            g.writeNull();
          }
        };
      case BOOLEAN:
        return new JsonValueWriter() {
          @Override
          void write(JsonGenerator g, Object value) throws IOException {
            g.writeBoolean((Boolean) value);
          }
        };
      case INT:
        return new JsonValueWriter() {
          @Override
          void write(JsonGenerator g, Object value) throws IOException {
            g.writeNumber(((Number) value).intValue());
          }
        };
      case LONG:
        return new JsonValueWriter() {
          @Override
          void write(JsonGenerator g, Object value) throws IOException {
            g.writeNumber(((Number) value).longValue());
          }
        };
      case FLOAT:
        return new JsonValueWriter() {
          @Override
          void write(JsonGenerator g, Object value) throws IOException {
            float f = ((Number) value).floatValue();
            if (Float.isFinite(f)) {
              g.writeNumber(TextFormat.shortestText(f));
            } else {
              g.writeString(Float.toString(f));
            }
          }
        };
      case DOUBLE:
        return new JsonValueWriter() {
          @Override
          void write(JsonGenerator g, Object value) throws IOException {
            double d = ((Number) value).doubleValue();
            if (Double.isFinite(d)) {
              g.writeNumber(TextFormat.shortestText(d));
            } else {
              g.writeString(Double.toString(d));
            }
          }
        };
      case BYTES:
      case FIXED:
        return new JsonValueWriter() {
          @Override
          void write(JsonGenerator g, Object value) throws IOException {
            if (value instanceof ByteBuffer && ((ByteBuffer) value).hasArray()) {
              ByteBuffer b = (ByteBuffer) value;
              g.writeBinary(b.array(), b.arrayOffset() + b.position(), b.remaining());
            } else {
              g.writeBinary(Decimals.bytesOf(value));
            }
          }
        };
      default:
        return new JsonValueWriter() {
          @Override
          void write(JsonGenerator g, Object value) throws IOException {
            g.writeString(value.toString());
          }
        };
    }
  }

  /** A record: an object with every field in schema order. */
  static final class RecordWriter extends JsonValueWriter {
    private final String[] names;
    final JsonValueWriter[] fields;

    RecordWriter(Schema schema) {
      List<Schema.Field> list = schema.getFields();
      names = new String[list.size()];
      fields = new JsonValueWriter[list.size()];
      for (Schema.Field f : list) {
        names[f.pos()] = f.name();
      }
    }

    @Override
    void write(JsonGenerator g, Object value) throws IOException {
      IndexedRecord rec = (IndexedRecord) value;
      g.writeStartObject();
      for (int i = 0; i < names.length; i++) {
        g.writeFieldName(names[i]);
        fields[i].write(g, rec.get(i));
      }
      g.writeEndObject();
    }
  }
}
