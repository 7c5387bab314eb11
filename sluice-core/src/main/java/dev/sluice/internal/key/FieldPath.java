package dev.sluice.internal.key;

import dev.sluice.internal.error.Errors;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * A resolved, possibly nested ({@code a.b.c}) field of a record schema, read by position for speed.
 *
 * @param name the dotted name
 * @param positions field positions from the top-level record down
 * @param schema the (non-null branch of the) field's schema
 */
public record FieldPath(String name, int[] positions, Schema schema) {

  /** Resolves {@code dotted} in {@code schema}; {@code role} names what it is for in the error message. */
  public static FieldPath resolve(Schema schema, String dotted, String role) {
    Schema current = schema;
    List<Integer> pos = new ArrayList<>();
    Schema fieldSchema = null;
    for (String part : dotted.split("\\.")) {
      Schema rec = nonNull(current);
      Schema.Field field = rec.getType() == Schema.Type.RECORD ? rec.getField(part) : null;
      if (field == null) {
        throw Errors.badRequest("The " + role + " field '" + dotted + "'",
            "it is not a field of the schema (fields: " + rec.getFields().stream().map(Schema.Field::name).toList() + ")",
            "Name an existing field.");
      }
      pos.add(field.pos());
      fieldSchema = nonNull(field.schema());
      current = fieldSchema;
    }
    return new FieldPath(dotted, pos.stream().mapToInt(Integer::intValue).toArray(), fieldSchema);
  }

  /** The value in {@code record}, or null if it or an enclosing record is null. */
  public Object get(GenericRecord record) {
    Object v = record;
    for (int p : positions) {
      if (!(v instanceof GenericRecord r)) {
        return null;
      }
      v = r.get(p);
    }
    return v;
  }

  /** The non-null branch of a nullable union, or the schema itself. */
  public static Schema nonNull(Schema s) {
    if (s.getType() == Schema.Type.UNION) {
      for (Schema b : s.getTypes()) {
        if (b.getType() != Schema.Type.NULL) {
          return b;
        }
      }
    }
    return s;
  }
}
