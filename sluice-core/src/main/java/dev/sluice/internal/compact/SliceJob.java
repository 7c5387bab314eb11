package dev.sluice.internal.compact;

import java.util.List;
import java.util.Objects;

/**
 * What every slice of one running compaction needs, fixed on the driver so that all slices merge alike wherever they
 * run.
 *
 * @param instant the compaction instant (inflight)
 * @param operations the plan's operations, in plan order
 * @param userSchema the table schema without meta fields, as JSON
 * @param maxInstant the newest completed instant whose log blocks are merged
 * @param memoryBudget heap bytes for one slice's merged log records
 */
public record SliceJob(String instant, List<CompactionOperation> operations, String userSchema, String maxInstant,
    long memoryBudget) {
  /** Copies the list and rejects nulls. */
  public SliceJob {
    Objects.requireNonNull(instant, "instant");
    operations = List.copyOf(operations);
    Objects.requireNonNull(userSchema, "userSchema");
    Objects.requireNonNull(maxInstant, "maxInstant");
  }
}
