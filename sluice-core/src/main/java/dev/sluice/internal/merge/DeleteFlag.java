package dev.sluice.internal.merge;

import dev.sluice.internal.basefile.MetaFields;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads a record's Avro delete marker ({@code _hoodie_is_deleted = true}). The field's position is resolved once
 * for the schema the records are expected in: merging checks every merged log record, and a field lookup by name
 * per record was a tenth of a snapshot read. Records of another schema are resolved one by one. Immutable.
 */
public final class DeleteFlag {
  private final Schema schema;
  private final int position;

  private DeleteFlag(Schema schema) {
    this.schema = schema;
    this.position = position(schema);
  }

  /** A reader for records expected in {@code schema}. */
  public static DeleteFlag of(Schema schema) {
    return new DeleteFlag(schema);
  }

  /** True if {@code r} has {@code _hoodie_is_deleted} and it is true. */
  public boolean isSet(GenericRecord r) {
    Schema s = r.getSchema();
    int p = s == schema ? position : position(s);
    return p >= 0 && Boolean.TRUE.equals(r.get(p));
  }

  private static int position(Schema s) {
    Schema.Field f = s.getField(MetaFields.IS_DELETED);
    return f == null ? -1 : f.pos();
  }
}
