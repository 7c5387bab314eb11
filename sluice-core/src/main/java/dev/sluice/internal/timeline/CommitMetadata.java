package dev.sluice.internal.timeline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The JSON content of a completed commit, deltacommit or replacecommit ({@code HoodieCommitMetadata}, and
 * {@code HoodieReplaceCommitMetadata} when {@code partitionToReplaceFileIds} is present). Maps keep their order.
 *
 * @param partitionToWriteStats partition path → stats of the files written there
 * @param compacted true for the commit that completes a compaction
 * @param extraMetadata extra string entries; {@code schema} holds the writer schema
 * @param operationType the write operation
 * @param partitionToReplaceFileIds replacecommit only: partition path → ids of the file groups replaced
 */
public record CommitMetadata(
    Map<String, List<WriteStat>> partitionToWriteStats,
    boolean compacted,
    Map<String, String> extraMetadata,
    WriteOperationType operationType,
    Optional<Map<String, List<String>>> partitionToReplaceFileIds) {

  /** {@code HoodieCommitMetadata.SCHEMA_KEY}. */
  public static final String SCHEMA_KEY = "schema";

  /** Copies the maps (keeping their order) and rejects nulls. */
  public CommitMetadata {
    partitionToWriteStats = copyOfLists(Objects.requireNonNull(partitionToWriteStats, "partitionToWriteStats"));
    extraMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(extraMetadata, "extraMetadata")));
    Objects.requireNonNull(operationType, "operationType");
    partitionToReplaceFileIds = Objects.requireNonNull(partitionToReplaceFileIds, "partitionToReplaceFileIds")
        .map(CommitMetadata::copyOfLists);
  }

  /** Commit metadata of a commit or deltacommit (no replaced file groups). */
  public CommitMetadata(Map<String, List<WriteStat>> partitionToWriteStats, boolean compacted,
                        Map<String, String> extraMetadata, WriteOperationType operationType) {
    this(partitionToWriteStats, compacted, extraMetadata, operationType, Optional.empty());
  }

  /** What Hudi reads from an empty commit file: nothing written, operation UNKNOWN. */
  public static CommitMetadata empty() {
    return new CommitMetadata(Map.of(), false, Map.of(), WriteOperationType.UNKNOWN);
  }

  /** Groups stats by their partition path, in the order given. */
  public static Map<String, List<WriteStat>> byPartition(List<WriteStat> stats) {
    Map<String, List<WriteStat>> m = new LinkedHashMap<>();
    for (WriteStat s : stats) {
      m.computeIfAbsent(s.partitionPath(), k -> new ArrayList<>()).add(s);
    }
    return m;
  }

  /** The writer schema recorded in {@code extraMetadata}, if present and non-empty. */
  public Optional<String> schema() {
    return Optional.ofNullable(extraMetadata.get(SCHEMA_KEY)).filter(s -> !s.isEmpty());
  }

  /** All stats, partition by partition. */
  public List<WriteStat> allStats() {
    List<WriteStat> out = new ArrayList<>();
    partitionToWriteStats.values().forEach(out::addAll);
    return out;
  }

  /** Sum of {@code numWrites}. */
  public long totalRecordsWritten() {
    long n = 0;
    for (WriteStat s : allStats()) {
      n += s.numWrites();
    }
    return n;
  }

  /** Sum of {@code totalWriteBytes}. */
  public long totalBytesWritten() {
    long n = 0;
    for (WriteStat s : allStats()) {
      n += s.totalWriteBytes();
    }
    return n;
  }

  /** The ids of replaced file groups in {@code partition} (replacecommit only). */
  public List<String> replacedFileIds(String partition) {
    return partitionToReplaceFileIds.map(m -> m.getOrDefault(partition, List.of())).orElse(List.of());
  }

  /** A copy with one more extra-metadata entry. */
  public CommitMetadata withExtra(String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(extraMetadata);
    m.put(key, value);
    return new CommitMetadata(partitionToWriteStats, compacted, m, operationType, partitionToReplaceFileIds);
  }

  /** Hudi's JSON: UTF-8, Jackson's default pretty printer ({@code "key" : value}), nulls included. */
  public byte[] toJson() {
    return CommitMetadataJson.write(this);
  }

  /**
   * Parses commit metadata JSON, ignoring unknown fields; empty content gives {@link #empty()}. Malformed JSON
   * is a BAD_TABLE error.
   */
  public static CommitMetadata fromJson(byte[] json) {
    return CommitMetadataJson.read(json, "commit metadata JSON");
  }

  private static <T> Map<String, List<T>> copyOfLists(Map<String, List<T>> in) {
    Map<String, List<T>> m = new LinkedHashMap<>();
    in.forEach((k, v) -> m.put(k, List.copyOf(v)));
    return Collections.unmodifiableMap(m);
  }
}
