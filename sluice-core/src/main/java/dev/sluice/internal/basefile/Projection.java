package dev.sluice.internal.basefile;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Maps an Avro read schema onto the file's Parquet schema: the requested Parquet schema holds only the columns the
 * read schema names, so only those are decoded. Types are taken from the file (never re-derived from Avro), so
 * files with either list layout read the same.
 */
final class Projection {
  private Projection() {
  }

  /** The first top-level field of {@code projection} that the file lacks, or null if it has them all. */
  static String missingField(Schema projection, MessageType file) {
    for (Schema.Field f : projection.getFields()) {
      if (!file.containsField(f.name())) {
        return f.name();
      }
    }
    return null;
  }

  /** The file's schema reduced to the fields of {@code projection}, in the projection's order. */
  static MessageType requested(MessageType file, Schema projection) {
    List<Type> fields = new ArrayList<>(projection.getFields().size());
    for (Schema.Field f : projection.getFields()) {
      fields.add(prune(file.getType(f.name()), f.schema()));
    }
    return new MessageType(file.getName(), fields);
  }

  /** Nested records are reduced to the fields the Avro record asks for; lists, maps and unions stay whole. */
  private static Type prune(Type fileType, Schema avro) {
    Schema record = nonNullRecord(avro);
    if (record == null || fileType.isPrimitive() || fileType.getLogicalTypeAnnotation() != null) {
      return fileType;
    }
    GroupType group = fileType.asGroupType();
    List<Type> kept = new ArrayList<>();
    for (Schema.Field f : record.getFields()) {
      if (group.containsField(f.name())) {
        kept.add(prune(group.getType(f.name()), f.schema()));
      }
    }
    if (kept.isEmpty()) {
      return fileType;
    }
    return group.withNewFields(kept);
  }

  private static Schema nonNullRecord(Schema s) {
    if (s.getType() == Schema.Type.RECORD) {
      return s;
    }
    if (s.getType() == Schema.Type.UNION && s.getTypes().size() == 2) {
      for (Schema t : s.getTypes()) {
        if (t.getType() == Schema.Type.RECORD) {
          return s.getTypes().stream().anyMatch(x -> x.getType() == Schema.Type.NULL) ? t : null;
        }
      }
    }
    return null;
  }
}
