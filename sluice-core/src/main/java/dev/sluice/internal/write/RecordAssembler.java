package dev.sluice.internal.write;

import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.schema.SchemaEvolution;
import dev.sluice.internal.basefile.MetaFields;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Builds base-file rows: the five meta fields followed by the user's fields, and rewrites stored rows into the
 * current writer schema when the file was written with an older one.
 */
public final class RecordAssembler {
  private static final int META = MetaFields.ALL.size();

  private final Schema writerSchema;
  private final int userFields;
  /**
   * The last stored-row schema instance found equal to the writer schema: rows read from one file share an
   * instance, and a deep schema comparison per row cost more than a tenth of a merge.
   */
  private Schema sameAsWriter;

  /** Rows of {@code writerSchema} (meta fields first). */
  public RecordAssembler(Schema writerSchema) {
    this.writerSchema = writerSchema;
    this.userFields = writerSchema.getFields().size() - META;
  }

  /** A new row for an incoming record (its data in the user schema). */
  GenericRecord row(WriteRecord r, String instant, String seqNo, String fileName) {
    GenericData.Record out = new GenericData.Record(writerSchema);
    out.put(0, instant);
    out.put(1, seqNo);
    out.put(2, r.key());
    out.put(3, r.partitionPath());
    out.put(4, fileName);
    GenericRecord data = r.data();
    for (int i = 0; i < userFields; i++) {
      out.put(META + i, data.get(i));
    }
    return out;
  }

  /**
   * A stored row carried into a new file: meta fields kept (commit time and seqno preserved, as Hudi does),
   * only the file name changes. Rows of another schema are rewritten by field name.
   */
  public GenericRecord carry(GenericRecord stored, String fileName) {
    GenericRecord out = stored;
    Schema s = stored.getSchema();
    if (s != writerSchema && s != sameAsWriter) {
      if (s.equals(writerSchema)) {
        sameAsWriter = s;
      } else {
        out = rewrite(stored);
      }
    }
    out.put(4, fileName);
    return out;
  }

  private GenericRecord rewrite(GenericRecord stored) {
    GenericData.Record out = new GenericData.Record(writerSchema);
    List<Schema.Field> fields = writerSchema.getFields();
    Schema storedSchema = stored.getSchema();
    for (Schema.Field f : fields) {
      Schema.Field old = storedSchema.getField(f.name());
      if (old != null) {
        out.put(f.pos(), SchemaEvolution.promote(stored.get(old.pos()), f.schema()));
      } else {
        out.put(f.pos(), f.hasDefaultValue() ? GenericData.get().getDefaultValue(f) : null);
      }
    }
    return out;
  }
}
