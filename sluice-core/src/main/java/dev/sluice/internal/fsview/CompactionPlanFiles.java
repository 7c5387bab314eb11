package dev.sluice.internal.fsview;

import dev.sluice.internal.timeline.avro.AvroContainer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads the file groups a compaction plan covers from a {@code .compaction.requested} file (an Avro container
 * of {@code HoodieCompactionPlan}), generically: only {@code operations[].partitionPath} and {@code fileId}.
 */
final class CompactionPlanFiles {
  private CompactionPlanFiles() {
  }

  /** The file groups of the plan in {@code bytes}; an empty file is an empty plan. */
  static List<FileGroupId> fileGroups(byte[] bytes, String where) {
    List<FileGroupId> out = new ArrayList<>();
    Optional<GenericRecord> plan = AvroContainer.read(bytes, where);
    Object ops = plan.map(p -> p.hasField("operations") ? p.get("operations") : null).orElse(null);
    if (!(ops instanceof Iterable<?> list)) {
      return out;
    }
    for (Object o : list) {
      if (o instanceof GenericRecord op) {
        Object fileId = op.hasField("fileId") ? op.get("fileId") : null;
        Object partition = op.hasField("partitionPath") ? op.get("partitionPath") : null;
        if (fileId != null) {
          out.add(new FileGroupId(partition == null ? "" : partition.toString(), fileId.toString()));
        }
      }
    }
    return out;
  }
}
