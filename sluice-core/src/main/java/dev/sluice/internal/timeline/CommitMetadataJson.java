package dev.sluice.internal.timeline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.internal.error.Errors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Commit metadata to and from Hudi's JSON (field order of the Hudi classes, Jackson's pretty printer). */
final class CommitMetadataJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * The mapper, made on first use of the JSON text: layout 2's Avro metadata only builds and reads trees (through
   * {@link #fromTree}), and in a cold CLI process making an ObjectMapper loads ~250 classes, tens of milliseconds
   * of every version-9 command.
   */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
    // Hudi writes with writerWithDefaultPrettyPrinter(); pin the line feed so output does not depend on the OS
    static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter()
        .withObjectIndenter(new DefaultIndenter("  ", "\n")));
  }

  private CommitMetadataJson() {
  }

  static byte[] write(CommitMetadata md) {
    ObjectNode root = NODES.objectNode();
    ObjectNode parts = root.putObject("partitionToWriteStats");
    md.partitionToWriteStats().forEach((partition, stats) -> {
      ArrayNode arr = parts.putArray(partition);
      stats.forEach(s -> arr.add(stat(s)));
    });
    root.put("compacted", md.compacted());
    ObjectNode extra = root.putObject("extraMetadata");
    md.extraMetadata().forEach(extra::put);
    root.put("operationType", md.operationType().name());
    md.partitionToReplaceFileIds().ifPresent(m -> {
      ObjectNode rep = root.putObject("partitionToReplaceFileIds");
      m.forEach((partition, ids) -> {
        ArrayNode arr = rep.putArray(partition);
        ids.forEach(arr::add);
      });
    });
    try {
      return Json.WRITER.writeValueAsString(root).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw Errors.internal("serializing commit metadata failed", e);
    }
  }

  private static ObjectNode stat(WriteStat s) {
    ObjectNode o = NODES.objectNode();
    o.put("fileId", s.fileId());
    putOpt(o, "path", s.path());
    if (s.cdcStats().isPresent()) {
      ObjectNode cdc = o.putObject("cdcStats");
      s.cdcStats().get().forEach(cdc::put);
    } else {
      o.putNull("cdcStats");
    }
    o.put("prevCommit", s.prevCommit());
    o.put("numWrites", s.numWrites());
    o.put("numDeletes", s.numDeletes());
    o.put("numUpdateWrites", s.numUpdateWrites());
    o.put("numInserts", s.numInserts());
    o.put("totalWriteBytes", s.totalWriteBytes());
    o.put("totalWriteErrors", s.totalWriteErrors());
    putOpt(o, "tempPath", s.tempPath());
    o.put("partitionPath", s.partitionPath());
    o.put("totalLogRecords", s.totalLogRecords());
    o.put("totalLogFilesCompacted", s.totalLogFilesCompacted());
    o.put("totalLogSizeCompacted", s.totalLogSizeCompacted());
    o.put("totalUpdatedRecordsCompacted", s.totalUpdatedRecordsCompacted());
    o.put("totalLogBlocks", s.totalLogBlocks());
    o.put("totalCorruptLogBlock", s.totalCorruptLogBlock());
    o.put("totalRollbackBlocks", s.totalRollbackBlocks());
    o.put("fileSizeInBytes", s.fileSizeInBytes());
    if (s.minEventTime().isPresent()) {
      o.put("minEventTime", s.minEventTime().get());
    } else {
      o.putNull("minEventTime");
    }
    if (s.maxEventTime().isPresent()) {
      o.put("maxEventTime", s.maxEventTime().get());
    } else {
      o.putNull("maxEventTime");
    }
    if (s.runtimeStats().isPresent()) {
      ObjectNode rt = o.putObject("runtimeStats");
      rt.put("totalScanTime", s.runtimeStats().get().totalScanTime());
      rt.put("totalUpsertTime", s.runtimeStats().get().totalUpsertTime());
      rt.put("totalCreateTime", s.runtimeStats().get().totalCreateTime());
    } else {
      o.putNull("runtimeStats");
    }
    if (s.delta()) {
      o.put("logVersion", s.logVersion());
      o.put("logOffset", s.logOffset());
      o.put("baseFile", s.baseFile());
      ArrayNode logs = o.putArray("logFiles");
      s.logFiles().forEach(logs::add);
      // a Hudi Option serialized field by field: an empty Option is {"val" : null}
      o.putObject("recordsStats").putNull("val");
    }
    return o;
  }

  private static void putOpt(ObjectNode o, String key, Optional<String> v) {
    if (v.isPresent()) {
      o.put(key, v.get());
    } else {
      o.putNull(key);
    }
  }

  /** What to do about damaged commit metadata: a repair rebuilds it from the files the instant wrote. */
  private static final String REBUILD = "The timeline file is damaged: 'sluice repair TABLE --apply' (Java: Table.repair) "
      + "rebuilds it from the files that instant wrote; or restore it from a copy.";

  static CommitMetadata read(byte[] json, String where) {
    if (json.length == 0 || new String(json, StandardCharsets.UTF_8).isBlank()) {
      // Hudi reads an empty commit file as empty metadata
      return CommitMetadata.empty();
    }
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw Errors.badTable(where, "the commit metadata is not valid JSON (" + e.getOriginalMessage() + ")",
          REBUILD, e);
    } catch (IOException e) {
      throw Errors.internal("reading JSON from memory failed", e);
    }
    if (root == null || !root.isObject()) {
      throw Errors.badTable(where, "the commit metadata is not a JSON object",
          REBUILD);
    }
    return fromTree(root, where);
  }

  /**
   * Commit metadata from its tree (parsed JSON, or an Avro record turned into one): fields by name, unknown ones
   * ignored, absent ones at Hudi's defaults.
   */
  static CommitMetadata fromTree(JsonNode root, String where) {
    try {
      Map<String, List<WriteStat>> parts = new LinkedHashMap<>();
      JsonNode p = root.path("partitionToWriteStats");
      for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        List<WriteStat> stats = new ArrayList<>();
        for (JsonNode s : e.getValue()) {
          stats.add(readStat(s));
        }
        parts.put(e.getKey(), stats);
      }
      Map<String, String> extra = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = root.path("extraMetadata").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        extra.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText());
      }
      extra.values().removeIf(v -> v == null);
      JsonNode op = root.get("operationType");
      WriteOperationType type = op == null || op.isNull() ? WriteOperationType.UNKNOWN : WriteOperationType.parse(op.asText());
      Optional<Map<String, List<String>>> replaced = Optional.empty();
      JsonNode rep = root.get("partitionToReplaceFileIds");
      if (rep != null && rep.isObject()) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = rep.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          List<String> ids = new ArrayList<>();
          e.getValue().forEach(n -> ids.add(n.asText()));
          m.put(e.getKey(), ids);
        }
        replaced = Optional.of(m);
      }
      return new CommitMetadata(parts, root.path("compacted").asBoolean(false), extra, type, replaced);
    } catch (RuntimeException e) {
      throw Errors.badTable(where, "the commit metadata does not have the expected structure (" + e + ")",
          REBUILD, e);
    }
  }

  private static WriteStat readStat(JsonNode s) {
    WriteStat.Builder b = WriteStat.builder()
        .fileId(text(s, "fileId").orElse(""))
        .path(text(s, "path").orElse(null))
        .prevCommit(text(s, "prevCommit").orElse(WriteStat.NULL_COMMIT))
        .numWrites(s.path("numWrites").asLong())
        .numDeletes(s.path("numDeletes").asLong())
        .numUpdateWrites(s.path("numUpdateWrites").asLong())
        .numInserts(s.path("numInserts").asLong())
        .totalWriteBytes(s.path("totalWriteBytes").asLong())
        .totalWriteErrors(s.path("totalWriteErrors").asLong())
        .tempPath(text(s, "tempPath").orElse(null))
        .partitionPath(text(s, "partitionPath").orElse(""))
        .totalLogRecords(s.path("totalLogRecords").asLong())
        .totalLogFilesCompacted(s.path("totalLogFilesCompacted").asLong())
        .totalLogSizeCompacted(s.path("totalLogSizeCompacted").asLong())
        .totalUpdatedRecordsCompacted(s.path("totalUpdatedRecordsCompacted").asLong())
        .totalLogBlocks(s.path("totalLogBlocks").asLong())
        .totalCorruptLogBlock(s.path("totalCorruptLogBlock").asLong())
        .totalRollbackBlocks(s.path("totalRollbackBlocks").asLong())
        .fileSizeInBytes(s.path("fileSizeInBytes").asLong())
        .minEventTime(number(s, "minEventTime"))
        .maxEventTime(number(s, "maxEventTime"))
        .prevBaseFile(text(s, "prevBaseFile").orElse(null));
    JsonNode cdc = s.get("cdcStats");
    if (cdc != null && cdc.isObject()) {
      Map<String, Long> m = new LinkedHashMap<>();
      cdc.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asLong()));
      b.cdcStats(m);
    }
    JsonNode rt = s.get("runtimeStats");
    if (rt != null && rt.isObject()) {
      b.runtimeStats(new WriteStat.RuntimeStats(rt.path("totalScanTime").asLong(),
          rt.path("totalUpsertTime").asLong(), rt.path("totalCreateTime").asLong()));
    }
    boolean delta = s.has("logVersion") || s.has("logOffset") || s.has("baseFile") || s.has("logFiles");
    if (delta) {
      List<String> logs = new ArrayList<>();
      s.path("logFiles").forEach(n -> logs.add(n.asText()));
      b.logVersion(s.path("logVersion").asInt())
          .logOffset(s.path("logOffset").asLong())
          .baseFile(text(s, "baseFile").orElse(""))
          .logFiles(logs);
    }
    return b.build();
  }

  private static Optional<String> text(JsonNode s, String field) {
    JsonNode n = s.get(field);
    return n == null || n.isNull() ? Optional.empty() : Optional.of(n.asText());
  }

  private static Long number(JsonNode s, String field) {
    JsonNode n = s.get(field);
    return n == null || n.isNull() ? null : n.asLong();
  }
}
