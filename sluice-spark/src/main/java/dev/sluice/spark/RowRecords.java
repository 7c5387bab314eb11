package dev.sluice.spark;

import dev.sluice.api.SluiceException;
import java.nio.ByteBuffer;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.collection.JavaConverters;

/**
 * Spark rows to Avro records of a table schema, and a Dataset's schema to a table schema. The common types (string,
 * int, long, float, double, boolean, binary, date, timestamp; short and byte as int), structs of them (nested
 * records) and arrays; anything else (maps, decimals, ...) is refused by name. Spark's own {@code spark-avro} is
 * not on the class path of every deployment.
 */
final class RowRecords {
  private RowRecords() {
  }

  /** The table schema of a Dataset: record {@code <name>_record} in namespace {@code hoodie.<name>}, as Hudi names it. */
  static Schema schemaOf(StructType struct, String tableName) {
    SchemaBuilder.FieldAssembler<Schema> fields = SchemaBuilder.record(tableName + "_record")
        .namespace("hoodie." + tableName).fields();
    for (StructField f : struct.fields()) {
      Schema t = typeOf(f.name(), f.dataType());
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

  private static Schema typeOf(String name, DataType t) {
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
      Schema items = typeOf(name, a.elementType());
      return Schema.createArray(a.containsNull() ? Schema.createUnion(Schema.create(Schema.Type.NULL), items) : items);
    } else if (t instanceof StructType st) {
      // a nested record is named after its column, as Hudi's Spark writer names it (unique within the schema)
      return nested(st, name);
    }
    throw SluiceException.unsupported("Column '" + name + "' of Spark type " + t.simpleString(),
        "Cast it to a string, number, boolean, binary, date, timestamp, struct or array column.");
  }

  private static Schema nested(StructType st, String name) {
    SchemaBuilder.FieldAssembler<Schema> fields = SchemaBuilder.record(name.replace('.', '_')).fields();
    for (StructField f : st.fields()) {
      Schema t = typeOf(name + "." + f.name(), f.dataType());
      fields = f.nullable()
          ? fields.name(f.name()).type(Schema.createUnion(Schema.create(Schema.Type.NULL), t)).withDefault(null)
          : fields.name(f.name()).type(t).noDefault();
    }
    return fields.endRecord();
  }

  /**
   * {@code row} as a record of {@code schema}: each field from the row's column of the same name (a column the
   * row lacks is null; a row without a schema is read by position).
   */
  static GenericRecord toRecord(Row row, Schema schema) {
    return new Binder(schema).toRecord(row);
  }

  /**
   * Converts the rows of one input partition to records of one schema, matching columns to fields by name once per
   * row schema (rows of a Dataset share theirs) instead of once per row.
   */
  static final class Binder {
    private final Schema schema;
    private final Schema[] fieldSchemas;
    private StructType seen;
    private int[] positions;

    Binder(Schema schema) {
      this.schema = schema;
      this.fieldSchemas = schema.getFields().stream().map(f -> nonNull(f.schema())).toArray(Schema[]::new);
    }

    GenericRecord toRecord(Row row) {
      StructType struct = row.schema();
      if (positions == null || struct != seen) {
        bind(struct);
      }
      GenericRecord r = new GenericData.Record(schema);
      for (int i = 0; i < positions.length; i++) {
        int at = positions[i];
        Object v = at < 0 || at >= row.length() || row.isNullAt(at) ? null : row.get(at);
        r.put(i, v == null ? null : value(schema.getFields().get(i).name(), fieldSchemas[i], v));
      }
      return r;
    }

    private void bind(StructType struct) {
      seen = struct;
      List<String> names = struct == null ? null : List.of(struct.fieldNames());
      positions = new int[fieldSchemas.length];
      for (Schema.Field f : schema.getFields()) {
        positions[f.pos()] = names == null ? f.pos() : names.indexOf(f.name());
      }
    }
  }

  private static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    for (Schema b : s.getTypes()) {
      if (b.getType() != Schema.Type.NULL) {
        return b;
      }
    }
    return s;
  }

  private static Object value(String field, Schema s, Object v) {
    return switch (s.getType()) {
      case STRING -> v.toString();
      case INT -> v instanceof Date d ? (int) d.toLocalDate().toEpochDay()
          : v instanceof LocalDate d ? (int) d.toEpochDay() : ((Number) v).intValue();
      case LONG -> v instanceof Timestamp ts ? micros(ts.toInstant())
          : v instanceof Instant i ? micros(i) : ((Number) v).longValue();
      case DOUBLE -> ((Number) v).doubleValue();
      case FLOAT -> ((Number) v).floatValue();
      case BOOLEAN -> v;
      case BYTES -> ByteBuffer.wrap((byte[]) v);
      case RECORD -> toRecord((Row) v, s);
      case ARRAY -> {
        List<?> items = v instanceof List<?> l ? l : JavaConverters.seqAsJavaList((scala.collection.Seq<?>) v);
        Schema itemSchema = nonNull(s.getElementType());
        GenericData.Array<Object> out = new GenericData.Array<>(items.size(), s);
        for (Object item : items) {
          out.add(item == null ? null : value(field, itemSchema, item));
        }
        yield out;
      }
      default -> throw SluiceException.unsupported("Field '" + field + "' of Avro type " + s.getType(),
          "Write tables of strings, numbers, booleans, binaries, dates, timestamps, records and arrays from Spark.");
    };
  }

  private static long micros(Instant i) {
    return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1_000);
  }
}
