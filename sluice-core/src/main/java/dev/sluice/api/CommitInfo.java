package dev.sluice.api;

import java.util.List;
import java.util.Optional;

/**
 * The commit metadata of a completed commit, delta commit or replacecommit, read-only.
 *
 * @param operation Hudi's write operation type, as its enum name ({@code UPSERT}, {@code BULK_INSERT}, {@code COMPACT}, ...)
 * @param compacted whether the commit completes a compaction
 * @param schema the writer schema the commit recorded (Avro JSON), if any
 * @param stats one write stat per file written
 */
public record CommitInfo(String operation, boolean compacted, Optional<String> schema, List<WriteStatInfo> stats) {
  /** Copies the list. */
  public CommitInfo {
    stats = List.copyOf(stats);
  }
}
