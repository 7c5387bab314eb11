package dev.sluice.internal.log;

import java.util.Map;
import java.util.Optional;

/**
 * A damaged span of a log file ({@code HoodieCorruptBlock}): a block whose framing does not hold, typically the
 * last block of a writer that died mid-append. It never yields records.
 *
 * @param offset position of the damaged block's magic
 * @param length bytes up to the next magic or the end of the file
 */
public record CorruptBlock(long offset, long length) implements LogBlock {
  @Override
  public LogBlockType type() {
    return LogBlockType.CORRUPT_BLOCK;
  }

  @Override
  public Map<HeaderKey, String> header() {
    return Map.of();
  }

  @Override
  public Optional<BlockSpan> span() {
    return Optional.of(new BlockSpan(offset, length));
  }
}
