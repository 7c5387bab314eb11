package dev.sluice.internal.timeline.avro;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a rollback did in one partition ({@code HoodieRollbackPartitionMetadata}).
 *
 * @param partitionPath relative partition path
 * @param successDeleteFiles files deleted
 * @param failedDeleteFiles files that were not there or could not be deleted
 * @param rollbackLogFiles log files the rollback wrote command blocks to (path → size)
 * @param logFilesFromFailedCommit log files of the rolled-back instant (name or path → size)
 */
public record PartitionRollback(String partitionPath, List<String> successDeleteFiles, List<String> failedDeleteFiles,
    Map<String, Long> rollbackLogFiles, Map<String, Long> logFilesFromFailedCommit) {

  /** Copies collections and rejects nulls. */
  public PartitionRollback {
    Objects.requireNonNull(partitionPath, "partitionPath");
    successDeleteFiles = List.copyOf(successDeleteFiles);
    failedDeleteFiles = List.copyOf(failedDeleteFiles);
    rollbackLogFiles = Collections.unmodifiableMap(new LinkedHashMap<>(rollbackLogFiles));
    logFilesFromFailedCommit = Collections.unmodifiableMap(new LinkedHashMap<>(logFilesFromFailedCommit));
  }

  /** Nothing done in a partition. */
  public static PartitionRollback empty(String partitionPath) {
    return new PartitionRollback(partitionPath, List.of(), List.of(), Map.of(), Map.of());
  }

  /** This and {@code other} (same partition) together ({@code RollbackUtils.mergeRollbackStat}). */
  public PartitionRollback merge(PartitionRollback other) {
    List<String> ok = new ArrayList<>(successDeleteFiles);
    ok.addAll(other.successDeleteFiles);
    List<String> failed = new ArrayList<>(failedDeleteFiles);
    failed.addAll(other.failedDeleteFiles);
    Map<String, Long> logs = new LinkedHashMap<>(rollbackLogFiles);
    logs.putAll(other.rollbackLogFiles);
    Map<String, Long> fromFailed = new LinkedHashMap<>(logFilesFromFailedCommit);
    fromFailed.putAll(other.logFilesFromFailedCommit);
    return new PartitionRollback(partitionPath, ok, failed, logs, fromFailed);
  }
}
