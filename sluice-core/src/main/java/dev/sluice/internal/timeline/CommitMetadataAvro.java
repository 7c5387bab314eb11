package dev.sluice.internal.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.internal.timeline.avro.AvroContainer;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Commit metadata of timeline layout 2: an Avro container of one {@code HoodieCommitMetadata} (or
 * {@code HoodieReplaceCommitMetadata}) record, read in its own writer schema and by field name, the way Hudi 1.x
 * converts it back to its Java object. The record becomes the same tree the JSON of layout 1 parses to, without its
 * null fields (an Avro write stat has every field, a JSON one only those its class has), so one reader serves both.
 */
final class CommitMetadataAvro {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private CommitMetadataAvro() {
  }

  static CommitMetadata read(byte[] content, String where) {
    Optional<GenericRecord> record = AvroContainer.read(content, where);
    if (record.isEmpty()) {
      // Hudi reads an empty commit file as empty metadata (requested and some inflight files are empty)
      return CommitMetadata.empty();
    }
    return CommitMetadataJson.fromTree(tree(record.get()), where);
  }

  private static JsonNode tree(Object value) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof GenericRecord r) {
      ObjectNode o = NODES.objectNode();
      for (Schema.Field f : r.getSchema().getFields()) {
        Object v = r.get(f.pos());
        if (v != null) {
          o.set(f.name(), tree(v));
        }
      }
      return o;
    }
    if (value instanceof Map<?, ?> m) {
      ObjectNode o = NODES.objectNode();
      m.forEach((k, v) -> o.set(k.toString(), tree(v)));
      return o;
    }
    if (value instanceof Iterable<?> list) {
      ArrayNode a = NODES.arrayNode();
      list.forEach(v -> a.add(tree(v)));
      return a;
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof Integer i) {
      return NODES.numberNode(i);
    }
    if (value instanceof Long l) {
      return NODES.numberNode(l);
    }
    if (value instanceof Float f) {
      return NODES.numberNode(f);
    }
    if (value instanceof Double d) {
      return NODES.numberNode(d);
    }
    if (value instanceof ByteBuffer b) {
      byte[] bytes = new byte[b.remaining()];
      b.duplicate().get(bytes);
      return NODES.binaryNode(bytes);
    }
    // strings (Utf8), enums and fixed values by their text
    return NODES.textNode(value.toString());
  }
}
