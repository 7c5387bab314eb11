package dev.sluice.api;

import java.io.Serializable;
import java.util.List;

/**
 * One planned file group write of a {@link DistributedWrite}, for a task to run with {@link WriteUnits#write}: what
 * to do, to which file group, with how many records.
 *
 * @param index the task's place in the plan (the partition of its write token)
 * @param kind merge into the base file, create a new file group, or append to the slice's log
 * @param partitionPath relative partition path
 * @param fileId the file group
 * @param updates updates and deletes of keys the group holds that it takes
 * @param inserts new keys it takes: the next ones of its partition in key order, after those of the tasks before it
 * @param baseFile the base file merged, or of the slice appended to; null for a create and a log-only slice
 * @param sliceBaseInstant an append's slice's base instant ("" otherwise)
 * @param logFiles an append's slice's log files (empty otherwise)
 */
public record FileGroupTask(int index, Kind kind, String partitionPath, String fileId, long updates, long inserts,
    FileRef baseFile, String sliceBaseInstant, List<LogFileRef> logFiles) implements Serializable {
  private static final long serialVersionUID = 1L;

  /** What a task does to its file group. */
  public enum Kind {
    /** Rewrite the base file with the updates, then the inserts (Copy-on-Write, or a small file taking inserts). */
    MERGE,
    /** Write a new file group from inserts (rolling over to more past the target size). */
    CREATE,
    /** Merge-on-Read: append the updates and deletes to the slice's log. */
    APPEND
  }

  /** Copies the log files. */
  public FileGroupTask {
    logFiles = List.copyOf(logFiles);
  }

  /** The file group. */
  public FileGroupKey fileGroup() {
    return new FileGroupKey(partitionPath, fileId);
  }
}
