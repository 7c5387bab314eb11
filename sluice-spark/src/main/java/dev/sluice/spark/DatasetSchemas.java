package dev.sluice.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.spark.sql.types.StructType;

/**
 * The writer schema of a Dataset written to an existing table. Hudi's Spark writer evolves the table's schema from
 * the Dataset's: a column the table lacks is added (as Spark declares it: a non-nullable new column is refused by
 * the engine's check, as Hudi refuses it, since the table's rows have no value for it), and Hudi's meta columns ({@code _hoodie_*}, present
 * when the Dataset was read from a Hudi table) are not data. The table's own columns keep the table's types, so a
 * Dataset whose Spark types merely map differently (Spark has no Avro enum or fixed, and marks columns nullable)
 * writes on as before; the engine's schema check then decides whether the table accepts the result.
 */
final class DatasetSchemas {
  private static final String META_PREFIX = "_hoodie_";

  private DatasetSchemas() {
  }

  /** {@code table} plus the columns of {@code struct} it does not have, in the Dataset's order, as Sluice maps them. */
  static Schema writerSchema(Schema table, StructType struct) {
    Schema mapped = RowRecords.schemaOf(struct, table.getName());
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : table.getFields()) {
      fields.add(new Schema.Field(f, f.schema()));
    }
    boolean added = false;
    for (Schema.Field f : mapped.getFields()) {
      if (table.getField(f.name()) == null && !f.name().startsWith(META_PREFIX)) {
        fields.add(new Schema.Field(f, f.schema()));
        added = true;
      }
    }
    if (!added) {
      return table;
    }
    Schema out = Schema.createRecord(table.getName(), table.getDoc(), table.getNamespace(), false, fields);
    table.getObjectProps().forEach(out::addProp);
    return out;
  }
}
