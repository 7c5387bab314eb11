package dev.sluice.api;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The commit metadata of a completed commit, delta commit or replacecommit, read-only.
 *
 * @param operation Hudi's write operation type, as its enum name ({@code UPSERT}, {@code BULK_INSERT}, {@code COMPACT}, ...)
 * @param compacted whether the commit completes a compaction
 * @param schema the writer schema the commit recorded (Avro JSON), if any
 * @param stats one write stat per file written
 * @param writtenPartitions the partitions the metadata lists write stats under ({@code partitionToWriteStats}'s
 *     keys), in its order
 * @param replacedFileIds replacecommit only: partition path → ids of the file groups it replaced
 *     ({@code partitionToReplaceFileIds}); empty for other commits
 */
public record CommitInfo(String operation, boolean compacted, Optional<String> schema, List<WriteStatInfo> stats,
    List<String> writtenPartitions, Map<String, List<String>> replacedFileIds) {
  /** Copies the lists and the map (keeping its order). */
  public CommitInfo {
    stats = List.copyOf(stats);
    writtenPartitions = List.copyOf(writtenPartitions);
    Map<String, List<String>> copy = new LinkedHashMap<>();
    replacedFileIds.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    replacedFileIds = java.util.Collections.unmodifiableMap(copy);
  }

  /** A commit that replaced nothing, its written partitions those of its stats. */
  public CommitInfo(String operation, boolean compacted, Optional<String> schema, List<WriteStatInfo> stats) {
    this(operation, compacted, schema, stats,
        List.copyOf(new LinkedHashSet<>(stats.stream().map(WriteStatInfo::partitionPath).toList())), Map.of());
  }
}
