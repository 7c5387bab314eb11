package dev.sluice.internal.timeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.internal.timeline.avro.AvroContainer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Commit metadata of timeline layout 2: an Avro container of one {@code HoodieCommitMetadata} (or
 * {@code HoodieReplaceCommitMetadata}) record, read in its own writer schema and by field name, the way Hudi 1.x
 * converts it back to its Java object. The record becomes the same tree the JSON of layout 1 parses to, without its
 * null fields (an Avro write stat has every field, a JSON one only those its class has), so one reader serves both.
 *
 * <p>Writing uses the schemas compiled into Hudi 1.1.1 (the same in 1.0.2), kept as resources next to this class, and
 * fills the fields Hudi 1.x's writers fill: a field its Java write stat does not have ({@code totalLogFiles},
 * {@code numUpdates}, {@code totalLogReadTimeMs}) stays null, and so does the record's {@code version}, as Hudi's
 * conversion from its Java object leaves it.
 */
final class CommitMetadataAvro {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final Schema COMMIT = AvroContainer.resourceSchema(CommitMetadataAvro.class, "CommitMetadataV2");
  private static final Schema REPLACE = AvroContainer.resourceSchema(CommitMetadataAvro.class,
      "ReplaceCommitMetadataV2");

  private CommitMetadataAvro() {
  }

  /** The Avro container of {@code md}: a replace commit's schema if it names replaced file groups. */
  static byte[] write(CommitMetadata md) {
    Schema schema = md.partitionToReplaceFileIds().isPresent() ? REPLACE : COMMIT;
    GenericRecord r = new GenericData.Record(schema);
    Map<String, List<GenericRecord>> parts = new LinkedHashMap<>();
    Schema statRecord = unionBranch(schema.getField("partitionToWriteStats").schema()).getValueType()
        .getElementType();
    md.partitionToWriteStats().forEach((partition, stats) -> {
      if (partition != null) {
        List<GenericRecord> list = new ArrayList<>();
        stats.forEach(s -> list.add(stat(statRecord, s)));
        parts.put(partition, list);
      }
    });
    r.put("partitionToWriteStats", parts);
    r.put("compacted", md.compacted());
    r.put("extraMetadata", new LinkedHashMap<>(md.extraMetadata()));
    r.put("version", null);
    r.put("operationType", md.operationType().name());
    md.partitionToReplaceFileIds().ifPresent(m -> r.put("partitionToReplaceFileIds", new LinkedHashMap<>(m)));
    return AvroContainer.write(r);
  }

  private static GenericRecord stat(Schema schema, WriteStat s) {
    GenericRecord o = new GenericData.Record(schema);
    o.put("fileId", s.fileId());
    o.put("path", s.path().orElse(null));
    o.put("prevCommit", s.prevCommit());
    o.put("numWrites", s.numWrites());
    o.put("numDeletes", s.numDeletes());
    o.put("numUpdateWrites", s.numUpdateWrites());
    o.put("totalWriteBytes", s.totalWriteBytes());
    o.put("totalWriteErrors", s.totalWriteErrors());
    o.put("partitionPath", s.partitionPath());
    o.put("totalLogRecords", s.totalLogRecords());
    o.put("totalUpdatedRecordsCompacted", s.totalUpdatedRecordsCompacted());
    o.put("numInserts", s.numInserts());
    o.put("totalLogBlocks", s.totalLogBlocks());
    o.put("totalCorruptLogBlock", s.totalCorruptLogBlock());
    o.put("totalRollbackBlocks", s.totalRollbackBlocks());
    o.put("fileSizeInBytes", s.fileSizeInBytes());
    if (s.delta()) {
      o.put("logVersion", s.logVersion());
      o.put("logOffset", s.logOffset());
      o.put("baseFile", s.baseFile());
      o.put("logFiles", new ArrayList<>(s.logFiles()));
    }
    o.put("cdcStats", s.cdcStats().map(LinkedHashMap::new).orElse(null));
    o.put("prevBaseFile", s.prevBaseFile().orElse(null));
    o.put("minEventTime", s.minEventTime().orElse(null));
    o.put("maxEventTime", s.maxEventTime().orElse(null));
    s.runtimeStats().ifPresent(rt -> {
      GenericRecord t = new GenericData.Record(unionBranch(schema.getField("runtimeStats").schema()));
      t.put("totalScanTime", rt.totalScanTime());
      t.put("totalCreateTime", rt.totalCreateTime());
      t.put("totalUpsertTime", rt.totalUpsertTime());
      o.put("runtimeStats", t);
    });
    o.put("totalLogFilesCompacted", s.totalLogFilesCompacted());
    o.put("totalLogSizeCompacted", s.totalLogSizeCompacted());
    o.put("tempPath", s.tempPath().orElse(null));
    return o;
  }

  /** The non-null branch of a {@code ["null", T]} union. */
  private static Schema unionBranch(Schema union) {
    return union.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElseThrow();
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
