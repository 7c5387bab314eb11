package dev.sluice.internal.mdt.write;

import dev.sluice.internal.timeline.Instant;
import java.util.Map;

/**
 * The Avro content of a metadata-table rollback's timeline files ({@code HoodieRollbackPlan},
 * {@code HoodieRollbackMetadata}), supplied by the rollback package, which owns those formats (this package sits
 * below it).
 */
public interface RollbackRecorder {
  /**
   * The plan: roll back {@code target} by appending a rollback block to the slice ({@code fileId},
   * {@code baseInstant}) of {@code partition} whose logs {@code target} wrote ({@code targetLogs}: path to size).
   */
  byte[] plan(Instant target, String partition, String fileId, String baseInstant, Map<String, Long> targetLogs);

  /**
   * The completed rollback's metadata: rollback instant {@code time}, the log file {@code rollbackLog} (full path) of
   * {@code size} bytes that holds the command block, and {@code targetLogs}.
   */
  byte[] metadata(String time, Instant target, String partition, String rollbackLog, long size,
      Map<String, Long> targetLogs);
}
