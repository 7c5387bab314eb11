package dev.sluice.spark;

import dev.sluice.api.SluiceException;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's internal rows (what {@code df.queryExecution().toRdd()} yields) to Avro records of a table schema, the
 * same values {@link RowRecords} makes from {@code Row}s: reading the Dataset this way skips a second analysis of
 * its plan and the conversion of every row to an external {@code Row} (both large for a Dataset of local data).
 * Internal dates are days and timestamps microseconds, the Avro logical types' own units. Columns match fields by
 * name, once per schema; a field the Dataset lacks is null.
 */
final class InternalRowRecords {
  private final Schema schema;
  private final Schema[] fieldSchemas;
  private final int[] positions;
  private final DataType[] types;
  /** The converters of nested records, made once per record schema. */
  private final Map<Schema, InternalRowRecords> nested = new IdentityHashMap<>();

  InternalRowRecords(Schema schema, StructType struct) {
    this.schema = schema;
    List<Schema.Field> fields = schema.getFields();
    this.fieldSchemas = new Schema[fields.size()];
    this.positions = new int[fields.size()];
    this.types = new DataType[fields.size()];
    List<String> names = List.of(struct.fieldNames());
    for (Schema.Field f : fields) {
      fieldSchemas[f.pos()] = nonNull(f.schema());
      positions[f.pos()] = names.indexOf(f.name());
      types[f.pos()] = positions[f.pos()] < 0 ? null : struct.fields()[positions[f.pos()]].dataType();
    }
  }

  /** {@code row} (of the struct type given at construction) as a record; the row may be reused after. */
  GenericRecord toRecord(InternalRow row) {
    GenericRecord r = new GenericData.Record(schema);
    for (int i = 0; i < positions.length; i++) {
      int at = positions[i];
      if (at >= 0 && !row.isNullAt(at)) {
        r.put(i, value(schema.getFields().get(i).name(), fieldSchemas[i], types[i], row.get(at, types[i])));
      }
    }
    return r;
  }

  private Object value(String field, Schema s, DataType t, Object v) {
    return switch (s.getType()) {
      case STRING -> v.toString();
      case INT -> ((Number) v).intValue();
      case LONG -> ((Number) v).longValue();
      case DOUBLE -> ((Number) v).doubleValue();
      case FLOAT -> ((Number) v).floatValue();
      case BOOLEAN -> v;
      // an unsafe row's bytes are a copy already
      case BYTES -> ByteBuffer.wrap((byte[]) v);
      case RECORD -> nested.computeIfAbsent(s, x -> new InternalRowRecords(x, (StructType) t)).toRecord((InternalRow) v);
      case ARRAY -> {
        ArrayData items = (ArrayData) v;
        DataType itemType = ((ArrayType) t).elementType();
        Schema itemSchema = nonNull(s.getElementType());
        GenericData.Array<Object> out = new GenericData.Array<>(items.numElements(), s);
        for (int i = 0; i < items.numElements(); i++) {
          out.add(items.isNullAt(i) ? null : value(field, itemSchema, itemType, items.get(i, itemType)));
        }
        yield out;
      }
      default -> throw SluiceException.unsupported("Field '" + field + "' of Avro type " + s.getType(),
          "Write tables of strings, numbers, booleans, binaries, dates, timestamps, records and arrays from Spark.");
    };
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
}
