package dev.sluice.bench.spark;

import dev.sluice.bench.data.BenchRecords;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The benchmark's records as Spark rows: {@link BenchRecords#SCHEMA} as a Spark schema (a nullable union becomes a
 * nullable column, the nested record a struct, the array an array) and each record as a row of it. Spark's own
 * {@code spark-avro} is not on every worker's class path, and the schema has only these few types.
 */
public final class SparkBenchRows {
  /** {@link BenchRecords#SCHEMA} as Spark's schema. */
  public static final StructType SCHEMA = (StructType) type(BenchRecords.SCHEMA);

  private SparkBenchRows() {
  }

  /** The records as rows of {@link #SCHEMA}. */
  public static List<Row> rows(List<GenericRecord> records) {
    List<Row> out = new ArrayList<>(records.size());
    for (GenericRecord r : records) {
      out.add((Row) value(BenchRecords.SCHEMA, r));
    }
    return out;
  }

  private static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    return s.getTypes().stream().filter(b -> b.getType() != Schema.Type.NULL).findFirst().orElseThrow();
  }

  private static DataType type(Schema schema) {
    Schema s = nonNull(schema);
    return switch (s.getType()) {
      case STRING -> DataTypes.StringType;
      case INT -> DataTypes.IntegerType;
      case LONG -> DataTypes.LongType;
      case FLOAT -> DataTypes.FloatType;
      case DOUBLE -> DataTypes.DoubleType;
      case BOOLEAN -> DataTypes.BooleanType;
      case ARRAY -> DataTypes.createArrayType(type(s.getElementType()), false);
      case RECORD -> {
        List<StructField> fields = new ArrayList<>();
        for (Schema.Field f : s.getFields()) {
          fields.add(DataTypes.createStructField(f.name(), type(f.schema()), f.schema().getType() == Schema.Type.UNION));
        }
        yield DataTypes.createStructType(fields);
      }
      default -> throw new IllegalArgumentException("no Spark type for the bench schema's " + s);
    };
  }

  private static Object value(Schema schema, Object v) {
    if (v == null) {
      return null;
    }
    Schema s = nonNull(schema);
    return switch (s.getType()) {
      case STRING -> v.toString();
      case ARRAY -> {
        List<Object> out = new ArrayList<>();
        for (Object e : (Collection<?>) v) {
          out.add(value(s.getElementType(), e));
        }
        // a Scala Seq, as a Row holds an array: a Dataset encoder's serializer takes nothing else (a java.util.List
        // passes only through createDataFrame's converters of a local list)
        yield scala.collection.JavaConverters.asScalaBuffer(out).toList();
      }
      case RECORD -> {
        GenericRecord r = (GenericRecord) v;
        Object[] fields = new Object[s.getFields().size()];
        for (Schema.Field f : s.getFields()) {
          fields[f.pos()] = value(f.schema(), r.get(f.pos()));
        }
        yield RowFactory.create(fields);
      }
      default -> v;
    };
  }
}
