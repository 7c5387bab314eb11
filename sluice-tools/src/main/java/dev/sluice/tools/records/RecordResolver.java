package dev.sluice.tools.records;

import dev.sluice.api.SluiceException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;

/**
 * Resolves records of a file's schema (Avro writer schema, Parquet file schema) to the table schema, by field
 * name, following Avro's resolution rules: promotions int→long→float→double and string↔bytes, a field missing
 * from the file takes the table default (or null when nullable), union branches are matched by type, enum
 * symbols by name. Unlike Avro's {@code ResolvingDecoder} it ignores record names (files seldom share the
 * table's), converts time units and decimal scales exactly instead of reinterpreting the numbers, and treats
 * file fields the table lacks as errors unless unknown fields are ignored.
 */
final class RecordResolver {
  private final boolean ignoreUnknown;
  private final Map<Schema, Map<Schema, Converter>> records = new IdentityHashMap<>();

  private RecordResolver(boolean ignoreUnknown) {
    this.ignoreUnknown = ignoreUnknown;
  }

  /**
   * The converter from values of {@code source} to values of {@code target}.
   *
   * @throws FieldError naming the field whose types cannot be resolved
   */
  static Converter compile(Schema source, Schema target, InputOptions options) {
    return new RecordResolver(options.ignoreUnknownFields()).resolve(source, target);
  }

  /**
   * Record {@code number} of file {@code name}, read with the file's own schema, through {@code converter}: a value
   * that does not fit the table, or a record that does not match the schema it was read with, is bad input naming
   * the file and the record (the Avro and the Parquet file source read records so).
   */
  static GenericRecord convertFileRecord(Converter converter, Object raw, String name, long number) {
    try {
      return (GenericRecord) converter.convert(raw);
    } catch (FieldError e) {
      throw e.toException(name + ": record " + number);
    } catch (NullPointerException | ClassCastException e) {
      throw SluiceException.badInput(name + ": record " + number, "does not match the file's own schema", e);
    }
  }

  private Converter resolve(Schema source, Schema target) {
    boolean sourceUnion = source.getType() == Schema.Type.UNION;
    if (target.getType() == Schema.Type.UNION) {
      if (sourceUnion) {
        return unionToUnion(source, target);
      }
      if (source.getType() == Schema.Type.NULL) {
        if (!Schemas.isNullable(target)) {
          throw ScalarResolver.cannotRead(source, target);
        }
        return v -> null;
      }
      Schema branch = pickBranch(source, target);
      if (branch == null) {
        throw ScalarResolver.cannotRead(source, target);
      }
      Converter inner = resolve(source, branch);
      return v -> v == null ? null : inner.convert(v);
    }
    if (sourceUnion) {
      return unionToValue(source, target);
    }
    switch (target.getType()) {
      case RECORD:
        if (source.getType() != Schema.Type.RECORD) {
          throw ScalarResolver.cannotRead(source, target);
        }
        return record(source, target);
      case ARRAY:
        if (source.getType() != Schema.Type.ARRAY) {
          throw ScalarResolver.cannotRead(source, target);
        }
        return array(source, target);
      case MAP:
        if (source.getType() != Schema.Type.MAP) {
          throw ScalarResolver.cannotRead(source, target);
        }
        return map(source, target);
      default:
        if (source.getType() == Schema.Type.RECORD || source.getType() == Schema.Type.ARRAY || source.getType() == Schema.Type.MAP) {
          throw ScalarResolver.cannotRead(source, target);
        }
        return ScalarResolver.compile(source, target);
    }
  }

  /** The table union branch for a non-union file type: the first of the same kind, else the first that resolves. */
  private Schema pickBranch(Schema source, Schema union) {
    for (Schema b : union.getTypes()) {
      if (b.getType() == source.getType() && Objects.equals(Schemas.logicalName(b), Schemas.logicalName(source))) {
        if (tryResolve(source, b) != null) {
          return b;
        }
      }
    }
    for (Schema b : union.getTypes()) {
      if (b.getType() != Schema.Type.NULL && tryResolve(source, b) != null) {
        return b;
      }
    }
    return null;
  }

  private Converter tryResolve(Schema source, Schema target) {
    try {
      return resolve(source, target);
    } catch (FieldError e) {
      // This pairing does not resolve; the caller tries the next branch.
      return null;
    }
  }

  private Converter unionToUnion(Schema source, Schema target) {
    Schema s1 = Schemas.singleNonNull(source);
    Schema t1 = Schemas.singleNonNull(target);
    if (s1 != null && t1 != null) {
      Converter inner = resolve(s1, t1);
      return v -> v == null ? null : inner.convert(v);
    }
    boolean targetNullable = Schemas.isNullable(target);
    return perBranch(source, b -> {
      if (b.getType() == Schema.Type.NULL) {
        return targetNullable ? v -> null : null;
      }
      Schema tb = pickBranch(b, target);
      return tb == null ? null : resolve(b, tb);
    }, target);
  }

  private Converter unionToValue(Schema source, Schema target) {
    return perBranch(source, b -> b.getType() == Schema.Type.NULL ? null : tryResolve(b, target), target);
  }

  private interface BranchResolver {
    Converter resolve(Schema branch);
  }

