package dev.sluice.spark;

import dev.sluice.api.SluiceException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A table's Avro schema as Spark's, and the engine's records as Spark's internal rows: strings, numbers, booleans,
 * binaries, dates and timestamps (micros or millis), decimals (fixed or bytes), records of them (structs), arrays
 * and maps, the types {@link RowRecords} writes; any other column type (unions of several types, say) is refused by
 * name, since a silent guess would read wrong values.
 */
final class SparkRows {
  /** The meta columns Hudi's datasource shows first, in its order. */
  static final List<String> META = List.of("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
      "_hoodie_partition_path", "_hoodie_file_name");

  private SparkRows() {
  }

  /** The Spark schema of a table of Avro schema {@code table}: the five meta columns, then the table's columns. */
  static StructType withMeta(Schema table) {
    StructType out = new StructType();
    for (String m : META) {
      out = out.add(m, DataTypes.StringType, true);
    }
    for (Schema.Field f : table.getFields()) {
      if (!META.contains(f.name())) {
        out = out.add(f.name(), type(f.name(), f.schema()), nullable(f.schema()));
      }
    }
    return out;
  }

  private static boolean nullable(Schema s) {
    return s.getType() == Schema.Type.NULL || s.getType() == Schema.Type.UNION
        && s.getTypes().stream().anyMatch(b -> b.getType() == Schema.Type.NULL);
  }

