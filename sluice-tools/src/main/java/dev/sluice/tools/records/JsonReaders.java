package dev.sluice.tools.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * Compiles a schema into a tree of {@link JsonValueReader}s that turn plain JSON (not Avro's JSON encoding)
 * into generic values: nullable unions take a value or {@code null}, records and maps are objects, bytes and
 * fixed are base64 strings, logical types take their ISO text or numbers (see {@link TextValues}).
 */
final class JsonReaders {
  private final boolean ignoreUnknown;
  private final Map<Schema, RecordReader> records = new IdentityHashMap<>();

  private JsonReaders(boolean ignoreUnknown) {
    this.ignoreUnknown = ignoreUnknown;
  }

  /** The reader for values of {@code schema}. */
  static JsonValueReader compile(Schema schema, InputOptions options) {
    return new JsonReaders(options.ignoreUnknownFields()).reader(schema, false);
  }

  private JsonValueReader reader(Schema schema, boolean strict) {
    switch (schema.getType()) {
      case RECORD:
        RecordReader existing = records.get(schema);
        if (existing != null) {
          return existing;
        }
        RecordReader rec = new RecordReader(schema, ignoreUnknown);
        records.put(schema, rec);
        for (Schema.Field f : schema.getFields()) {
          rec.readers[f.pos()] = reader(f.schema(), false);
        }
        return rec;
      case ARRAY:
        return new ArrayReader(schema, reader(schema.getElementType(), false));
      case MAP:
        return new MapReader(schema, reader(schema.getValueType(), false));
      case UNION:
        Schema single = Schemas.singleNonNull(schema);
        if (single != null) {
          return new NullableReader(reader(single, strict));
        }
        List<JsonValueReader> branches = new ArrayList<>();
        for (Schema branch : schema.getTypes()) {
          branches.add(reader(branch, true));
        }
        return new UnionReader(schema, branches);
      default:
        return new ScalarReader(schema, strict);
    }
  }

  /** Shows a non-string token in a message: its text for numbers and literals, else what it is. */
  static String shown(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == null) {
      return "nothing";
    }
    switch (t) {
      case START_OBJECT:
        return "an object";
      case START_ARRAY:
        return "an array";
      case VALUE_STRING:
        return Describe.quote(p.getText());
      default:
        return Describe.number(p.getText());
    }
  }

  static FieldError mismatch(JsonParser p, Schema schema) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return new FieldError("is null", Describe.expected(schema));
    }
    if (schema.getType() == Schema.Type.UNION) {
      return new FieldError(shown(p) + " does not fit any type of the " + Describe.typeName(schema), Describe.expected(schema));
    }
    return new FieldError(shown(p) + " is not " + Describe.article(Describe.typeName(schema)), Describe.expected(schema));
  }

  /** A record: an object whose members are the fields; absent fields take their default. */
  static final class RecordReader implements JsonValueReader {
    private final Schema schema;
    private final Map<String, Integer> index = new HashMap<>();
    private final String[] names;
    final JsonValueReader[] readers;
    private final Missing[] missing;
    private final boolean ignoreUnknown;

    RecordReader(Schema schema, boolean ignoreUnknown) {
      this.schema = schema;
      this.ignoreUnknown = ignoreUnknown;
      List<Schema.Field> fields = schema.getFields();
      names = new String[fields.size()];
      readers = new JsonValueReader[fields.size()];
      missing = new Missing[fields.size()];
      for (Schema.Field f : fields) {
        index.put(f.name(), f.pos());
        names[f.pos()] = f.name();
        missing[f.pos()] = Missing.of(f);
      }
    }

    @Override
    public Object read(JsonParser p) throws IOException {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        throw mismatch(p, schema);
      }
      int n = names.length;
      GenericData.Record rec = new GenericData.Record(schema);
      boolean[] seen = new boolean[n];
      String name;
      while ((name = p.nextFieldName()) != null) {
        Integer pos = index.get(name);
        p.nextToken();
        if (pos == null) {
          if (ignoreUnknown) {
            p.skipChildren();
            continue;
          }
          throw new FieldError("is not a field of " + Describe.typeName(schema),
              "only fields " + names(schema) + " (or ignore unknown fields)").inField(name);
        }
        int i = pos;
        if (seen[i]) {
          throw new FieldError("appears more than once in the object", "each field at most once").inField(name);
        }
        seen[i] = true;
        try {
          rec.put(i, readers[i].read(p));
        } catch (FieldError e) {
          throw e.inField(name);
        }
      }
      for (int i = 0; i < n; i++) {
        if (!seen[i]) {
          rec.put(i, missing[i].value());
        }
      }
      return rec;
    }

    @Override
    public boolean accepts(JsonToken token) {
      return token == JsonToken.START_OBJECT;
    }

    private static String names(Schema schema) {
      List<String> out = new ArrayList<>();
      for (Schema.Field f : schema.getFields()) {
        out.add(f.name());
      }
      return Describe.symbols(out);
    }
  }

  /** An array of one element type. */
  static final class ArrayReader implements JsonValueReader {
    private final Schema schema;
    private final JsonValueReader element;

    ArrayReader(Schema schema, JsonValueReader element) {
      this.schema = schema;
      this.element = element;
    }

    @Override
    public Object read(JsonParser p) throws IOException {
      if (p.currentToken() != JsonToken.START_ARRAY) {
        throw mismatch(p, schema);
      }
      GenericData.Array<Object> out = new GenericData.Array<>(8, schema);
      int i = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        try {
          out.add(element.read(p));
        } catch (FieldError e) {
          throw e.atIndex(i);
        }
        i++;
      }
      return out;
    }

    @Override
    public boolean accepts(JsonToken token) {
      return token == JsonToken.START_ARRAY;
    }
  }

  /** A map: an object with string keys. */
  static final class MapReader implements JsonValueReader {
    private final Schema schema;
    private final JsonValueReader value;

    MapReader(Schema schema, JsonValueReader value) {
      this.schema = schema;
      this.value = value;
    }

    @Override
    public Object read(JsonParser p) throws IOException {
      if (p.currentToken() != JsonToken.START_OBJECT) {
        throw mismatch(p, schema);
      }
      Map<String, Object> out = new LinkedHashMap<>();
      String key;
      while ((key = p.nextFieldName()) != null) {
        p.nextToken();
        if (out.containsKey(key)) {
          throw new FieldError("appears more than once in the object", "each key at most once").atKey(key);
        }
        try {
          out.put(key, value.read(p));
        } catch (FieldError e) {
          throw e.atKey(key);
        }
      }
      return out;
    }

    @Override
    public boolean accepts(JsonToken token) {
      return token == JsonToken.START_OBJECT;
    }
  }

  /** The common union {@code [null, X]}: null or a value of X. */
  static final class NullableReader implements JsonValueReader {
    private final JsonValueReader inner;

    NullableReader(JsonValueReader inner) {
      this.inner = inner;
    }

    @Override
    public Object read(JsonParser p) throws IOException {
      return p.currentToken() == JsonToken.VALUE_NULL ? null : inner.read(p);
    }

    @Override
    public boolean accepts(JsonToken token) {
      return token == JsonToken.VALUE_NULL || inner.accepts(token);
    }
  }

  /** A union of several non-null types: the first branch (in schema order) the value fits. */
  static final class UnionReader implements JsonValueReader {
    private final Schema schema;
    private final List<JsonValueReader> branches;

    UnionReader(Schema schema, List<JsonValueReader> branches) {
      this.schema = schema;
      this.branches = branches;
    }

    @Override
    public Object read(JsonParser p) throws IOException {
      JsonToken t = p.currentToken();
      List<JsonValueReader> candidates = new ArrayList<>(branches.size());
      for (JsonValueReader b : branches) {
        if (b.accepts(t)) {
          candidates.add(b);
        }
      }
      if (candidates.isEmpty()) {
        throw mismatch(p, schema);
      }
      if (candidates.size() == 1) {
        return candidates.get(0).read(p);
      }
      if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
        // A scalar is one token: each branch can look at it in place.
        for (JsonValueReader b : candidates) {
          try {
            return b.read(p);
          } catch (FieldError e) {
            // This branch does not fit; the next one may.
            continue;
          }
        }
        throw new FieldError(shown(p) + " does not fit any type of the " + Describe.typeName(schema), Describe.expected(schema));
      }
      TokenBuffer buffer = new TokenBuffer(p);
      buffer.copyCurrentStructure(p);
      for (JsonValueReader b : candidates) {
        try (JsonParser sub = buffer.asParser()) {
          sub.nextToken();
          return b.read(sub);
        } catch (FieldError e) {
          // This branch does not fit; the next one may.
          continue;
        }
      }
      throw new FieldError((t == JsonToken.START_OBJECT ? "an object" : "an array") + " does not fit any type of the "
          + Describe.typeName(schema), Describe.expected(schema));
    }

    @Override
    public boolean accepts(JsonToken token) {
      for (JsonValueReader b : branches) {
        if (b.accepts(token)) {
          return true;
        }
      }
      return false;
    }
  }
}
