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
 */
public record WriteStatInfo(String partitionPath, String fileId, Optional<String> path, String prevCommit, long numWrites,
    long numDeletes, long numUpdateWrites, long numInserts, long totalWriteBytes, boolean delta) {
  /** Hudi's {@code prevCommit} for a new file group. */
  public static final String NULL_COMMIT = "null";
}
