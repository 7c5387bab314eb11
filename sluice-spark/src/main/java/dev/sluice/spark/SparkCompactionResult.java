package dev.sluice.spark;

import dev.sluice.api.CompactionInfo;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link SluiceSpark#compact} did.
 *
 * @param compaction the compaction it completed; empty if nothing was pending and none was scheduled
 * @param explanation what ran, or why nothing did (the scheduler's reason: trigger not reached, no log files, ...)
 */
public record SparkCompactionResult(Optional<CompactionInfo> compaction, String explanation) {
  /** Rejects nulls. */
  public SparkCompactionResult {
    Objects.requireNonNull(compaction, "compaction");
    Objects.requireNonNull(explanation, "explanation");
  }
}
