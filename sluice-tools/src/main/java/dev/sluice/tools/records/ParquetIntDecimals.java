package dev.sluice.tools.records;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * parquet-avro reads a Parquet {@code DECIMAL} stored in INT32/INT64 (the default of Spark for precision up to 18)
 * as a plain Avro int or long, dropping the scale: 123.45 arrives as 12345. This walks the Parquet file schema
 * beside the Avro schema of the records and returns a copy of the Avro schema whose such int/long nodes carry the
 * decimal's scale in the {@value #SCALE_PROP} property, so {@link ScalarResolver} reads them as decimals.
 */
final class ParquetIntDecimals {
  /** Property on an int/long schema: the scale of the unscaled decimal it holds. */
  static final String SCALE_PROP = "sluice.unscaledDecimalScale";

  private ParquetIntDecimals() {
  }

  /** True when the Parquet schema has an INT32/INT64 decimal anywhere. */
  static boolean present(Type type) {
    if (type.isPrimitive()) {
      return isIntDecimal(type.asPrimitiveType());
    }
    for (Type t : type.asGroupType().getFields()) {
      if (present(t)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isIntDecimal(PrimitiveType p) {
    PrimitiveType.PrimitiveTypeName n = p.getPrimitiveTypeName();
    return p.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation
        && (n == PrimitiveType.PrimitiveTypeName.INT32 || n == PrimitiveType.PrimitiveTypeName.INT64);
  }

  /** The annotated copy of {@code avro}, the schema parquet-avro made for {@code parquet}. */
  static Schema annotate(Schema avro, Type parquet) {
    switch (avro.getType()) {
      case UNION: {
        List<Schema> branches = new ArrayList<>();
        for (Schema b : avro.getTypes()) {
          branches.add(b.getType() == Schema.Type.NULL ? b : annotate(b, parquet));
        }
        return Schema.createUnion(branches);
      }
      case RECORD: {
        if (parquet.isPrimitive()) {
          return avro;
        }
        GroupType group = parquet.asGroupType();
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : avro.getFields()) {
          Schema s = group.containsField(f.name()) ? annotate(f.schema(), group.getType(f.name())) : f.schema();
          fields.add(new Schema.Field(f, s));
        }
        Schema copy = Schema.createRecord(avro.getName(), avro.getDoc(), avro.getNamespace(), avro.isError(), fields);
        avro.getObjectProps().forEach(copy::addProp);
        return copy;
      }
      case ARRAY: {
        Type element = listElement(parquet);
        return element == null ? avro : Schema.createArray(annotate(avro.getElementType(), element));
      }
      case MAP: {
        Type value = mapValue(parquet);
        return value == null ? avro : Schema.createMap(annotate(avro.getValueType(), value));
      }
      case INT:
      case LONG:
        if (parquet.isPrimitive() && isIntDecimal(parquet.asPrimitiveType()) && avro.getLogicalType() == null) {
          Schema copy = Schema.create(avro.getType());
          int scale = ((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) parquet.getLogicalTypeAnnotation()).getScale();
          copy.addProp(SCALE_PROP, scale);
          return copy;
        }
        return avro;
      default:
        return avro;
    }
  }

  /** The element type of a Parquet list (three-level, or the legacy two-level and repeated-field forms). */
  private static Type listElement(Type parquet) {
    if (parquet.isPrimitive()) {
      // A bare repeated primitive field is a list of that primitive.
      return parquet.isRepetition(Type.Repetition.REPEATED) ? parquet : null;
    }
    GroupType group = parquet.asGroupType();
    if (group.isRepetition(Type.Repetition.REPEATED) && group.getLogicalTypeAnnotation() == null) {
      return group;
    }
    if (group.getFieldCount() != 1) {
      return null;
    }
    Type repeated = group.getType(0);
    if (repeated.isPrimitive() || repeated.asGroupType().getFieldCount() != 1) {
      return repeated;
    }
    return repeated.asGroupType().getType(0);
  }

  private static Type mapValue(Type parquet) {
    if (parquet.isPrimitive() || parquet.asGroupType().getFieldCount() != 1) {
      return null;
    }
    Type kv = parquet.asGroupType().getType(0);
    if (kv.isPrimitive() || kv.asGroupType().getFieldCount() != 2) {
      return null;
    }
    return kv.asGroupType().getType(1);
  }
}
