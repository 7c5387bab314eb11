package dev.sluice.internal.mdt.write;

import dev.sluice.internal.timeline.TimelineLayout;
import java.util.List;
import java.util.Optional;

/**
 * The Avro content of a metadata-table compaction plan ({@code HoodieCompactionPlan}), supplied by the compaction
 * package, which owns that format (this package sits below it).
 */
public interface CompactionRecorder {
  /**
   * One operation of a plan: compact the slice ({@code fileId}, {@code baseInstant}) of {@code partition}, its base
   * file {@code baseFile} (a name, if any) and log files {@code logFiles} (names, in order).
   *
   * @param partition the metadata partition
   * @param fileId the file group
   * @param baseInstant the slice's base instant
   * @param baseFile the base file's name, if the slice has one
   * @param logFiles the log file names in order
   */
  record Operation(String partition, String fileId, String baseInstant, Optional<String> baseFile,
      List<String> logFiles) {
  }

  /**
   * A plan of {@code operations}: every file group of the metadata table, compacted together, in the plan schema of
   * a table of {@code layout}.
   */
  byte[] plan(List<Operation> operations, TimelineLayout layout);
}
