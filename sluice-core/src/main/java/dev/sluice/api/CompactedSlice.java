package dev.sluice.api;

import dev.sluice.internal.timeline.WriteStat;
import java.io.Serializable;
import java.util.Objects;

/**
 * What compacting one {@link CompactionSlice} wrote, as a task sends it back to the driver (Java-serializable): the
 * new base file and the figures of its write stat in the compaction's commit.
 *
 * @param index the operation's position in the plan ({@link CompactionSlice#index})
 * @param partitionPath the file group's relative partition path
 * @param fileId the file group's id
 * @param relativePath the new base file, relative to the table
 * @param prevCommit the replaced slice's base instant ({@code "null"} for a log-only slice)
 * @param prevBaseFile the replaced base file's name; null for a log-only slice
 * @param numWrites rows written
 * @param numDeletes rows deleted
 * @param numUpdateWrites rows replaced by a log record
 * @param numInserts rows only the logs held
 * @param totalWriteBytes bytes written
 * @param totalLogRecords log records read
 * @param totalLogFilesCompacted log files read
 * @param totalLogSizeCompacted bytes of log files (from the plan)
 * @param totalUpdatedRecordsCompacted keys merged from the logs
 * @param totalLogBlocks log blocks read
 * @param totalCorruptLogBlock corrupt log blocks skipped
 * @param totalRollbackBlocks rollback command blocks met
 * @param fileSizeInBytes the new file's size
 * @param scanMillis time reading the logs
 * @param upsertMillis time merging into the base file
 * @param createMillis time writing a log-only slice's file
 */
public record CompactedSlice(int index, String partitionPath, String fileId, String relativePath, String prevCommit,
    String prevBaseFile, long numWrites, long numDeletes, long numUpdateWrites, long numInserts, long totalWriteBytes,
    long totalLogRecords, long totalLogFilesCompacted, long totalLogSizeCompacted, long totalUpdatedRecordsCompacted,
    long totalLogBlocks, long totalCorruptLogBlock, long totalRollbackBlocks, long fileSizeInBytes, long scanMillis,
    long upsertMillis, long createMillis) implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Rejects nulls but the optional ones. */
  public CompactedSlice {
    Objects.requireNonNull(partitionPath, "partitionPath");
    Objects.requireNonNull(fileId, "fileId");
    Objects.requireNonNull(relativePath, "relativePath");
    Objects.requireNonNull(prevCommit, "prevCommit");
  }

  static CompactedSlice of(int index, WriteStat s) {
    WriteStat.RuntimeStats t = s.runtimeStats().orElse(new WriteStat.RuntimeStats(0, 0, 0));
    return new CompactedSlice(index, s.partitionPath(), s.fileId(), s.path().orElseThrow(), s.prevCommit(),
        s.prevBaseFile().orElse(null), s.numWrites(), s.numDeletes(), s.numUpdateWrites(), s.numInserts(),
        s.totalWriteBytes(), s.totalLogRecords(), s.totalLogFilesCompacted(), s.totalLogSizeCompacted(),
        s.totalUpdatedRecordsCompacted(), s.totalLogBlocks(), s.totalCorruptLogBlock(), s.totalRollbackBlocks(),
        s.fileSizeInBytes(), t.totalScanTime(), t.totalUpsertTime(), t.totalCreateTime());
  }

  WriteStat toStat() {
    return WriteStat.builder()
        .fileId(fileId)
        .path(relativePath)
        .prevCommit(prevCommit)
        .prevBaseFile(prevBaseFile)
        .numWrites(numWrites)
        .numDeletes(numDeletes)
        .numUpdateWrites(numUpdateWrites)
        .numInserts(numInserts)
        .totalWriteBytes(totalWriteBytes)
        .partitionPath(partitionPath)
        .totalLogRecords(totalLogRecords)
        .totalLogFilesCompacted(totalLogFilesCompacted)
        .totalLogSizeCompacted(totalLogSizeCompacted)
        .totalUpdatedRecordsCompacted(totalUpdatedRecordsCompacted)
        .totalLogBlocks(totalLogBlocks)
        .totalCorruptLogBlock(totalCorruptLogBlock)
        .totalRollbackBlocks(totalRollbackBlocks)
        .fileSizeInBytes(fileSizeInBytes)
        .runtimeStats(new WriteStat.RuntimeStats(scanMillis, upsertMillis, createMillis))
        .build();
  }
}
