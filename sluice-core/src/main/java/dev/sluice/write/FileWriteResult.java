package dev.sluice.write;

/**
 * What writing one file did; becomes a write stat in the commit metadata.
 *
 * @param partitionPath relative partition path
 * @param fileId file group id
 * @param relativePath path of the new file relative to the table base
 * @param prevCommit instant of the base file it replaces, or "null" for a new file group (Hudi's literal)
 * @param numWrites records in the new file
 * @param numDeletes records deleted
 * @param numUpdates records updated
 * @param numInserts records inserted
 * @param fileSize bytes of the new file
 * @param millis time spent writing it
 */
public record FileWriteResult(String partitionPath, String fileId, String relativePath, String prevCommit, long numWrites,
    long numDeletes, long numUpdates, long numInserts, long fileSize, long millis) {
  /** Hudi's {@code prevCommit} value for a new file group. */
  public static final String NULL_COMMIT = "null";
}
