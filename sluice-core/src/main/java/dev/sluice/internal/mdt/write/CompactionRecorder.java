package dev.sluice.internal.mdt.write;

import java.util.List;
import java.util.Optional;

/**
 * The Avro content of a metadata-table compaction plan ({@code HoodieCompactionPlan}), supplied by the compaction
 * package, which owns that format (this package sits below it).
 */
public interface CompactionRecorder {
  /**
   * A plan with one operation: compact the slice ({@code fileId}, {@code baseInstant}) of {@code partition}, its base
   * file {@code baseFile} (a name, if any) and log files {@code logFiles} (names, in order).
   */
  byte[] plan(String partition, String fileId, String baseInstant, Optional<String> baseFile, List<String> logFiles);
}
