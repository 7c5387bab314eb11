package dev.sluice.internal.log;

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
 */
public record ScanStats(long logFiles, long blocks, long corruptBlocks, long rolledBackBlocks, long records, long deletes) {
}
