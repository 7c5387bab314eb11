package dev.sluice.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What writing one file did; becomes a write stat in the commit metadata.
 *
 * @param partitionPath relative partition path
 * @param fileId file group id
 * @param relativePath path of the file written (a new base file, or the log file appended to) relative to the table base
 * @param prevCommit instant of the base file it replaces (for a log append: the slice's base instant), or "null" for a
 *     new file group (Hudi's literal)
 * @param numWrites records in the new file (for a log append: data records appended)
 * @param numDeletes records deleted
 * @param numUpdates records updated
 * @param numInserts records inserted
 * @param fileSize bytes written: the new file's size, or for a log append the bytes appended
 * @param millis time spent writing it
 * @param logAppend what a Merge-on-Read log append wrote; empty for base files
 * @param prevBaseFile name of the base file a merge replaced ("" for a new file group or a log append): Hudi 1.x's
 *     {@code prevBaseFile} write stat of versions 8 and 9
 */
public record FileWriteResult(String partitionPath, String fileId, String relativePath, String prevCommit, long numWrites,
    long numDeletes, long numUpdates, long numInserts, long fileSize, long millis, Optional<LogAppend> logAppend,
    String prevBaseFile) {
  /** Hudi's {@code prevCommit} value for a new file group. */
  public static final String NULL_COMMIT = "null";

  /** Rejects a null log append. */
  public FileWriteResult {
    Objects.requireNonNull(logAppend, "logAppend");
    Objects.requireNonNull(prevBaseFile, "prevBaseFile");
  }

  /** A result that replaced no base file by name (a log append, or one whose replaced file is not recorded). */
  public FileWriteResult(String partitionPath, String fileId, String relativePath, String prevCommit, long numWrites,
      long numDeletes, long numUpdates, long numInserts, long fileSize, long millis, Optional<LogAppend> logAppend) {
    this(partitionPath, fileId, relativePath, prevCommit, numWrites, numDeletes, numUpdates, numInserts, fileSize, millis,
        logAppend, "");
  }

  /** The result of writing a base file. */
  public FileWriteResult(String partitionPath, String fileId, String relativePath, String prevCommit, long numWrites,
      long numDeletes, long numUpdates, long numInserts, long fileSize, long millis) {
    this(partitionPath, fileId, relativePath, prevCommit, numWrites, numDeletes, numUpdates, numInserts, fileSize, millis,
        Optional.empty());
  }

  /**
   * The log side of an append: the fields of Hudi's {@code HoodieDeltaWriteStat}.
   *
   * @param logVersion version of the log file appended to
   * @param logOffset position in it where this commit's blocks begin
   * @param baseFile base file name of the slice, or "" for a log-only slice
   * @param logFiles the slice's log file names, including the one appended to
   * @param logFileSize size of the log file after the append
   * @param blocks log blocks appended
   */
  public record LogAppend(int logVersion, long logOffset, String baseFile, List<String> logFiles, long logFileSize,
      int blocks) implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** Copies the file list. */
    public LogAppend {
      Objects.requireNonNull(baseFile, "baseFile");
      logFiles = List.copyOf(logFiles);
    }
  }
}
