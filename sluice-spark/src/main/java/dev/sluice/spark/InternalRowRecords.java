package dev.sluice.spark;

import dev.sluice.api.SluiceException;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's internal rows (what {@code df.queryExecution().toRdd()} yields) to Avro records of a table schema, the
 * same values {@link RowRecords} makes from {@code Row}s: reading the Dataset this way skips a second analysis of
 * its plan and the conversion of every row to an external {@code Row} (both large for a Dataset of local data).
 * Internal dates are days and timestamps microseconds, the Avro logical types' own units; a decimal becomes the
 * two's complement of its unscaled value at the field's scale (fixed or bytes, as the table declares it). Columns
 * match fields by name, once per schema; a field the Dataset lacks is null.
 */
final class InternalRowRecords {
  private static final Conversions.DecimalConversion DECIMALS = new Conversions.DecimalConversion();
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
      case BYTES -> s.getLogicalType() instanceof LogicalTypes.Decimal d
          ? DECIMALS.toBytes(decimal(field, (Decimal) v, d), s, d) : ByteBuffer.wrap((byte[]) v);
      case FIXED -> {
        if (!(s.getLogicalType() instanceof LogicalTypes.Decimal d) || !(v instanceof Decimal dec)) {
          throw SluiceException.unsupported("Field '" + field + "' of Avro type " + s,
              "Write fixed fields from Spark's decimal columns only.");
        }
        yield DECIMALS.toFixed(decimal(field, dec, d), s, d);
      }
      case MAP -> {
        MapData m = (MapData) v;
        DataType valueType = ((MapType) t).valueType();
        Schema valueSchema = nonNull(s.getValueType());
        ArrayData keys = m.keyArray();
        ArrayData values = m.valueArray();
        Map<String, Object> out = new LinkedHashMap<>(m.numElements() * 2);
        for (int i = 0; i < m.numElements(); i++) {
          out.put(keys.getUTF8String(i).toString(),
              values.isNullAt(i) ? null : value(field, valueSchema, valueType, values.get(i, valueType)));
        }
        yield out;
      }
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
          "Write tables of strings, numbers, decimals, booleans, binaries, dates, timestamps, records, arrays and "
          + "maps from Spark.");
    };
  }

  /**
   * {@code v} at the field's scale, refused by name when it does not fit the field's type (more digits than its
   * precision, or digits its scale would round away) rather than written as another number.
   */
  private static java.math.BigDecimal decimal(String field, Decimal v, LogicalTypes.Decimal d) {
    java.math.BigDecimal out;
    try {
      out = v.toJavaBigDecimal().setScale(d.getScale(), java.math.RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      out = null;
    }
    if (out == null || out.precision() > d.getPrecision()) {
      throw SluiceException.badRequest("The value " + v + " of field '" + field + "'",
          "it does not fit the field's type decimal(" + d.getPrecision() + "," + d.getScale() + ")",
          "cast the column to the table's decimal type");
    }
    return out;
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
