package dev.sluice.internal.compact;

import dev.sluice.internal.timeline.avro.AvroContainer;
import dev.sluice.internal.error.Errors;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.timeline.avro.AvroValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * {@link CompactionPlan} as an Avro container of {@code HoodieCompactionPlan}, with the schema compiled into
 * hudi-common 0.15.0 (a resource next to this class). Plans of version 1 carry paths; only their file names are
 * kept, which is what version 2 stores ({@code CompactionV2MigrationHandler}).
 */
final class CompactionPlanAvro {
  private static final Schema PLAN = AvroContainer.resourceSchema(CompactionPlanAvro.class, "CompactionPlan");
  private static final Schema OPERATION = AvroValues.fieldSchema(PLAN, "operations").getElementType();

  private CompactionPlanAvro() {
  }

  static byte[] encode(CompactionPlan plan) {
    GenericRecord r = new GenericData.Record(PLAN);
    List<GenericRecord> ops = new ArrayList<>();
    for (CompactionOperation op : plan.operations()) {
      GenericRecord g = new GenericData.Record(OPERATION);
      g.put("baseInstantTime", op.baseInstantTime());
      g.put("deltaFilePaths", new ArrayList<>(op.deltaFileNames()));
      g.put("dataFilePath", op.dataFileName().orElse(null));
      g.put("fileId", op.fileId());
      g.put("partitionPath", op.partitionPath());
      g.put("metrics", new LinkedHashMap<>(op.metrics()));
      g.put("bootstrapFilePath", null);
      ops.add(g);
    }
    r.put("operations", ops);
    // Hudi leaves the extra metadata null unless the scheduler was given some
    r.put("extraMetadata", plan.extraMetadata().isEmpty() ? null : new LinkedHashMap<>(plan.extraMetadata()));
    r.put("version", plan.version());
    r.put("strategy", null);
    r.put("preserveHoodieMetadata", false);
    return AvroContainer.write(r);
  }

  static CompactionPlan decode(byte[] bytes, String where) {
    Optional<GenericRecord> read = AvroContainer.read(bytes, PLAN, where);
    if (read.isEmpty()) {
      return new CompactionPlan(List.of(), Map.of(), CompactionPlan.VERSION);
    }
    GenericRecord r = read.get();
    List<CompactionOperation> ops = new ArrayList<>();
    for (GenericRecord g : AvroValues.records(r, "operations")) {
      Object fileId = g.get("fileId");
      Object base = g.get("baseInstantTime");
      if (fileId == null || base == null) {
        throw Errors.badTable(where, "a compaction operation has no fileId or baseInstantTime",
            "The compaction plan is damaged; restore it or delete the pending compaction's files.");
      }
      List<String> logs = new ArrayList<>();
      for (String p : AvroValues.strings(g, "deltaFilePaths")) {
        logs.add(StoragePaths.name(p));
      }
      Optional<String> data = AvroValues.optionalString(g, "dataFilePath").filter(s -> !s.isEmpty())
          .map(StoragePaths::name);
      Map<String, Double> metrics = new LinkedHashMap<>();
      AvroValues.map(g, "metrics").forEach((k, v) -> {
        if (v instanceof Number n) {
          metrics.put(k, n.doubleValue());
        }
      });
      Object partition = g.get("partitionPath");
      ops.add(new CompactionOperation(partition == null ? "" : partition.toString(), fileId.toString(),
          base.toString(), data, logs, metrics));
    }
    Map<String, String> extra = new LinkedHashMap<>();
    AvroValues.map(r, "extraMetadata").forEach((k, v) -> extra.put(k, v == null ? null : v.toString()));
    Object v = r.get("version");
    return new CompactionPlan(ops, extra, v instanceof Integer i ? i : 1);
  }
}
