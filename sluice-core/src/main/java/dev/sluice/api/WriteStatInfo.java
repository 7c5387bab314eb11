package dev.sluice.api;

import java.util.Optional;

/**
 * What a commit wrote to one file, from its write stat.
 *
 * @param partitionPath relative partition path
 * @param fileId file group id
 * @param path the file written, relative to the table, if recorded
 * @param prevCommit instant of the base file it replaces, {@link #NULL_COMMIT} for a new file group
 * @param numWrites records in the file written (for a log append: records appended)
 * @param numDeletes records deleted
 * @param numUpdateWrites records updated
 * @param numInserts records inserted
 * @param totalWriteBytes bytes written
 * @param delta whether this is a log append (Merge-on-Read) rather than a base file
 * @param fileSizeInBytes the size of the file after the write (a log file: its size after the append; 0 if not recorded)
 * @param totalLogBlocks log blocks the write appended (0 for a base file)
 * @param totalLogRecords log records a compaction read for this file group (0 for other writes)
 */
public record WriteStatInfo(String partitionPath, String fileId, Optional<String> path, String prevCommit, long numWrites,
    long numDeletes, long numUpdateWrites, long numInserts, long totalWriteBytes, boolean delta, long fileSizeInBytes,
    long totalLogBlocks, long totalLogRecords) {
  /** Hudi's {@code prevCommit} for a new file group. */
  public static final String NULL_COMMIT = "null";

  /** A write stat without the file size and log figures (they read as 0). */
  public WriteStatInfo(String partitionPath, String fileId, Optional<String> path, String prevCommit, long numWrites,
      long numDeletes, long numUpdateWrites, long numInserts, long totalWriteBytes, boolean delta) {
    this(partitionPath, fileId, path, prevCommit, numWrites, numDeletes, numUpdateWrites, numInserts, totalWriteBytes,
        delta, 0, 0, 0);
  }
}
