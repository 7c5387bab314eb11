package dev.sluice.internal.basefile;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;

/**
 * Hudi's meta columns, which lead every base file and log record schema. Each is
 * {@code {"name":..,"type":["null","string"],"doc":"","default":null}}.
 */
public final class MetaFields {
  /** Instant of the commit that last inserted or updated the record. */
  public static final String COMMIT_TIME = "_hoodie_commit_time";
  /** {@code <instant>_<partitionId>_<index>}, see {@link #seqNo}. */
  public static final String COMMIT_SEQNO = "_hoodie_commit_seqno";
  /** The record key. */
  public static final String RECORD_KEY = "_hoodie_record_key";
  /** Relative partition path. */
  public static final String PARTITION_PATH = "_hoodie_partition_path";
  /** Base file name of the file holding the row (file id in log records). */
  public static final String FILE_NAME = "_hoodie_file_name";
  /** Optional sixth meta column, written only with operation metadata (CDC); never added by Sluice. */
  public static final String OPERATION = "_hoodie_operation";
  /** A user field that marks a record as a delete when true (not a meta column). */
  public static final String IS_DELETED = "_hoodie_is_deleted";

  /** The five meta columns, in file order. */
  public static final List<String> ALL = List.of(COMMIT_TIME, COMMIT_SEQNO, RECORD_KEY, PARTITION_PATH, FILE_NAME);
  /** Meta fields whose value differs in every row of a base file (so dictionary encoding cannot pay). */
  public static final List<String> UNIQUE_PER_ROW = List.of(COMMIT_SEQNO, RECORD_KEY);

  private static final Set<String> ALL_WITH_OPERATION = Set.of(COMMIT_TIME, COMMIT_SEQNO, RECORD_KEY,
      PARTITION_PATH, FILE_NAME, OPERATION);

  private static final Schema META_FIELD_SCHEMA = Schema.createUnion(Schema.create(Schema.Type.NULL),
      Schema.create(Schema.Type.STRING));

  private MetaFields() {
  }

  /** True for the five meta columns and {@code _hoodie_operation}. */
  public static boolean isMetaField(String name) {
    return ALL_WITH_OPERATION.contains(name);
  }

  /**
   * The schema Hudi writes: the five meta fields, then the user's fields (meta fields already in the user schema,
   * and {@code _hoodie_operation}, are dropped from their old place), keeping the record's name, namespace, doc
   * and properties and each field's doc, default and properties. Idempotent.
   */
  public static Schema withMetaFields(Schema userSchema) {
    requireRecord(userSchema);
    List<Schema.Field> fields = new ArrayList<>(userSchema.getFields().size() + ALL.size());
    for (String name : ALL) {
      fields.add(new Schema.Field(name, META_FIELD_SCHEMA, "", JsonProperties.NULL_VALUE));
    }
    for (Schema.Field f : userSchema.getFields()) {
      if (!isMetaField(f.name())) {
        fields.add(copy(f));
      }
    }
    return record(userSchema, fields);
  }

  /** The user's schema: {@code schema} without the meta fields and {@code _hoodie_operation}. */
  public static Schema withoutMetaFields(Schema schema) {
    requireRecord(schema);
    List<Schema.Field> fields = new ArrayList<>(schema.getFields().size());
    for (Schema.Field f : schema.getFields()) {
      if (!isMetaField(f.name())) {
        fields.add(copy(f));
      }
    }
    return record(schema, fields);
  }

  /** The commit sequence number {@code <instant>_<partitionId>_<index>}. */
  public static String seqNo(String instant, int partitionId, long index) {
    return instant + "_" + partitionId + "_" + index;
  }

  private static void requireRecord(Schema schema) {
    if (schema.getType() != Schema.Type.RECORD) {
      throw new IllegalArgumentException("a table schema must be an Avro record, not " + schema.getType());
    }
  }

  private static Schema.Field copy(Schema.Field f) {
    // Hudi copies name, schema, doc, default and properties (not aliases or order); so do we
    Schema.Field n = new Schema.Field(f.name(), f.schema(), f.doc(), f.defaultVal());
    for (Map.Entry<String, Object> p : f.getObjectProps().entrySet()) {
      n.addProp(p.getKey(), p.getValue());
    }
    return n;
  }

  private static Schema record(Schema like, List<Schema.Field> fields) {
    Schema out = Schema.createRecord(like.getName(), like.getDoc(), like.getNamespace(), false);
    for (Map.Entry<String, Object> p : like.getObjectProps().entrySet()) {
      out.addProp(p.getKey(), p.getValue());
    }
    out.setFields(fields);
    return out;
  }
}
