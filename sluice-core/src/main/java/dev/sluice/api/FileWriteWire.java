package dev.sluice.api;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

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
 * @param indexedKeys keys this file holds at a new location (inserts, keys moved here): the record index's inserts;
 *     empty when the table has no record index
 * @param unindexedKeys keys deleted from this file's group: the record index's deletes; empty as {@code indexedKeys}
 */
public record FileWriteWire(String partitionPath, String fileId, String relativePath, String prevCommit,
    long numWrites, long numDeletes, long numUpdates, long numInserts, long fileSize, long millis,
    FileWriteResult.LogAppend logAppend, String prevBaseFile, List<String> indexedKeys, List<String> unindexedKeys)
    implements Serializable {
  private static final long serialVersionUID = 2L;

  /** Copies the key lists (serializable, never null). */
  public FileWriteWire {
    indexedKeys = indexedKeys == null ? List.of() : new ArrayList<>(indexedKeys);
    unindexedKeys = unindexedKeys == null ? List.of() : new ArrayList<>(unindexedKeys);
  }

  /** The wire form of {@code r}. */
  public static FileWriteWire of(FileWriteResult r) {
    return new FileWriteWire(r.partitionPath(), r.fileId(), r.relativePath(), r.prevCommit(), r.numWrites(),
        r.numDeletes(), r.numUpdates(), r.numInserts(), r.fileSize(), r.millis(), r.logAppend().orElse(null),
        r.prevBaseFile(), List.of(), List.of());
  }

  /** This wire with the record-index changes of its file. */
  FileWriteWire withRecordIndex(List<String> indexed, List<String> unindexed) {
    return new FileWriteWire(partitionPath, fileId, relativePath, prevCommit, numWrites, numDeletes, numUpdates,
        numInserts, fileSize, millis, logAppend, prevBaseFile, indexed, unindexed);
  }

  /** Back to the result. */
  public FileWriteResult toResult() {
    return new FileWriteResult(partitionPath, fileId, relativePath, prevCommit, numWrites, numDeletes, numUpdates,
        numInserts, fileSize, millis, java.util.Optional.ofNullable(logAppend), prevBaseFile);
  }
}
