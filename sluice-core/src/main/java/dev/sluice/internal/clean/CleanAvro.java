package dev.sluice.internal.clean;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.timeline.avro.AvroContainer;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.State;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Clean plans and clean metadata as Hudi 0.15 stores them: Avro containers of {@code HoodieCleanerPlan} and
 * {@code HoodieCleanMetadata}, with the compiled schemas of hudi-common 0.15.0 (resources next to this class).
 */
public final class CleanAvro {
  private static final Schema PLAN = AvroContainer.resourceSchema(CleanAvro.class, "CleanerPlan");
  private static final Schema METADATA = AvroContainer.resourceSchema(CleanAvro.class, "CleanMetadata");
  private static final Schema ACTION_INSTANT = member(PLAN.getField("earliestInstantToRetain").schema());
  private static final Schema FILE_INFO = member(PLAN.getField("filePathsToBeDeletedPerPartition").schema())
      .getValueType().getElementType();
  private static final Schema PARTITION = METADATA.getField("partitionMetadata").schema().getValueType();

  private CleanAvro() {
  }

  /** The {@code HoodieCleanerPlan} schema. */
  public static Schema planSchema() {
    return PLAN;
  }

  /** The {@code HoodieCleanMetadata} schema. */
  public static Schema metadataSchema() {
    return METADATA;
  }

  /** The plan as a {@code HoodieCleanerPlan} record, as {@code CleanPlanActionExecutor.requestClean} fills it. */
  public static GenericRecord toRecord(CleanPlan plan) {
    GenericRecord r = new GenericData.Record(PLAN);
    r.put("earliestInstantToRetain", plan.earliestInstantToRetain().map(CleanAvro::actionInstant).orElse(null));
    r.put("lastCompletedCommitTimestamp", plan.lastCompletedCommit());
    r.put("policy", plan.policy().name());
    // the v1 field is written as an empty map, the v2 field carries the files
    r.put("filesToBeDeletedPerPartition", Map.of());
    r.put("version", CleanPlan.VERSION);
    Map<String, List<GenericRecord>> files = new LinkedHashMap<>();
    plan.filesToDelete().forEach((partition, list) -> {
      List<GenericRecord> infos = new ArrayList<>();
      for (CleanFile f : list) {
        GenericRecord info = new GenericData.Record(FILE_INFO);
        info.put("filePath", f.path());
        info.put("isBootstrapBaseFile", f.bootstrapBaseFile());
        infos.add(info);
      }
      files.put(partition, infos);
    });
    r.put("filePathsToBeDeletedPerPartition", files);
    r.put("partitionsToBeDeleted", plan.partitionsToDelete());
    r.put("extraMetadata", plan.extraMetadata());
    return r;
  }

  /** The container bytes of a plan (the content of {@code .clean.requested} and {@code .clean.inflight}). */
  public static byte[] encode(CleanPlan plan) {
    return AvroContainer.write(toRecord(plan));
  }

  /**
   * The plan in {@code bytes}; empty for an empty file. A version 1 plan (file names per partition) is read as Hudi's
   * {@code CleanPlanV2MigrationHandler} does: paths under {@code basePath}.
   */
  public static Optional<CleanPlan> decodePlan(byte[] bytes, String basePath, String where) {
    return AvroContainer.read(bytes, PLAN, where).map(r -> plan(r, basePath, where));
  }

  private static CleanPlan plan(GenericRecord r, String basePath, String where) {
    Optional<Instant> retain = Optional.ofNullable((GenericRecord) r.get("earliestInstantToRetain"))
        .map(ai -> instant(ai, where));
    Map<String, List<CleanFile>> files = new LinkedHashMap<>();
    Object v2 = r.get("filePathsToBeDeletedPerPartition");
    Object v1 = r.get("filesToBeDeletedPerPartition");
    if (v2 instanceof Map<?, ?> m && (!m.isEmpty() || !(v1 instanceof Map<?, ?> m1) || m1.isEmpty())) {
      m.forEach((partition, list) -> {
        List<CleanFile> out = new ArrayList<>();
        for (Object o : (List<?>) list) {
          GenericRecord info = (GenericRecord) o;
          Object path = info.get("filePath");
          if (path != null) {
            out.add(new CleanFile(path.toString(), Boolean.TRUE.equals(info.get("isBootstrapBaseFile"))));
          }
        }
        files.put(partition.toString(), out);
      });
    } else if (v1 instanceof Map<?, ?> m) {
      m.forEach((partition, list) -> {
        List<CleanFile> out = new ArrayList<>();
        String dir = StoragePaths.join(basePath, partition.toString());
        for (Object name : (List<?>) list) {
          out.add(CleanFile.of(StoragePaths.join(dir, name.toString())));
        }
        files.put(partition.toString(), out);
      });
    }
    return new CleanPlan(retain, text(r.get("lastCompletedCommitTimestamp")), policy(r.get("policy"), where), files,
        strings(r.get("partitionsToBeDeleted")), stringMap(r.get("extraMetadata")));
  }

