package dev.sluice.api;

import java.io.Serializable;

/**
 * A {@link FileWriteResult} as a task sends it back to the driver (Java-serializable: the log side is a nullable
 * field instead of an {@code Optional}).
 *
 * @param partitionPath see {@link FileWriteResult}
 * @param fileId see {@link FileWriteResult}
 * @param relativePath see {@link FileWriteResult}
 * @param prevCommit see {@link FileWriteResult}
 * @param numWrites see {@link FileWriteResult}
 * @param numDeletes see {@link FileWriteResult}
 * @param numUpdates see {@link FileWriteResult}
 * @param numInserts see {@link FileWriteResult}
 * @param fileSize see {@link FileWriteResult}
 * @param millis see {@link FileWriteResult}
 * @param logAppend what a log append wrote; null for a base file
 * @param prevBaseFile see {@link FileWriteResult}
 */
public record FileWriteWire(String partitionPath, String fileId, String relativePath, String prevCommit,
    long numWrites, long numDeletes, long numUpdates, long numInserts, long fileSize, long millis,
    FileWriteResult.LogAppend logAppend, String prevBaseFile) implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The wire form of {@code r}. */
  public static FileWriteWire of(FileWriteResult r) {
    return new FileWriteWire(r.partitionPath(), r.fileId(), r.relativePath(), r.prevCommit(), r.numWrites(),
        r.numDeletes(), r.numUpdates(), r.numInserts(), r.fileSize(), r.millis(), r.logAppend().orElse(null),
        r.prevBaseFile());
  }

  /** Back to the result. */
  public FileWriteResult toResult() {
    return new FileWriteResult(partitionPath, fileId, relativePath, prevCommit, numWrites, numDeletes, numUpdates,
        numInserts, fileSize, millis, java.util.Optional.ofNullable(logAppend), prevBaseFile);
  }
}
