package dev.sluice.internal.mdt.write;

import dev.sluice.internal.timeline.Instant;
import java.util.List;
import java.util.Map;

/**
 * The Avro content of a metadata-table rollback's timeline files ({@code HoodieRollbackPlan},
 * {@code HoodieRollbackMetadata}), supplied by the rollback package, which owns those formats (this package sits
 * below it).
 */
public interface RollbackRecorder {
  /**
   * One file group the rollback appends a rollback block to: the slice ({@code fileId}, {@code baseInstant}) of
   * {@code partition} and the logs the rolled-back deltacommit wrote to it ({@code targetLogs}: path to size).
   *
   * @param partition the metadata partition
   * @param fileId the file group
   * @param baseInstant the slice's base instant
   * @param targetLogs log files (full paths) the target wrote, to their sizes
   */
  record Target(String partition, String fileId, String baseInstant, Map<String, Long> targetLogs) {
  }

  /** The plan: roll back {@code target} by appending a rollback block to each of {@code groups}. */
  byte[] plan(Instant target, List<Target> groups);

  /**
   * The completed rollback's metadata: rollback instant {@code time}; per metadata partition the log files (full
   * paths) that hold its command blocks, to their sizes; and the groups of the plan.
   */
  byte[] metadata(String time, Instant target, Map<String, Map<String, Long>> rollbackLogs, List<Target> groups);

  /**
   * The plan of a rollback by deleting the target's files (versions 8/9, where each deltacommit has log files of its
   * own): per metadata partition the files (full paths) to delete.
   */
  byte[] deletePlan(Instant target, Map<String, List<String>> files);

  /** The completed metadata of a rollback by deleting files: per metadata partition the files it deleted. */
  byte[] deleteMetadata(String time, Instant target, Map<String, List<String>> deleted);
}
