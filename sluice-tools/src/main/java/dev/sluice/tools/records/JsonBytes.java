package dev.sluice.tools.records;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import dev.sluice.api.SluiceException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;

/**
 * Writes one value of a fixed schema as JSON straight into a {@link Utf8Sink}: the same text as
 * {@link JsonValueWriter} through Jackson's generator (the tests compare them on every type), without a generator's
 * per-value bookkeeping: field names are compiled to bytes once, numbers go in as digits and strings as their UTF-8
 * bytes. Query output's JSON Lines and CSV's nested cells use it; {@link JsonValueWriter} stays for text to a
 * {@link java.io.Writer}.
 */
abstract class JsonBytes {
  private static final byte[] NULL = ascii("null");
  private static final byte[] TRUE = ascii("true");
  private static final byte[] FALSE = ascii("false");

  abstract void write(Utf8Sink out, Object value) throws IOException;

  /** Compiles a writer for {@code schema}. */
  static JsonBytes compile(Schema schema) {
    return compile(schema, new IdentityHashMap<>());
  }

  private static JsonBytes compile(Schema schema, Map<Schema, RecordBytes> records) {
    switch (schema.getType()) {
      case RECORD: {
        RecordBytes known = records.get(schema);
        if (known != null) {
          return known;
        }
        RecordBytes w = new RecordBytes(schema);
        records.put(schema, w);
        for (Schema.Field f : schema.getFields()) {
          w.fields[f.pos()] = compile(f.schema(), records);
        }
        return w;
      }
      case ARRAY: {
        JsonBytes element = compile(schema.getElementType(), records);
        return new JsonBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            out.write('[');
            if (value instanceof GenericData.Array<?> a) {
              // the arrays rows hold: by index, without an iterator or interface calls per item
              for (int i = 0, n = a.size(); i < n; i++) {
                if (i > 0) {
                  out.write(',');
                }
                element.write(out, a.get(i));
              }
            } else {
              boolean first = true;
              for (Object item : (Collection<?>) value) {
                if (!first) {
                  out.write(',');
                }
                first = false;
                element.write(out, item);
              }
            }
            out.write(']');
          }
        };
      }
      case MAP: {
        JsonBytes element = compile(schema.getValueType(), records);
        return new JsonBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            out.write('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
              if (!first) {
                out.write(',');
              }
              first = false;
              out.jsonString(e.getKey().toString());
              out.write(':');
              element.write(out, e.getValue());
            }
            out.write('}');
          }
        };
      }
      case UNION:
        return union(schema, records);
      default:
        return scalar(schema);
    }
  }

  private static JsonBytes union(Schema schema, Map<Schema, RecordBytes> records) {
    Schema single = Schemas.singleNonNull(schema);
    if (single != null) {
      JsonBytes inner = compile(single, records);
      return new JsonBytes() {
        @Override
        void write(Utf8Sink out, Object value) throws IOException {
          if (value == null) {
            out.write(NULL);
          } else {
            inner.write(out, value);
          }
        }
      };
    }
    List<JsonBytes> branches = new ArrayList<>();
    for (Schema b : schema.getTypes()) {
      branches.add(compile(b, records));
    }
    return new JsonBytes() {
      @Override
      void write(Utf8Sink out, Object value) throws IOException {
        branches.get(GenericData.get().resolveUnion(schema, value)).write(out, value);
      }
    };
  }

  private static JsonBytes scalar(Schema schema) {
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal || "big-decimal".equals(Schemas.logicalName(schema))) {
      TextFormat.ValueText text = TextFormat.compile(schema);
      return new JsonBytes() {
        @Override
        void write(Utf8Sink out, Object value) throws IOException {
          out.ascii(text.format(value));
        }
      };
    }
    String logical = Schemas.logicalName(schema);
    if ("date".equals(logical) || "uuid".equals(logical) || TimeUnit.ofLogicalType(logical) != null) {
      TextFormat.ValueText text = TextFormat.compile(schema);
      return new JsonBytes() {
        @Override
        void write(Utf8Sink out, Object value) throws IOException {
          out.jsonString(text.format(value));
        }
      };
    }
    switch (schema.getType()) {
      case NULL:
        return new JsonBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            out.write(NULL);
          }
        };
      case BOOLEAN:
        return new JsonBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            bool(out, value);
          }
        };
      case INT:
        return new JsonBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            intValue(out, value);
          }
        };
      case LONG:
        return new JsonBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            longValue(out, value);
          }
        };
      case FLOAT:
        return new JsonBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            float f = ((Number) value).floatValue();
            if (Float.isFinite(f)) {
              out.finiteFloat(f);
            } else {
              out.jsonString(Float.toString(f));
            }
          }
        };
      case DOUBLE:
        return new JsonBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            doubleValue(out, value);
          }
        };
      case BYTES:
      case FIXED:
        return new JsonBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            byte[] encoded = value instanceof ByteBuffer
                ? Base64.getEncoder().encode(((ByteBuffer) value).duplicate()).array()
                : Base64.getEncoder().encode(Decimals.bytesOf(value));
            out.write('"');
            out.write(encoded);
            out.write('"');
          }
        };
      case STRING:
        return new JsonBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            string(out, value);
          }
        };
      default:
        return new JsonBytes() {
          @Override
          void write(Utf8Sink out, Object value) throws IOException {
            out.jsonString(value.toString());
          }
        };
    }
  }

  // the plain types' text, shared by their column writers and RecordBytes' switch

  private static void bool(Utf8Sink out, Object value) throws IOException {
    out.write((Boolean) value ? TRUE : FALSE);
  }

  private static void intValue(Utf8Sink out, Object value) throws IOException {
    out.decimal(((Number) value).intValue());
  }

  private static void longValue(Utf8Sink out, Object value) throws IOException {
    out.decimal(((Number) value).longValue());
  }

  private static void doubleValue(Utf8Sink out, Object value) throws IOException {
    double d = ((Number) value).doubleValue();
    if (Double.isFinite(d)) {
      out.finiteDouble(d);
    } else {
      out.jsonString(Double.toString(d));
    }
  }

  private static void string(Utf8Sink out, Object value) throws IOException {
    out.jsonString(value instanceof CharSequence c ? c : value.toString());
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** A record: an object with every field in schema order, each field's {@code ,"name":} compiled once. */
  static final class RecordBytes extends JsonBytes {
    /** {@link #kinds}: a field written by its {@link #fields} writer. */
    private static final byte OTHER = 0;
    private static final byte STRING = 1;
    private static final byte LONG = 2;
    private static final byte INT = 3;
    private static final byte DOUBLE = 4;
    private static final byte BOOLEAN = 5;
    /** Added to a kind whose field is a union of null and that type: a null is written as {@code null}. */
    private static final byte NULLABLE = 8;
    private final byte[][] names;
    final JsonBytes[] fields;
    /**
     * Per field, the plain type the record writes itself (no logical type; alone, or with null in a union and then
     * plus {@link #NULLABLE}), else {@link #OTHER}: a switch instead of a call through {@link #fields}, which is
     * megamorphic (a type per field) and so never inlined; in a cold JVM's C1 code each was a dispatch through the
     * vtable. Written as the type's own writer writes it.
     */
    private final byte[] kinds;

    RecordBytes(Schema schema) {
      List<Schema.Field> list = schema.getFields();
      names = new byte[list.size()][];
      fields = new JsonBytes[list.size()];
      kinds = new byte[list.size()];
      for (Schema.Field f : list) {
        kinds[f.pos()] = kindOf(f.schema());
        Utf8Sink name = new Utf8Sink(32, true);
        try {
          name.write(f.pos() == 0 ? '{' : ',');
          name.jsonString(f.name());
          name.write(':');
        } catch (IOException e) {
          throw SluiceException.internal("writing JSON to memory failed", e);
        }
        names[f.pos()] = Arrays.copyOf(name.array(), name.length());
      }
    }

    private static byte kindOf(Schema schema) {
      if (schema.getType() == Schema.Type.UNION) {
        Schema single = Schemas.singleNonNull(schema);
        byte kind = single == null || single.getType() == Schema.Type.UNION ? OTHER : kindOf(single);
        return kind == OTHER ? OTHER : (byte) (kind + NULLABLE);
      }
      if (schema.getLogicalType() != null || Schemas.logicalName(schema) != null) {
        return OTHER;
      }
      return switch (schema.getType()) {
        case STRING -> STRING;
        case LONG -> LONG;
        case INT -> INT;
        case DOUBLE -> DOUBLE;
        case BOOLEAN -> BOOLEAN;
        default -> OTHER;
      };
    }

    @Override
    void write(Utf8Sink out, Object value) throws IOException {
      if (names.length == 0) {
        out.write('{');
      }
      if (value instanceof GenericData.Record r) {
        // the records rows are: a class test and class calls, where the interface's cost a type check per record and
        // an interface dispatch per field in a cold JVM's compiled code
        for (int i = 0; i < names.length; i++) {
          out.write(names[i]);
          Object v = r.get(i);
          int kind = kinds[i];
          if (kind >= NULLABLE) {
            if (v == null) {
              out.write(NULL);
              continue;
            }
            kind -= NULLABLE;
          }
          switch (kind) {
            case STRING -> string(out, v);
            case LONG -> longValue(out, v);
            case INT -> intValue(out, v);
            case DOUBLE -> doubleValue(out, v);
            case BOOLEAN -> bool(out, v);
            default -> fields[i].write(out, v);
          }
        }
      } else {
        IndexedRecord rec = (IndexedRecord) value;
        for (int i = 0; i < names.length; i++) {
          out.write(names[i]);
          fields[i].write(out, rec.get(i));
        }
      }
      out.write('}');
    }
  }
}
