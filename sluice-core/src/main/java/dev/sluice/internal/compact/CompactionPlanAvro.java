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
 * hudi-common 0.15.0 for version-6 tables, or into hudi-common 1.x (one field more) for versions 8/9 (resources next
 * to this class); a plan in either schema is read. Plans of version 1 carry paths; only their file names are
 * kept, which is what version 2 stores ({@code CompactionV2MigrationHandler}).
 */
final class CompactionPlanAvro {
  private static final Schema PLAN = AvroContainer.resourceSchema(CompactionPlanAvro.class, "CompactionPlan");
  private static final Schema OPERATION = AvroValues.fieldSchema(PLAN, "operations").getElementType();
  /** The schema compiled into hudi-common 1.0.2/1.1.1: the same plus {@code missingSchedulePartitions}. */
  private static final Schema PLAN_1X = AvroContainer.resourceSchema(CompactionPlanAvro.class, "CompactionPlanV2");
  private static final Schema OPERATION_1X = AvroValues.fieldSchema(PLAN_1X, "operations").getElementType();

  private CompactionPlanAvro() {
  }

  /** The plan in Hudi 0.15's schema, or with {@code hudi1x} in Hudi 1.x's. */
  static byte[] encode(CompactionPlan plan, boolean hudi1x) {
    Schema schema = hudi1x ? PLAN_1X : PLAN;
    Schema operation = hudi1x ? OPERATION_1X : OPERATION;
    GenericRecord r = new GenericData.Record(schema);
    List<GenericRecord> ops = new ArrayList<>();
    for (CompactionOperation op : plan.operations()) {
      GenericRecord g = new GenericData.Record(operation);
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
    if (hudi1x) {
      // Hudi 1.x's incremental scheduling (hoodie.table.services.incremental.enabled, on by default) always writes
      // the list, empty when the strategy left nothing out
      r.put("missingSchedulePartitions", new ArrayList<>(plan.missingSchedulePartitions()));
    }
    return AvroContainer.write(r);
  }

  static CompactionPlan decode(byte[] bytes, String where) {
    // read in 1.x's schema, a superset: a 0.15 plan resolves to it with no missing partitions
    Optional<GenericRecord> read = AvroContainer.read(bytes, PLAN_1X, where);
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
    return new CompactionPlan(ops, extra, v instanceof Integer i ? i : 1,
        AvroValues.strings(r, "missingSchedulePartitions"));
  }
}
