package dev.sluice.internal.schema;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.table.TableConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * Which new writer schemas a table accepts, as Hudi 0.15 does by default (Avro schema resolution, no column drops:
 * {@code hoodie.datasource.write.schema.allow.auto.evolution.column.drop=false}): every field of the table schema is
 * still there (by name), the table's data stays readable with the new schema (new fields nullable or with a default;
 * types only widened: int → long → float → double, float → double, string ↔ bytes), and the record key, partition
 * and precombine fields keep their types. Everything else is refused with the field named.
 */
public final class SchemaEvolution {
  private SchemaEvolution() {
  }

  /**
   * Returns the schema the table takes from {@code incoming}, else throws a BAD_INPUT error that names the first
   * problem and the field. A field the table holds as nullable stays nullable when the records declare it required
   * (their values are never null, so they fit the nullable type): a source that knows its columns are never null,
   * after a Spark writer made every column nullable, writes on as Hudi's Spark writer lets it (0.15's
   * {@code reconcileSchemaRequirements}), instead of being refused for a narrowing the data does not have.
   */
  public static Schema check(Schema table, Schema incoming, TableConfig config) {
    if (incoming.getType() != Schema.Type.RECORD) {
      throw refused("the records are a " + incoming.getType() + ", not a record", null);
    }
    incoming = keepNullability(table, incoming);
    List<String> keyFields = new ArrayList<>(config.recordKeyFields());
    keyFields.addAll(config.partitionFields());
    config.precombineField().ifPresent(keyFields::add);
    for (Schema.Field f : table.getFields()) {
      Schema.Field now = incoming.getField(f.name());
      if (now == null) {
        throw refused("field '" + f.name() + "' of the table is missing from the records", "Hudi does not drop columns"
            + " (hoodie.datasource.write.schema.allow.auto.evolution.column.drop=false); write the field, as null if it "
            + "is nullable");
      }
      boolean key = keyFields.stream().anyMatch(k -> k.split("\\.")[0].equals(f.name()));
      if (key && !sameType(f.schema(), now.schema())) {
        throw refused("the type of " + role(config, f.name()) + " '" + f.name() + "' changed from " + f.schema() + " to "
            + now.schema(), "Key, partition and precombine fields keep their types");
      }
      SchemaCompatibility.SchemaPairCompatibility c = SchemaCompatibility.checkReaderWriterCompatibility(now.schema(),
          f.schema());
      if (c.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
        throw refused("field '" + f.name() + "' changed from " + f.schema() + " to " + now.schema()
            + ", which cannot read the table's values (" + describe(c) + ")", "Only widen types (int to long, float to "
            + "double) or make a field nullable");
      }
    }
    for (Schema.Field f : incoming.getFields()) {
      if (table.getField(f.name()) == null && !f.hasDefaultValue() && !nullable(f.schema())) {
        throw refused("the new field '" + f.name() + "' is required and has no default, so the table's existing rows "
            + "have no value for it", "Make it nullable (a union with null, default null) or give it a default");
      }
    }
    return incoming;
  }

  /**
   * {@code incoming} with each top-level field that is required there but nullable in {@code table} (same type
   * otherwise) given the table's nullable type; {@code incoming} itself when there is none.
   */
  private static Schema keepNullability(Schema table, Schema incoming) {
    List<Schema.Field> fields = new ArrayList<>();
    boolean changed = false;
    for (Schema.Field f : incoming.getFields()) {
      Schema.Field old = table.getField(f.name());
      if (old != null && nullable(old.schema()) && !nullable(f.schema()) && nonNull(old.schema()).equals(f.schema())) {
        Schema.Field kept = new Schema.Field(f.name(), old.schema(), f.doc(), old.hasDefaultValue() ? old.defaultVal()
            : null, f.order());
        f.aliases().forEach(kept::addAlias);
        fields.add(kept);
        changed = true;
      } else {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    if (!changed) {
      return incoming;
    }
    Schema out = Schema.createRecord(incoming.getName(), incoming.getDoc(), incoming.getNamespace(), false, fields);
    incoming.getObjectProps().forEach(out::addProp);
    return out;
  }

  private static String role(TableConfig config, String field) {
    if (config.recordKeyFields().stream().anyMatch(k -> k.split("\\.")[0].equals(field))) {
      return "the record key field";
    }
    if (config.partitionFields().stream().anyMatch(k -> k.split("\\.")[0].equals(field))) {
      return "the partition field";
    }
    return "the precombine field";
  }

  private static String describe(SchemaCompatibility.SchemaPairCompatibility c) {
    Optional<String> msg = c.getResult().getIncompatibilities().stream().findFirst()
        .map(i -> i.getType() + (i.getMessage() == null ? "" : ": " + i.getMessage()));
    return msg.orElse(c.getDescription());
  }

  private static boolean sameType(Schema a, Schema b) {
    return nonNull(a).getType() == nonNull(b).getType() && nullable(a) == nullable(b);
  }

  private static boolean nullable(Schema s) {
    return s.getType() == Schema.Type.NULL || (s.getType() == Schema.Type.UNION
        && s.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.NULL));
  }

  private static Schema nonNull(Schema s) {
    if (s.getType() == Schema.Type.UNION) {
      for (Schema t : s.getTypes()) {
        if (t.getType() != Schema.Type.NULL) {
          return t;
        }
      }
    }
    return s;
  }

  private static SluiceException refused(String problem, String fix) {
    return Errors.badInput("the records' schema", null, "it is not a compatible evolution of the table schema: " + problem
        + (fix == null ? "" : ". " + fix), "the table schema, or one that only adds nullable fields or widens types");
  }

  /** True if some field of {@code older} has a narrower type in {@code older} than in {@code newer}. */
  public static boolean widens(Schema older, Schema newer) {
    for (Schema.Field f : older.getFields()) {
      Schema.Field n = newer.getField(f.name());
      if (n != null && nonNull(f.schema()).getType() != nonNull(n.schema()).getType()
          && PROMOTABLE.contains(nonNull(f.schema()).getType())) {
        return true;
      }
    }
    return false;
  }

  private static final java.util.Set<Schema.Type> PROMOTABLE = java.util.EnumSet.of(Schema.Type.INT, Schema.Type.LONG,
      Schema.Type.FLOAT);

  /**
   * {@code value} as a value of {@code target}: a value read with an older, narrower schema (an int where the table
   * now has a long, a float where it has a double) is widened; anything else is returned as it is.
   */
  public static Object promote(Object value, Schema target) {
    if (value == null) {
      return null;
    }
    Schema t = nonNull(target);
    switch (t.getType()) {
      case LONG:
        return value instanceof Integer i ? Long.valueOf(i) : value;
      case FLOAT:
        return value instanceof Integer i ? Float.valueOf(i) : value instanceof Long l ? Float.valueOf(l) : value;
      case DOUBLE:
        if (value instanceof Integer i) {
          return Double.valueOf(i);
        }
        if (value instanceof Long l) {
          return Double.valueOf(l);
        }
        return value instanceof Float f ? Double.valueOf(f.doubleValue()) : value;
      default:
        return value;
    }
  }
}