  private static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    List<Schema> branches = s.getTypes().stream().filter(b -> b.getType() != Schema.Type.NULL).toList();
    return branches.size() == 1 ? branches.get(0) : s;
  }

  private static DataType type(String column, Schema schema) {
    Schema s = nonNull(schema);
    LogicalType logical = s.getLogicalType();
    if (logical instanceof LogicalTypes.Date) {
      return DataTypes.DateType;
    }
    if (logical instanceof LogicalTypes.TimestampMicros || logical instanceof LogicalTypes.TimestampMillis) {
      return DataTypes.TimestampType;
    }
    if (logical instanceof LogicalTypes.Decimal d && d.getPrecision() <= DecimalType.MAX_PRECISION()) {
      return DataTypes.createDecimalType(d.getPrecision(), d.getScale());
    }
    return switch (s.getType()) {
      case STRING, ENUM -> DataTypes.StringType;
      case INT -> DataTypes.IntegerType;
      case LONG -> DataTypes.LongType;
      case FLOAT -> DataTypes.FloatType;
      case DOUBLE -> DataTypes.DoubleType;
      case BOOLEAN -> DataTypes.BooleanType;
      case BYTES -> DataTypes.BinaryType;
      case ARRAY -> DataTypes.createArrayType(type(column, s.getElementType()), nullable(s.getElementType()));
      case MAP -> DataTypes.createMapType(DataTypes.StringType, type(column, s.getValueType()),
          nullable(s.getValueType()));
      case RECORD -> {
        StructType st = new StructType();
        for (Schema.Field f : s.getFields()) {
          st = st.add(f.name(), type(column + "." + f.name(), f.schema()), nullable(f.schema()));
        }
        yield st;
      }
      default -> throw SluiceException.unsupported("Reading column '" + column + "' of Avro type " + schema
          + " through Spark", "Select the table's columns of strings, numbers, decimals, booleans, binaries, dates, "
          + "timestamps, records, arrays and maps (spark.read.format(\"sluice\").load(path).select(...)), or read it "
          + "with the engine's Scan.");
    };
  }

  /** Whether {@code s} (or, for a map, its values) is a timestamp in milliseconds. */
  private static boolean isMillis(Schema s) {
    Schema n = nonNull(s);
    return n.getType() == Schema.Type.MAP ? isMillis(n.getValueType())
        : n.getLogicalType() instanceof LogicalTypes.TimestampMillis;
  }

  /**
   * Converts records to rows of {@code schema}: each column by name from the record (a column the record lacks
   * is null), to Spark's internal representation.
   */
  static final class Converter {
    private final StructField[] fields;
    private Schema seen;
    private int[] positions;
    private boolean[] millis;

    Converter(StructType schema) {
      this.fields = schema.fields();
    }

    InternalRow apply(GenericRecord r) {
      if (r.getSchema() != seen) {
        bind(r.getSchema());
      }
      Object[] values = new Object[fields.length];
      for (int i = 0; i < fields.length; i++) {
        Object v = positions[i] < 0 ? null : r.get(positions[i]);
        values[i] = v == null ? null : value(fields[i].dataType(), v, millis[i]);
      }
      return new GenericInternalRow(values);
    }

    private void bind(Schema s) {
      seen = s;
      positions = new int[fields.length];
      millis = new boolean[fields.length];
      for (int i = 0; i < fields.length; i++) {
        Schema.Field f = s.getField(fields[i].name());
        positions[i] = f == null ? -1 : f.pos();
        millis[i] = f != null && isMillis(f.schema());
      }
    }

    /** A decimal as the engine's reader gives it: a fixed or bytes value (two's complement, unscaled) or a number. */
    private static java.math.BigDecimal decimal(Object v, DecimalType t) {
      if (v instanceof java.math.BigDecimal d) {
        return d;
      } else if (v instanceof org.apache.avro.generic.GenericFixed f) {
        return new java.math.BigDecimal(new java.math.BigInteger(f.bytes()), t.scale());
      }
      ByteBuffer b = ((ByteBuffer) v).duplicate();
      byte[] bytes = new byte[b.remaining()];
      b.get(bytes);
      return new java.math.BigDecimal(new java.math.BigInteger(bytes), t.scale());
    }

    private static Object value(DataType t, Object v, boolean millis) {
      if (t instanceof StructType st) {
        GenericRecord r = (GenericRecord) v;
        StructField[] fs = st.fields();
        Object[] values = new Object[fs.length];
        for (int i = 0; i < fs.length; i++) {
          Schema.Field f = r.getSchema().getField(fs[i].name());
          Object x = f == null ? null : r.get(f.pos());
          values[i] = x == null ? null : value(fs[i].dataType(), x, isMillis(f.schema()));
        }
        return new GenericInternalRow(values);
      } else if (t instanceof ArrayType at) {
        java.util.Collection<?> items = (java.util.Collection<?>) v;
        boolean itemMillis = v instanceof GenericData.Array<?> a && isMillis(a.getSchema().getElementType());
        Object[] values = new Object[items.size()];
        int i = 0;
        for (Object x : items) {
          values[i++] = x == null ? null : value(at.elementType(), x, itemMillis);
        }
        return new GenericArrayData(values);
      } else if (t instanceof MapType mt) {
        java.util.Map<?, ?> m = (java.util.Map<?, ?>) v;
        Object[] keys = new Object[m.size()];
        Object[] values = new Object[m.size()];
        int i = 0;
        for (java.util.Map.Entry<?, ?> e : m.entrySet()) {
          keys[i] = UTF8String.fromString(e.getKey().toString());
          values[i++] = e.getValue() == null ? null : value(mt.valueType(), e.getValue(), millis);
        }
        return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
      } else if (t instanceof DecimalType dt) {
        return Decimal.apply(decimal(v, dt), dt.precision(), dt.scale());
      } else if (t.equals(DataTypes.StringType)) {
        return UTF8String.fromString(v.toString());
      } else if (t.equals(DataTypes.BinaryType)) {
        ByteBuffer b = ((ByteBuffer) v).duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
      } else if (t.equals(DataTypes.TimestampType)) {
        if (v instanceof java.time.Instant i) {
          return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1_000);
        }
        return millis ? Math.multiplyExact(((Number) v).longValue(), 1000L) : ((Number) v).longValue();
      } else if (t.equals(DataTypes.DateType) && v instanceof java.time.LocalDate d) {
        return (int) d.toEpochDay();
      }
      return v;
    }
  }
}
