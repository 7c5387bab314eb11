package dev.sluice.api;

import java.util.Optional;

/**
 * The unit of work of a compaction that runs in a cluster engine's task: compact one file slice, with the engine's
 * own slice compactor (the code {@link TableCompaction#run(String)} runs on one machine).
 */
public final class CompactionUnits {
  private CompactionUnits() {
  }

  /**
   * Compacts {@code slice} (its compaction inflight) as task attempt {@code token}: its new base file, named with the
   * token and behind a marker of the instant; empty if the slice yields no file (a log-only slice without valid
   * records). Opens the table {@code slice} names with its options.
   */
  public static Optional<CompactedSlice> compact(CompactionSlice slice, WriteToken token) {
    try (Table table = Tables.open(slice.basePath(), Config.of(slice.options()))) {
      return table.engineCompaction().compactSlice(slice.job(), 0, token)
          .map(s -> CompactedSlice.of(slice.index(), s));
    }
  }
}
