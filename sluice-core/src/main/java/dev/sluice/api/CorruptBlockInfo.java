package dev.sluice.api;

import java.util.Objects;
import java.util.Optional;

/**
 * A corrupt log block that readers skip: a block cut short (a writer that died mid-append, a truncated file) or
 * otherwise damaged, which no rollback accounts for. Reported by scans ({@link Scan#onCorruptBlock}), by
 * {@link TableInspection#corruptLogBlocks()} and by {@link Table#repair}.
 *
 * @param path the log file
 * @param offset where the damaged bytes start
 * @param size damaged bytes (up to the next block or the end of the file)
 * @param instantTime the instant that wrote the block, when its header can still be read
 * @param committed true if that instant completed: the rows the block held are lost to readers until the file is
 *     restored; false if the writer is unknown or did not commit (a failed write's leftover, harmless)
 */
public record CorruptBlockInfo(String path, long offset, long size, Optional<String> instantTime, boolean committed) {
  /** Rejects nulls. */
  public CorruptBlockInfo {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(instantTime, "instantTime");
  }

  /** One sentence: where, how big, whose rows. */
  public String describe() {
    return "corrupt log block at offset " + offset + " (" + size + " bytes) of " + path
        + instantTime.map(i -> committed ? ", written by committed instant " + i + ": its rows are not read"
            : ", written by instant " + i + ", which did not commit (a failed write's leftover)")
            .orElse(" (the instant that wrote it cannot be read)");
  }
}
