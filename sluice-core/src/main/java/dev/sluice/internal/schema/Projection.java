package dev.sluice.internal.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.avro.Schema;

/** Projections of a record schema: the columns a reader asks a file or a table for. */
public final class Projection {
  private Projection() {
  }

  /**
   * The fields of {@code schema} whose names {@code keep} accepts, each as the schema defines it and in its order, in
   * a record of the schema's own name (a Parquet or Avro reader matches the projection to the file by name).
   */
  public static Schema of(Schema schema, Predicate<String> keep) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : schema.getFields()) {
      if (keep.test(f.name())) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    return Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), false, fields);
  }
}
