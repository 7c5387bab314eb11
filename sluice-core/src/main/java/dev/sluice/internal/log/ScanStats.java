package dev.sluice.internal.log;

import java.util.List;

/**
 * What a {@link LogScanner} read; the figures Hudi puts in compaction write stats.
 *
 * @param logFiles log files that held at least one block read ({@code totalLogFilesCompacted})
 * @param blocks blocks read, including the one that ended the scan by being newer than the query instant
 *     ({@code totalLogBlocks})
 * @param corruptBlocks corrupt blocks met ({@code totalCorruptLogBlock})
 * @param rolledBackBlocks blocks removed by rollback commands ({@code totalRollbackBlocks})
 * @param records data records merged ({@code totalLogRecords})
 * @param deletes deleted keys merged
 * @param skipped the corrupt blocks no rollback command accounted for (their rows, if any, were not read)
 * @param partialUpdates true if a merged record is a Hudi 1.x partial update still lacking columns (the base
 *     file's rows must then be read as records to fill them)
 */
public record ScanStats(long logFiles, long blocks, long corruptBlocks, long rolledBackBlocks, long records, long deletes,
    List<SkippedBlock> skipped, boolean partialUpdates) {
  /** Copies the list. */
  public ScanStats {
    skipped = List.copyOf(skipped);
  }

  /** Figures of a scan that merged no partial update. */
  public ScanStats(long logFiles, long blocks, long corruptBlocks, long rolledBackBlocks, long records, long deletes,
      List<SkippedBlock> skipped) {
    this(logFiles, blocks, corruptBlocks, rolledBackBlocks, records, deletes, skipped, false);
  }

  /** Figures of a scan that skipped no corrupt block. */
  public ScanStats(long logFiles, long blocks, long corruptBlocks, long rolledBackBlocks, long records, long deletes) {
    this(logFiles, blocks, corruptBlocks, rolledBackBlocks, records, deletes, List.of());
  }

  /** Nothing read yet. */
  public static ScanStats none() {
    return new ScanStats(0, 0, 0, 0, 0, 0);
  }
}
