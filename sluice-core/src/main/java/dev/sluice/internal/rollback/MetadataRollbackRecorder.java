package dev.sluice.internal.rollback;

import dev.sluice.internal.timeline.avro.PartitionRollback;
import dev.sluice.internal.timeline.avro.RollbackRequest;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.timeline.avro.RollbackPlan;
import dev.sluice.internal.mdt.write.RollbackRecorder;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.avro.InstantInfo;
import java.util.List;
import java.util.Map;

/**
 * The plan and metadata of a metadata-table rollback in the data table's rollback formats: one request that appends a
 * rollback block to the {@code files} file group, and the log file that received it.
 */
final class MetadataRollbackRecorder implements RollbackRecorder {
  @Override
  public byte[] plan(Instant target, String partition, String fileId, String baseInstant, Map<String, Long> targetLogs) {
    return new RollbackPlan(InstantInfo.of(target), List.of(RollbackRequest.appendBlock(partition, fileId, baseInstant,
        targetLogs)), RollbackPlan.VERSION).toAvroBytes();
  }

  @Override
  public byte[] metadata(String time, Instant target, String partition, String rollbackLog, long size,
      Map<String, Long> targetLogs) {
    PartitionRollback stats = new PartitionRollback(partition, List.of(), List.of(), Map.of(rollbackLog, size),
        targetLogs);
    return RollbackMetadata.of(time, 0, InstantInfo.of(target), List.of(stats)).toAvroBytes();
  }
}
