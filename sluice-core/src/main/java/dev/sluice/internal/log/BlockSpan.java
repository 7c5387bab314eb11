package dev.sluice.internal.log;

/**
 * Where a block lies in its log file.
 *
 * @param offset position of the block's first byte (its magic)
 * @param size bytes from the magic up to and including the trailing reverse pointer (for a corrupt block: up to
 *     the next magic or the end of the file)
 */
public record BlockSpan(long offset, long size) {
  /** The position just after the block. */
  public long end() {
    return offset + size;
  }
}
