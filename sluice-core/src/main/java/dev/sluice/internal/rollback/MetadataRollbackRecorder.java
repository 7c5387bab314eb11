package dev.sluice.internal.rollback;

import dev.sluice.internal.mdt.write.RollbackRecorder;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.avro.InstantInfo;
import dev.sluice.internal.timeline.avro.PartitionRollback;
import dev.sluice.internal.timeline.avro.RollbackMetadata;
import dev.sluice.internal.timeline.avro.RollbackPlan;
import dev.sluice.internal.timeline.avro.RollbackRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The plan and metadata of a metadata-table rollback in the data table's rollback formats: one request per file group
 * that gets a rollback block ({@code files}, and each record-index shard the rolled-back deltacommit wrote to), and
 * per partition the log files that received them.
 */
final class MetadataRollbackRecorder implements RollbackRecorder {
  @Override
  public byte[] plan(Instant target, List<Target> groups) {
    List<RollbackRequest> requests = new ArrayList<>();
    for (Target g : groups) {
      requests.add(RollbackRequest.appendBlock(g.partition(), g.fileId(), g.baseInstant(), g.targetLogs()));
    }
    return new RollbackPlan(InstantInfo.of(target), requests, RollbackPlan.VERSION).toAvroBytes();
  }

  @Override
  public byte[] metadata(String time, Instant target, Map<String, Map<String, Long>> rollbackLogs,
      List<Target> groups) {
    Map<String, Map<String, Long>> logsWritten = new TreeMap<>();
    for (Target g : groups) {
      logsWritten.computeIfAbsent(g.partition(), p -> new TreeMap<>()).putAll(g.targetLogs());
    }
    List<PartitionRollback> stats = new ArrayList<>();
    rollbackLogs.forEach((partition, logs) -> stats.add(new PartitionRollback(partition, List.of(), List.of(), logs,
        logsWritten.getOrDefault(partition, Map.of()))));
    return RollbackMetadata.of(time, 0, InstantInfo.of(target), stats).toAvroBytes();
  }

  @Override
  public byte[] deletePlan(Instant target, Map<String, List<String>> files) {
    List<RollbackRequest> requests = new ArrayList<>();
    files.forEach((partition, paths) -> paths.forEach(f -> requests.add(RollbackRequest.delete(partition, f))));
    return new RollbackPlan(InstantInfo.of(target), requests, RollbackPlan.VERSION).toAvroBytes();
  }

  @Override
  public byte[] deleteMetadata(String time, Instant target, Map<String, List<String>> deleted) {
    List<PartitionRollback> stats = new ArrayList<>();
    deleted.forEach((partition, paths) -> stats.add(new PartitionRollback(partition, paths, List.of(), Map.of(),
        Map.of())));
    return RollbackMetadata.of(time, 0, InstantInfo.of(target), stats).toAvroBytes();
  }
}
