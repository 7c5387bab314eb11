package dev.sluice.internal.log;

import java.util.Map;
import java.util.Optional;

/**
 * One block of a log file. Blocks built in memory for writing have no {@link #span()}; blocks read from a
 * file know where they lie.
 */
public sealed interface LogBlock permits DataBlock, DeleteBlock, CommandBlock, CorruptBlock {
  /** The block's type. */
  LogBlockType type();

  /** The header entries (immutable; empty for corrupt blocks). */
  Map<HeaderKey, String> header();

  /** Where the block lies in its file, if it was read from one. */
  Optional<BlockSpan> span();

  /** The instant that wrote the block (header {@link HeaderKey#INSTANT_TIME}); empty for corrupt blocks. */
  default Optional<String> instantTime() {
    return Optional.ofNullable(header().get(HeaderKey.INSTANT_TIME));
  }
}
