package dev.sluice.internal.compact;

import dev.sluice.internal.mdt.write.CompactionRecorder;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The metadata table's compaction plans in the data table's compaction plan format ({@code HoodieCompactionPlan}). */
public final class MetadataCompactionPlans implements CompactionRecorder {
  @Override
  public byte[] plan(String partition, String fileId, String baseInstant, Optional<String> baseFile,
      List<String> logFiles) {
    CompactionOperation op = new CompactionOperation(partition, fileId, baseInstant, baseFile, logFiles, Map.of());
    return new CompactionPlan(List.of(op), Map.of(), CompactionPlan.VERSION).toAvroBytes();
  }
}
