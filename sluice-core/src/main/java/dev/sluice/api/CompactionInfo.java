package dev.sluice.api;

/**
 * What a compaction did.
 *
 * @param instantTime the compaction's instant time
 * @param baseFilesWritten new base files written (one per compacted file group)
 * @param recordsWritten rows in the new base files
 * @param logFilesCompacted log files read
 * @param commit the commit metadata the compaction completed with
 */
public record CompactionInfo(String instantTime, int baseFilesWritten, long recordsWritten, long logFilesCompacted,
    CommitInfo commit) {
}
