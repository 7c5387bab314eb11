package dev.sluice.internal.log;

import dev.sluice.internal.fsview.LogFile;

/**
 * What one {@link LogWriter#appendBlocks} call wrote.
 *
 * @param file the log file written to, with its size after the append
 * @param offset position of the first byte of the appended blocks (Hudi's {@code logOffset} in write stats)
 * @param size bytes appended
 * @param version the file's log version
 */
public record AppendResult(LogFile file, long offset, long size, int version) {
}
