package dev.sluice.internal.compact;

import dev.sluice.internal.mdt.write.CompactionRecorder;
import java.util.ArrayList;
import dev.sluice.internal.timeline.TimelineLayout;
import java.util.List;
import java.util.Map;

/** The metadata table's compaction plans in the data table's compaction plan format ({@code HoodieCompactionPlan}). */
public final class MetadataCompactionPlans implements CompactionRecorder {
  @Override
  public byte[] plan(List<Operation> operations, TimelineLayout layout) {
    List<CompactionOperation> ops = new ArrayList<>();
    for (Operation o : operations) {
      ops.add(new CompactionOperation(o.partition(), o.fileId(), o.baseInstant(), o.baseFile(), o.logFiles(), Map.of()));
    }
    return new CompactionPlan(ops, Map.of(), CompactionPlan.VERSION).toAvroBytes(layout);
  }
}
