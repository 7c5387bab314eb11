package dev.sluice.spark;

import dev.sluice.api.SluiceException;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A Dataset's schema as a table schema (the rows themselves become records in {@link InternalRowRecords}). The
 * common types (string, int, long, float, double, boolean, binary, date, timestamp; short and byte as int),
 * decimals, structs of them (nested records), arrays and maps with string keys; anything else (maps of other keys,
 * intervals, ...) is refused by name. Spark's own
 * {@code spark-avro} is not on the class path of every deployment.
 */
final class RowRecords {
  private RowRecords() {
  }

  /** The table schema of a Dataset: record {@code <name>_record} in namespace {@code hoodie.<name>}, as Hudi names it. */
  static Schema schemaOf(StructType struct, String tableName) {
    SchemaBuilder.FieldAssembler<Schema> fields = SchemaBuilder.record(tableName + "_record")
        .namespace("hoodie." + tableName).fields();
    // nested records live in the enclosing record's full name, as Spark's Avro converter (which gives Hudi's Spark
    // writer its schema) names them: Hudi 0.15 checks an upsert's schema against the table's by full names
    String inner = "hoodie." + tableName + "." + tableName + "_record";
    for (StructField f : struct.fields()) {
      Schema t = typeOf(f.name(), f.name(), inner, f.dataType());
      if (f.nullable()) {
        // a null default is given to the builder as Java null: it renders the value it gets as JSON, and
        // JsonProperties.NULL_VALUE (the Schema.Field constructor's marker) is not JSON to it
        fields = fields.name(f.name()).type(Schema.createUnion(Schema.create(Schema.Type.NULL), t))
            .withDefault(null);
      } else {
        fields = fields.name(f.name()).type(t).noDefault();
      }
    }
    return fields.endRecord();
  }

  /**
   * The Avro type of column {@code name} (its dotted path, for messages): a struct becomes record {@code field} in
   * {@code namespace}, an array's elements take the array column's name and namespace.
   */
  private static Schema typeOf(String name, String field, String namespace, DataType t) {
    if (t.equals(DataTypes.StringType)) {
      return Schema.create(Schema.Type.STRING);
    } else if (t.equals(DataTypes.IntegerType) || t.equals(DataTypes.ShortType) || t.equals(DataTypes.ByteType)) {
      return Schema.create(Schema.Type.INT);
    } else if (t.equals(DataTypes.LongType)) {
      return Schema.create(Schema.Type.LONG);
    } else if (t.equals(DataTypes.DoubleType)) {
      return Schema.create(Schema.Type.DOUBLE);
    } else if (t.equals(DataTypes.FloatType)) {
      return Schema.create(Schema.Type.FLOAT);
    } else if (t.equals(DataTypes.BooleanType)) {
      return Schema.create(Schema.Type.BOOLEAN);
    } else if (t.equals(DataTypes.BinaryType)) {
      return Schema.create(Schema.Type.BYTES);
    } else if (t.equals(DataTypes.DateType)) {
      return LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
    } else if (t.equals(DataTypes.TimestampType)) {
      return LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG));
    } else if (t instanceof ArrayType a) {
      Schema items = typeOf(name, field, namespace, a.elementType());
      return Schema.createArray(a.containsNull() ? Schema.createUnion(Schema.create(Schema.Type.NULL), items) : items);
    } else if (t instanceof StructType st) {
      // a nested record is named after its column, in its parent's full name, as Hudi's Spark writer names it
      return nested(st, name, field, namespace);
    } else if (t instanceof DecimalType d) {
      // a fixed of the fewest bytes the precision needs, named "<namespace>.<column>.fixed" as Spark's Avro
      // converter (Hudi's Spark writer's schema) names it: Hudi 0.15's upsert checks schemas by full names
      Schema fixed = Schema.createFixed("fixed", null, namespace + "." + field, fixedSize(d.precision()));
      return LogicalTypes.decimal(d.precision(), d.scale()).addToSchema(fixed);
    } else if (t instanceof MapType m) {
      if (!m.keyType().equals(DataTypes.StringType)) {
        throw SluiceException.unsupported("Column '" + name + "' of Spark type " + t.simpleString(),
            "Avro (and so Hudi) maps have string keys: cast the keys to strings, or use an array of structs.");
      }
      Schema values = typeOf(name, field, namespace, m.valueType());
      return Schema.createMap(m.valueContainsNull()
          ? Schema.createUnion(Schema.create(Schema.Type.NULL), values) : values);
    }
    throw SluiceException.unsupported("Column '" + name + "' of Spark type " + t.simpleString(),
        "Cast it to a string, number, decimal, boolean, binary, date, timestamp, struct, array or map column.");
  }

  /** The fewest bytes whose two's complement holds every unscaled value of {@code precision} digits. */
  static int fixedSize(int precision) {
    int bytes = 1;
    while (java.math.BigInteger.TWO.pow(8 * bytes - 1).compareTo(java.math.BigInteger.TEN.pow(precision)) < 0) {
      bytes++;
    }
    return bytes;
  }

  private static Schema nested(StructType st, String name, String field, String namespace) {
    SchemaBuilder.FieldAssembler<Schema> fields = SchemaBuilder.record(field).namespace(namespace).fields();
    for (StructField f : st.fields()) {
      Schema t = typeOf(name + "." + f.name(), f.name(), namespace + "." + field, f.dataType());
      fields = f.nullable()
          ? fields.name(f.name()).type(Schema.createUnion(Schema.create(Schema.Type.NULL), t)).withDefault(null)
          : fields.name(f.name()).type(t).noDefault();
    }
    return fields.endRecord();
  }
}
