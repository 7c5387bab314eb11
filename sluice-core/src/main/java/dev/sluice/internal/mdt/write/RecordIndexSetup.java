package dev.sluice.internal.mdt.write;

import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.commit.RecordIndexSizing;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What an action wants of the record index when it prepares the metadata table.
 *
 * @param enabled true: keep it, building it when missing (needs {@code keys}); false: drop it; empty: leave it as it
 *     is (an action that does not know the writer's setting, such as a clean run on its own)
 * @param sizing how many file groups a new record index gets (Hudi's estimate from its key count)
 * @param keys how the live keys of a data file slice are read (the bootstrap); empty: no bootstrap now
 * @param budget heap bytes the bootstrap and the compaction sort within before spilling
 * @param spillDirectory where they spill
 */
public record RecordIndexSetup(Optional<Boolean> enabled, RecordIndexSizing sizing, Optional<SliceKeys> keys, long budget,
    Path spillDirectory) {
  /** Checks the parts. */
  public RecordIndexSetup {
    Objects.requireNonNull(enabled, "enabled");
    Objects.requireNonNull(sizing, "sizing");
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(spillDirectory, "spillDirectory");
  }

  /** Leave the record index as it is (nothing to build, so no budget). */
  public static RecordIndexSetup unchanged() {
    return new RecordIndexSetup(Optional.empty(), RecordIndexSizing.defaults(), Optional.empty(), 0,
        Path.of(System.getProperty("java.io.tmpdir")));
  }

  /** Leave the record index as it is; a metadata compaction sorts within the settings' budget. */
  public static RecordIndexSetup keep(CommitSettings settings) {
    return new RecordIndexSetup(Optional.empty(), settings.recordIndexSizing(), Optional.empty(),
        settings.memoryBudget(), settings.spillDirectory());
  }

  /** As {@code settings} say ({@code hoodie.metadata.record.index.enable}), bootstrapping with {@code keys}. */
  public static RecordIndexSetup of(CommitSettings settings, Optional<SliceKeys> keys) {
    return new RecordIndexSetup(Optional.of(settings.recordIndexEnabled()), settings.recordIndexSizing(), keys,
        settings.memoryBudget(), settings.spillDirectory());
  }

  /** True if the record index is to be dropped. */
  boolean drop() {
    return enabled.isPresent() && !enabled.get();
  }

  /** True if a missing record index is to be built now. */
  boolean build() {
    return enabled.orElse(false) && keys.isPresent();
  }
}