  /** The metadata as a {@code HoodieCleanMetadata} record, as {@code CleanerUtils.convertCleanMetadata} fills it. */
  public static GenericRecord toRecord(CleanMetadata md) {
    GenericRecord r = new GenericData.Record(METADATA);
    r.put("startCleanTime", md.startCleanTime());
    r.put("timeTakenInMillis", md.timeTakenInMillis());
    r.put("totalFilesDeleted", md.totalFilesDeleted());
    r.put("earliestCommitToRetain", md.earliestCommitToRetain());
    r.put("lastCompletedCommitTimestamp", md.lastCompletedCommit());
    r.put("partitionMetadata", partitions(md.partitionMetadata()));
    r.put("version", CleanMetadata.VERSION);
    r.put("bootstrapPartitionMetadata", partitions(md.bootstrapPartitionMetadata()));
    r.put("extraMetadata", md.extraMetadata());
    return r;
  }

  /** The container bytes of clean metadata (the content of {@code <t>.clean}). */
  public static byte[] encode(CleanMetadata md) {
    return AvroContainer.write(toRecord(md));
  }

  /** The clean metadata in {@code bytes}; empty for an empty file. */
  public static Optional<CleanMetadata> decodeMetadata(byte[] bytes, String where) {
    return AvroContainer.read(bytes, METADATA, where).map(r -> new CleanMetadata(text(r.get("startCleanTime")),
        (Long) r.get("timeTakenInMillis"), (Integer) r.get("totalFilesDeleted"), text(r.get("earliestCommitToRetain")),
        text(r.get("lastCompletedCommitTimestamp")), partitionStats(r.get("partitionMetadata")),
        partitionStats(r.get("bootstrapPartitionMetadata")), stringMap(r.get("extraMetadata"))));
  }

  private static GenericRecord actionInstant(Instant i) {
    GenericRecord r = new GenericData.Record(ACTION_INSTANT);
    r.put("timestamp", i.time());
    r.put("action", i.action().id());
    r.put("state", i.state().name());
    return r;
  }

  private static Instant instant(GenericRecord ai, String where) {
    String action = text(ai.get("action"));
    Action a = Action.fromId(action).orElseThrow(() -> Errors.badTable(where,
        "the earliest instant to retain has an unknown action '" + action + "'", "The clean plan is damaged."));
    State s;
    try {
      s = State.valueOf(text(ai.get("state")));
    } catch (IllegalArgumentException e) {
      throw Errors.badTable(where, "the earliest instant to retain has an unknown state '" + ai.get("state") + "'",
          "The clean plan is damaged.");
    }
    return new Instant(text(ai.get("timestamp")), a, s);
  }

  private static CleanPolicy policy(Object value, String where) {
    try {
      return CleanPolicy.valueOf(text(value));
    } catch (IllegalArgumentException e) {
      throw Errors.badTable(where, "the clean policy '" + value + "' is unknown", "The clean file is damaged.");
    }
  }

  private static Map<String, GenericRecord> partitions(Map<String, PartitionCleanStats> stats) {
    Map<String, GenericRecord> out = new LinkedHashMap<>();
    stats.forEach((partition, s) -> {
      GenericRecord p = new GenericData.Record(PARTITION);
      p.put("partitionPath", s.partitionPath());
      p.put("policy", s.policy());
      p.put("deletePathPatterns", s.deletePathPatterns());
      p.put("successDeleteFiles", s.successDeleteFiles());
      p.put("failedDeleteFiles", s.failedDeleteFiles());
      p.put("isPartitionDeleted", s.partitionDeleted().orElse(null));
      out.put(partition, p);
    });
    return out;
  }

  private static Map<String, PartitionCleanStats> partitionStats(Object value) {
    Map<String, PartitionCleanStats> out = new LinkedHashMap<>();
    if (value instanceof Map<?, ?> m) {
      m.forEach((k, v) -> {
        GenericRecord p = (GenericRecord) v;
        out.put(k.toString(), new PartitionCleanStats(text(p.get("partitionPath")), text(p.get("policy")),
            strings(p.get("deletePathPatterns")), strings(p.get("successDeleteFiles")), strings(p.get("failedDeleteFiles")),
            Optional.ofNullable((Boolean) p.get("isPartitionDeleted"))));
      });
    }
    return out;
  }

  private static Schema member(Schema union) {
    for (Schema s : union.getTypes()) {
      if (s.getType() != Schema.Type.NULL) {
        return s;
      }
    }
    throw Errors.internal("union without a non-null member: " + union, null);
  }

  private static String text(Object value) {
    return value == null ? "" : value.toString();
  }

  private static List<String> strings(Object value) {
    List<String> out = new ArrayList<>();
    if (value instanceof List<?> list) {
      for (Object o : list) {
        out.add(String.valueOf(o));
      }
    }
    return out;
  }

  private static Map<String, String> stringMap(Object value) {
    Map<String, String> out = new LinkedHashMap<>();
    if (value instanceof Map<?, ?> m) {
      m.forEach((k, v) -> out.put(k.toString(), String.valueOf(v)));
    }
    return out;
  }
}
