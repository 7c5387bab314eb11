package dev.sluice.internal.basefile;

import java.util.List;
import org.apache.avro.Schema;

/**
 * Which Avro schemas parquet-avro maps to one Parquet field: the row assembler (reading) and the row shredder
 * (writing) compile their trees by the same rule, so it lives once.
 */
final class OptionalSchemas {
  private OptionalSchemas() {
  }

  /**
   * The value schema of an optional field: the non-null branch of a {@code [null, T]} union (an OPTIONAL field of
   * {@code T}), the schema itself if it is not a union (a REQUIRED field), null for any other union (which has no
   * such field: the caller leaves the schema to parquet-avro).
   */
  static Schema nonNull(Schema s) {
    if (s.getType() != Schema.Type.UNION) {
      return s;
    }
    List<Schema> types = s.getTypes();
    if (types.size() == 2) {
      if (types.get(0).getType() == Schema.Type.NULL && types.get(1).getType() != Schema.Type.NULL) {
        return types.get(1);
      }
      if (types.get(1).getType() == Schema.Type.NULL && types.get(0).getType() != Schema.Type.NULL) {
        return types.get(0);
      }
    }
    return null;
  }
}
