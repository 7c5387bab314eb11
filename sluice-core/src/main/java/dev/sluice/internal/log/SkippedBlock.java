package dev.sluice.internal.log;

import java.util.Objects;
import java.util.Optional;

/**
 * A corrupt block a log scan skipped and no rollback command accounted for: the rows it held (if any) are not read.
 * Reported so that damage is never silent.
 *
 * @param path the log file
 * @param offset where the damaged bytes start
 * @param size how many bytes are damaged (up to the next block or the end of the file)
 * @param instant the instant that wrote the block, when its header can still be read
 * @param committed true if that instant is a completed commit on the timeline the scan used: its rows are lost to
 *     readers (false if unknown or not committed: a failed write's leftover, harmless)
 */
public record SkippedBlock(String path, long offset, long size, Optional<String> instant, boolean committed) {
  /** Rejects nulls. */
  public SkippedBlock {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(instant, "instant");
  }
}