  /**
   * One converter per file union branch; branches that cannot be read fail only when a value uses them (as in
   * Avro), but if no non-null branch can be read the schema is rejected up front.
   */
  private Converter perBranch(Schema source, BranchResolver resolver, Schema target) {
    List<Schema> types = source.getTypes();
    Converter[] byBranch = new Converter[types.size()];
    boolean any = false;
    Schema firstBad = null;
    for (int i = 0; i < types.size(); i++) {
      Schema b = types.get(i);
      Converter c = resolver.resolve(b);
      if (c == null) {
        if (firstBad == null && b.getType() != Schema.Type.NULL) {
          firstBad = b;
        }
        Schema bad = b;
        c = b.getType() == Schema.Type.NULL
            ? v -> {
              throw new FieldError("is null", Describe.expected(target));
            }
            : v -> {
              throw ScalarResolver.cannotRead(bad, target);
            };
      } else if (b.getType() != Schema.Type.NULL) {
        any = true;
      }
      byBranch[i] = c;
    }
    if (!any && firstBad != null) {
      throw ScalarResolver.cannotRead(firstBad, target);
    }
    return v -> byBranch[GenericData.get().resolveUnion(source, v)].convert(v);
  }

  private Converter array(Schema source, Schema target) {
    Converter element;
    try {
      element = resolve(source.getElementType(), target.getElementType());
    } catch (FieldError e) {
      throw e.atIndex(0);
    }
    return v -> {
      Collection<?> in = (Collection<?>) v;
      GenericData.Array<Object> out = new GenericData.Array<>(in.size(), target);
      int i = 0;
      for (Object item : in) {
        try {
          out.add(element.convert(item));
        } catch (FieldError e) {
          throw e.atIndex(i);
        }
        i++;
      }
      return out;
    };
  }

  private Converter map(Schema source, Schema target) {
    Converter value = resolve(source.getValueType(), target.getValueType());
    return v -> {
      Map<?, ?> in = (Map<?, ?>) v;
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : in.entrySet()) {
        String key = e.getKey().toString();
        try {
          out.put(key, value.convert(e.getValue()));
        } catch (FieldError err) {
          throw err.atKey(key);
        }
      }
      return out;
    };
  }

  private Converter record(Schema source, Schema target) {
    Map<Schema, Converter> byTarget = records.computeIfAbsent(source, k -> new IdentityHashMap<>());
    Converter known = byTarget.get(target);
    if (known != null) {
      return known;
    }
    List<Schema.Field> fields = target.getFields();
    int n = fields.size();
    int[] from = new int[n];
    Converter[] converters = new Converter[n];
    Missing[] missing = new Missing[n];
    String[] names = new String[n];
    Converter self = v -> convertRecord((IndexedRecord) v, target, from, converters, missing, names);
    // Registered before the fields are resolved so a recursive schema finds itself.
    byTarget.put(target, self);
    try {
      boolean[] used = new boolean[source.getFields().size()];
      for (Schema.Field tf : fields) {
        int i = tf.pos();
        names[i] = tf.name();
        Schema.Field sf = sourceField(source, tf);
        if (sf == null) {
          missing[i] = Missing.of(tf);
          from[i] = -1;
          if (missing[i].required()) {
            throw new FieldError("is not in the file", "every table field that is not nullable and has no default")
                .inField(tf.name());
          }
          continue;
        }
        used[sf.pos()] = true;
        from[i] = sf.pos();
        try {
          converters[i] = resolve(sf.schema(), tf.schema());
        } catch (FieldError e) {
          throw e.inField(tf.name());
        }
      }
      if (!ignoreUnknown) {
        for (Schema.Field sf : source.getFields()) {
          if (!used[sf.pos()]) {
            throw new FieldError("is in the file but not in the table schema",
                "only table fields " + fieldNames(target) + " (or ignore unknown fields)").inField(sf.name());
          }
        }
      }
    } catch (FieldError e) {
      byTarget.remove(target);
      throw e;
    }
    return self;
  }

  private static Object convertRecord(IndexedRecord in, Schema target, int[] from, Converter[] converters, Missing[] missing,
      String[] names) {
    GenericData.Record out = new GenericData.Record(target);
    for (int i = 0; i < from.length; i++) {
      if (from[i] < 0) {
        out.put(i, missing[i].value());
        continue;
      }
      try {
        out.put(i, converters[i].convert(in.get(from[i])));
      } catch (FieldError e) {
        throw e.inField(names[i]);
      }
    }
    return out;
  }

  /** The file field for a table field: same name, else one of the table field's aliases, else a file alias. */
  private static Schema.Field sourceField(Schema source, Schema.Field target) {
    Schema.Field f = source.getField(target.name());
    if (f != null) {
      return f;
    }
    for (String alias : target.aliases()) {
      f = source.getField(alias);
      if (f != null) {
        return f;
      }
    }
    for (Schema.Field sf : source.getFields()) {
      if (sf.aliases().contains(target.name())) {
        return sf;
      }
    }
    return null;
  }

  private static String fieldNames(Schema record) {
    List<String> names = new ArrayList<>();
    for (Schema.Field f : record.getFields()) {
      names.add(f.name());
    }
    return Describe.symbols(names);
  }
}
