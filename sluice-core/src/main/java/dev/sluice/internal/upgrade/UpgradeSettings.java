package dev.sluice.internal.upgrade;

import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.timeline.lsm.LsmSettings;
import java.util.Objects;

/**
 * What an upgrade needs of the user's settings.
 *
 * @param commit the lock (the upgrade runs under the table's lock)
 * @param archivalBatch instants of the old archive per LSM file ({@code hoodie.commits.archival.batch}, as Hudi's
 *     conversion batches them)
 * @param lsm how the LSM history is written ({@code hoodie.parquet.compression.codec},
 *     {@code hoodie.timeline.compaction.batch.size})
 */
public record UpgradeSettings(CommitSettings commit, int archivalBatch, LsmSettings lsm) {
  /** Rejects nulls and a batch below 1. */
  public UpgradeSettings {
    Objects.requireNonNull(commit, "commit");
    Objects.requireNonNull(lsm, "lsm");
    if (archivalBatch < 1) {
      throw new IllegalArgumentException("archivalBatch must be positive: " + archivalBatch);
    }
  }
}
