package dev.sluice.internal.compact;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The content of {@code <ts>.compaction.requested} ({@code HoodieCompactionPlan}): the file slices to compact.
 *
 * @param operations the slices, in the order the strategy ranked them
 * @param extraMetadata entries copied into the compaction's commit metadata
 * @param version plan version: 2 ({@code CompactionUtils.LATEST_COMPACTION_METADATA_VERSION}) stores file names,
 *     1 (older Hudi) stores paths
 */
public record CompactionPlan(List<CompactionOperation> operations, Map<String, String> extraMetadata, int version) {
  /** The version Hudi 0.15 writes. */
  public static final int VERSION = 2;

  /** Copies and rejects nulls. */
  public CompactionPlan {
    operations = List.copyOf(operations);
    extraMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(extraMetadata,
        "extraMetadata")));
  }

  /** True if the plan has no operation. */
  public boolean isEmpty() {
    return operations.isEmpty();
  }

  /** The container-file bytes Hudi writes ({@code TimelineMetadataUtils.serializeCompactionPlan}). */
  public byte[] toAvroBytes() {
    return CompactionPlanAvro.encode(this);
  }

  /** Parses a {@code .compaction.requested} file; {@code where} names it in errors. */
  public static CompactionPlan fromAvroBytes(byte[] bytes, String where) {
    return CompactionPlanAvro.decode(bytes, where);
  }
}
