package dev.sluice.tools.records;

import java.util.List;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;

/** Small schema queries shared by the readers and writers. */
final class Schemas {
  private Schemas() {
  }

  /** True for a union with a null branch, or the null type itself. */
  static boolean isNullable(Schema schema) {
    if (schema.getType() == Schema.Type.NULL) {
      return true;
    }
    if (schema.getType() != Schema.Type.UNION) {
      return false;
    }
    for (Schema branch : schema.getTypes()) {
      if (branch.getType() == Schema.Type.NULL) {
        return true;
      }
    }
    return false;
  }

  /** The only non-null branch of a union {@code [null, X]} or {@code [X, null]}; else null. */
  static Schema singleNonNull(Schema schema) {
    if (schema.getType() != Schema.Type.UNION) {
      return null;
    }
    List<Schema> types = schema.getTypes();
    if (types.size() != 2) {
      return null;
    }
    if (types.get(0).getType() == Schema.Type.NULL) {
      return types.get(1);
    }
    if (types.get(1).getType() == Schema.Type.NULL) {
      return types.get(0);
    }
    return null;
  }

  /** The schema with a nullable two-branch union unwrapped; any other schema as is. */
  static Schema unwrapNullable(Schema schema) {
    Schema single = singleNonNull(schema);
    return single == null ? schema : single;
  }

  /** The logical type name, or null when the schema has none. */
  static String logicalName(Schema schema) {
    LogicalType lt = schema.getLogicalType();
    return lt == null ? null : lt.getName();
  }

  /** True for records, arrays and maps (and unions holding one): values that need JSON text in a CSV cell. */
  static boolean isComplex(Schema schema) {
    switch (schema.getType()) {
      case RECORD:
      case ARRAY:
      case MAP:
        return true;
      case UNION:
        for (Schema branch : schema.getTypes()) {
          if (isComplex(branch)) {
            return true;
          }
        }
        return false;
      default:
        return false;
    }
  }
}
