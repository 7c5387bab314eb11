package dev.sluice.api;

import java.util.List;

/**
 * What a completed write did.
 *
 * @param instantTime the instant of the commit
 * @param operation the operation
 * @param files one entry per file written
 */
public record CommitResult(String instantTime, WriteOperation operation, List<FileWriteResult> files) {
  /** Records inserted. */
  public long inserted() {
    return files.stream().mapToLong(FileWriteResult::numInserts).sum();
  }

  /** Records updated. */
  public long updated() {
    return files.stream().mapToLong(FileWriteResult::numUpdates).sum();
  }

  /** Records deleted. */
  public long deleted() {
    return files.stream().mapToLong(FileWriteResult::numDeletes).sum();
  }

  /** Bytes of the files written. */
  public long bytesWritten() {
    return files.stream().mapToLong(FileWriteResult::fileSize).sum();
  }
}
