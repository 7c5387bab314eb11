package dev.sluice.internal.archive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.internal.timeline.avro.AvroContainer;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Timeline state files as {@code HoodieArchivedMetaEntry} records, as Hudi 0.15's
 * {@code MetadataConversionUtils.createMetaWrapper} builds them: time, action, state, the state file's modification
 * time, and the file's content in the field for its action (commit JSON converted to the Avro
 * {@code HoodieCommitMetadata}, Avro plans and metadata decoded into their nested records).
 */
final class ArchiveEntries {
  /** The compiled {@code HoodieArchivedMetaEntry} schema of hudi-common 0.15.0. */
  static final Schema SCHEMA = AvroContainer.resourceSchema(ArchiveEntries.class, "ArchivedMetaEntry");
  /** {@code HoodieRollingStatMetadata.ROLLING_STAT_METADATA_KEY}: Hudi blanks it in archived commit metadata. */
  static final String ROLLING_STAT = "ROLLING_STAT";

  private static final ObjectMapper JSON = new ObjectMapper();

  private ArchiveEntries() {
  }

  /**
   * The entry of one state file.
   *
   * @param instant the state file's instant (a completed compaction is its commit)
   * @param content the file's bytes
   * @param stateTransitionTime the file's modification time as an instant time
   * @param where the file's path, for errors
   */
  static GenericRecord entry(Instant instant, byte[] content, String stateTransitionTime, String where) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("commitTime", instant.time());
    r.put("actionState", instant.state().name());
    r.put("stateTransitionTime", stateTransitionTime);
    r.put("actionType", instant.action().id());
    if (instant.isCompleted() && content.length == 0) {
      // a completed file left empty by a crash is archived without content (createMetaWrapperForEmptyInstant)
      return r;
    }
    switch (instant.action()) {
      case CLEAN -> r.put(instant.isCompleted() ? "hoodieCleanMetadata" : "hoodieCleanerPlan",
          decode(r, instant.isCompleted() ? "hoodieCleanMetadata" : "hoodieCleanerPlan", content, where));
      case COMMIT, DELTACOMMIT -> r.put("hoodieCommitMetadata", commitMetadata(field(r, "hoodieCommitMetadata"),
          content, false, where));
      case REPLACECOMMIT -> {
        if (instant.isCompleted()) {
          r.put("hoodieReplaceCommitMetadata", commitMetadata(field(r, "hoodieReplaceCommitMetadata"), content, true,
              where));
        } else if (instant.isInflight() && content.length > 0) {
          r.put("HoodieInflightReplaceMetadata", commitMetadata(field(r, "HoodieInflightReplaceMetadata"), content,
              false, where));
        } else if (content.length > 0) {
          r.put("hoodieRequestedReplaceMetadata", decode(r, "hoodieRequestedReplaceMetadata", content, where));
        }
      }
      case ROLLBACK -> {
        if (instant.isCompleted()) {
          r.put("hoodieRollbackMetadata", decode(r, "hoodieRollbackMetadata", content, where));
        }
      }
      case SAVEPOINT -> {
        if (content.length > 0) {
          r.put("hoodieSavePointMetadata", decode(r, "hoodieSavePointMetadata", content, where));
        }
      }
      case COMPACTION, LOGCOMPACTION -> {
        if (instant.isRequested()) {
          r.put("hoodieCompactionPlan", decode(r, "hoodieCompactionPlan", content, where));
        }
      }
      default -> throw Errors.internal("archiving " + instant.action().id() + " instants is not supported", null);
    }
    return r;
  }

  /** True for the actions {@link #entry} converts (Hudi 0.15 archives no others). */
  static boolean archivable(Action action) {
    return action != Action.RESTORE && action != Action.INDEXING;
  }

  private static GenericRecord decode(GenericRecord entry, String field, byte[] content, String where) {
    return AvroContainer.read(content, field(entry, field), where).orElse(null);
  }

  /** The record schema of a {@code ["null", record]} field of the entry. */
  static Schema field(GenericRecord entry, String name) {
    for (Schema s : entry.getSchema().getField(name).schema().getTypes()) {
      if (s.getType() == Schema.Type.RECORD) {
        return s;
      }
    }
    throw Errors.internal("archived entry field " + name + " is not a record union", null);
  }

  /**
   * Commit metadata JSON as the Avro {@code HoodieCommitMetadata} (or {@code HoodieReplaceCommitMetadata}), the way
   * Hudi converts its Java object: write stats field by field, extra metadata with {@code ROLLING_STAT} blanked,
   * {@code COMPACT} as the operation of compaction commits, {@code version} left unset. Empty content is an empty
   * commit (Hudi reads an empty commit file so).
   */
  static GenericRecord commitMetadata(Schema schema, byte[] content, boolean replace, String where) {
    JsonNode root;
    try {
      root = content.length == 0 ? JSON.createObjectNode() : JSON.readTree(new String(content, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw Errors.badTable(where, "the commit metadata is not valid JSON (" + e.getMessage() + ")",
          "Restore the file from a copy.", e);
    }
    GenericRecord md = new GenericData.Record(schema);
    Schema statSchema = recordOf(recordOf(schema.getField("partitionToWriteStats").schema()).getValueType()
        .getElementType());
    Map<String, List<GenericRecord>> parts = new LinkedHashMap<>();
    JsonNode stats = root.path("partitionToWriteStats");
    for (Iterator<Map.Entry<String, JsonNode>> it = stats.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      List<GenericRecord> list = new ArrayList<>();
      for (JsonNode s : e.getValue()) {
        list.add(writeStat(statSchema, s));
      }
      parts.put(e.getKey(), list);
    }
    md.put("partitionToWriteStats", parts);
    Map<String, String> extra = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.path("extraMetadata").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isNull()) {
        extra.put(e.getKey(), e.getValue().asText());
      }
    }
    extra.put(ROLLING_STAT, "");
    md.put("extraMetadata", extra);
    String op = root.path("operationType").isTextual() ? root.path("operationType").asText() : "UNKNOWN";
    md.put("operationType", root.path("compacted").asBoolean(false) ? "COMPACT" : op);
    if (replace) {
      Map<String, List<String>> replaced = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = root.path("partitionToReplaceFileIds").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        List<String> ids = new ArrayList<>();
        e.getValue().forEach(id -> ids.add(id.asText()));
        replaced.put(e.getKey(), ids);
      }
      md.put("partitionToReplaceFileIds", replaced);
    }
    return md;
  }

  private static GenericRecord writeStat(Schema schema, JsonNode json) {
    GenericRecord s = new GenericData.Record(schema);
    for (Schema.Field f : schema.getFields()) {
      JsonNode v = json.get(f.name());
      if (v == null || v.isNull()) {
        continue;
      }
      Optional<Schema.Type> type = recordOrPrimitive(f.schema());
      if (type.isPresent() && type.get() == Schema.Type.LONG && v.canConvertToLong()) {
        s.put(f.name(), v.asLong());
      } else if (type.isPresent() && type.get() == Schema.Type.STRING) {
        s.put(f.name(), v.asText());
      }
    }
    return s;
  }

  private static Optional<Schema.Type> recordOrPrimitive(Schema union) {
    for (Schema s : union.getTypes()) {
      if (s.getType() != Schema.Type.NULL) {
        return Optional.of(s.getType());
      }
    }
    return Optional.empty();
  }

  private static Schema recordOf(Schema union) {
    if (union.getType() != Schema.Type.UNION) {
      return union;
    }
    for (Schema s : union.getTypes()) {
      if (s.getType() != Schema.Type.NULL) {
        return s;
      }
    }
    throw Errors.internal("union without a non-null member: " + union, null);
  }
}
