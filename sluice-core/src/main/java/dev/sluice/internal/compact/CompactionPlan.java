package dev.sluice.internal.compact;

import dev.sluice.internal.timeline.TimelineLayout;
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
 * @param missingSchedulePartitions partitions with slices the strategy left out of the plan (Hudi 1.x's
 *     {@code missingSchedulePartitions}, written on table versions 8/9 only; an incremental scheduler plans them
 *     next time)
 */
public record CompactionPlan(List<CompactionOperation> operations, Map<String, String> extraMetadata, int version,
    List<String> missingSchedulePartitions) {
  /** The version Hudi 0.15 and 1.x write. */
  public static final int VERSION = 2;

  /** Copies and rejects nulls. */
  public CompactionPlan {
    operations = List.copyOf(operations);
    extraMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(extraMetadata,
        "extraMetadata")));
    missingSchedulePartitions = List.copyOf(missingSchedulePartitions);
  }

  /** A plan that left no partition out. */
  public CompactionPlan(List<CompactionOperation> operations, Map<String, String> extraMetadata, int version) {
    this(operations, extraMetadata, version, List.of());
  }

  /** True if the plan has no operation. */
  public boolean isEmpty() {
    return operations.isEmpty();
  }

  /** The container-file bytes Hudi 0.15 writes ({@code TimelineMetadataUtils.serializeCompactionPlan}). */
  public byte[] toAvroBytes() {
    return CompactionPlanAvro.encode(this, false);
  }

  /**
   * The container-file bytes Hudi writes for a table of {@code layout}: Hudi 0.15's schema on version 6, Hudi 1.x's
   * (with {@code missingSchedulePartitions}) on versions 8/9.
   */
  public byte[] toAvroBytes(TimelineLayout layout) {
    return CompactionPlanAvro.encode(this, layout.tableVersion() >= 8);
  }

  /** Parses a {@code .compaction.requested} file; {@code where} names it in errors. */
  public static CompactionPlan fromAvroBytes(byte[] bytes, String where) {
    return CompactionPlanAvro.decode(bytes, where);
  }
}
