package dev.sluice.internal.timeline;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One file's statistics in commit metadata: Hudi's {@code HoodieWriteStat} fields in declaration order (which
 * is their JSON order), followed by the {@code HoodieDeltaWriteStat} fields that only log appends carry
 * ({@code delta = true}). Absent JSON values ({@code null}) are empty optionals.
 *
 * @param fileId file group id ("" in workload profiles for new inserts)
 * @param path file path relative to the base path
 * @param cdcStats CDC file sizes, if CDC is on
 * @param prevCommit commit time of the previous base file version, or {@link #NULL_COMMIT}
 * @param numWrites records written to the file
 * @param numDeletes records deleted
 * @param numUpdateWrites records updated
 * @param numInserts records inserted
 * @param totalWriteBytes bytes written
 * @param totalWriteErrors failed records
 * @param tempPath temporary path, if any
 * @param partitionPath relative partition path ("" for non-partitioned tables)
 * @param totalLogRecords compaction: log records read
 * @param totalLogFilesCompacted compaction: log files read
 * @param totalLogSizeCompacted compaction: log bytes read
 * @param totalUpdatedRecordsCompacted compaction: records updated from logs
 * @param totalLogBlocks compaction: log blocks read
 * @param totalCorruptLogBlock compaction: corrupt blocks seen
 * @param totalRollbackBlocks compaction: rollback blocks seen
 * @param fileSizeInBytes file size at close
 * @param minEventTime smallest event time, if tracked
 * @param maxEventTime largest event time, if tracked
 * @param runtimeStats timings, if recorded
 * @param delta true for a log append stat (the fields below are written only then)
 * @param logVersion log file version appended to
 * @param logOffset offset where this commit's blocks begin
 * @param baseFile base file name of the slice, or ""
 * @param logFiles log file names of the slice
 * @param prevBaseFile name of the base file this one replaces (a Copy-on-Write merge, a compaction), if recorded:
 *     Hudi 1.x's writers record it in the Avro commit metadata of versions 8 and 9
 */
public record WriteStat(
    String fileId,
    Optional<String> path,
    Optional<Map<String, Long>> cdcStats,
    String prevCommit,
    long numWrites,
    long numDeletes,
    long numUpdateWrites,
    long numInserts,
    long totalWriteBytes,
    long totalWriteErrors,
    Optional<String> tempPath,
    String partitionPath,
    long totalLogRecords,
    long totalLogFilesCompacted,
    long totalLogSizeCompacted,
    long totalUpdatedRecordsCompacted,
    long totalLogBlocks,
    long totalCorruptLogBlock,
    long totalRollbackBlocks,
    long fileSizeInBytes,
    Optional<Long> minEventTime,
    Optional<Long> maxEventTime,
    Optional<RuntimeStats> runtimeStats,
    boolean delta,
    int logVersion,
    long logOffset,
    String baseFile,
    List<String> logFiles,
    Optional<String> prevBaseFile) {

  /** {@code HoodieWriteStat.NULL_COMMIT}: the {@code prevCommit} of a new file group (the string "null"). */
  public static final String NULL_COMMIT = "null";

  /** Copies collections and rejects nulls. */
  public WriteStat {
    Objects.requireNonNull(fileId, "fileId");
    Objects.requireNonNull(path, "path");
    cdcStats = Objects.requireNonNull(cdcStats, "cdcStats").map(m -> Collections.unmodifiableMap(new LinkedHashMap<>(m)));
    Objects.requireNonNull(prevCommit, "prevCommit");
    Objects.requireNonNull(tempPath, "tempPath");
    Objects.requireNonNull(partitionPath, "partitionPath");
    Objects.requireNonNull(minEventTime, "minEventTime");
    Objects.requireNonNull(maxEventTime, "maxEventTime");
    Objects.requireNonNull(runtimeStats, "runtimeStats");
    Objects.requireNonNull(baseFile, "baseFile");
    logFiles = List.copyOf(logFiles);
    Objects.requireNonNull(prevBaseFile, "prevBaseFile");
  }

  /**
   * Timings of a write handle ({@code HoodieWriteStat.RuntimeStats}), in milliseconds.
   *
   * @param totalScanTime time reading logs (compaction)
   * @param totalUpsertTime time merging or appending
   * @param totalCreateTime time creating new files
   */
  public record RuntimeStats(long totalScanTime, long totalUpsertTime, long totalCreateTime) {
  }

  /** A builder with Hudi's defaults: zeros, no optional values, {@code prevCommit = "null"}. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this stat. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.fileId = fileId;
    b.path = path;
    b.cdcStats = cdcStats;
    b.prevCommit = prevCommit;
    b.numWrites = numWrites;
    b.numDeletes = numDeletes;
    b.numUpdateWrites = numUpdateWrites;
    b.numInserts = numInserts;
    b.totalWriteBytes = totalWriteBytes;
    b.totalWriteErrors = totalWriteErrors;
    b.tempPath = tempPath;
    b.partitionPath = partitionPath;
    b.totalLogRecords = totalLogRecords;
    b.totalLogFilesCompacted = totalLogFilesCompacted;
    b.totalLogSizeCompacted = totalLogSizeCompacted;
    b.totalUpdatedRecordsCompacted = totalUpdatedRecordsCompacted;
    b.totalLogBlocks = totalLogBlocks;
    b.totalCorruptLogBlock = totalCorruptLogBlock;
    b.totalRollbackBlocks = totalRollbackBlocks;
    b.fileSizeInBytes = fileSizeInBytes;
    b.minEventTime = minEventTime;
    b.prevBaseFile = prevBaseFile;
    b.maxEventTime = maxEventTime;
    b.runtimeStats = runtimeStats;
    b.delta = delta;
    b.logVersion = logVersion;
    b.logOffset = logOffset;
    b.baseFile = baseFile;
    b.logFiles = logFiles;
    return b;
  }

  /** Builds a {@link WriteStat}. */
  public static final class Builder {
    private String fileId = "";
    private Optional<String> path = Optional.empty();
    private Optional<Map<String, Long>> cdcStats = Optional.empty();
    private String prevCommit = NULL_COMMIT;
    private long numWrites;
    private long numDeletes;
    private long numUpdateWrites;
    private long numInserts;
    private long totalWriteBytes;
    private long totalWriteErrors;
    private Optional<String> tempPath = Optional.empty();
    private Optional<String> prevBaseFile = Optional.empty();
    private String partitionPath = "";
    private long totalLogRecords;
    private long totalLogFilesCompacted;
    private long totalLogSizeCompacted;
    private long totalUpdatedRecordsCompacted;
    private long totalLogBlocks;
    private long totalCorruptLogBlock;
    private long totalRollbackBlocks;
    private long fileSizeInBytes;
    private Optional<Long> minEventTime = Optional.empty();
    private Optional<Long> maxEventTime = Optional.empty();
    private Optional<RuntimeStats> runtimeStats = Optional.empty();
    private boolean delta;
    private int logVersion;
    private long logOffset;
    private String baseFile = "";
    private List<String> logFiles = List.of();

    private Builder() {
    }

    /** File group id. */
    public Builder fileId(String v) {
      fileId = v;
      return this;
    }

    /** Relative file path. */
    public Builder path(String v) {
      path = Optional.ofNullable(v);
      return this;
    }

    /** CDC stats. */
    public Builder cdcStats(Map<String, Long> v) {
      cdcStats = Optional.ofNullable(v);
      return this;
    }

    /** Previous base file commit, or {@link #NULL_COMMIT}. */
    public Builder prevCommit(String v) {
      prevCommit = v == null ? NULL_COMMIT : v;
      return this;
    }

    /** Records written. */
    public Builder numWrites(long v) {
      numWrites = v;
      return this;
    }

    /** Records deleted. */
    public Builder numDeletes(long v) {
      numDeletes = v;
      return this;
    }

    /** Records updated. */
    public Builder numUpdateWrites(long v) {
      numUpdateWrites = v;
      return this;
    }

    /** Records inserted. */
    public Builder numInserts(long v) {
      numInserts = v;
      return this;
    }

    /** Bytes written. */
    public Builder totalWriteBytes(long v) {
      totalWriteBytes = v;
      return this;
    }

    /** Failed records. */
    public Builder totalWriteErrors(long v) {
      totalWriteErrors = v;
      return this;
    }

    /** Temp path. */
    public Builder tempPath(String v) {
      tempPath = Optional.ofNullable(v);
      return this;
    }

    /** Relative partition path. */
    public Builder partitionPath(String v) {
      partitionPath = v == null ? "" : v;
      return this;
    }

    /** Compaction: log records read. */
    public Builder totalLogRecords(long v) {
      totalLogRecords = v;
      return this;
    }

    /** Compaction: log files read. */
    public Builder totalLogFilesCompacted(long v) {
      totalLogFilesCompacted = v;
      return this;
    }

    /** Compaction: log bytes read. */
    public Builder totalLogSizeCompacted(long v) {
      totalLogSizeCompacted = v;
      return this;
    }

    /** Compaction: records updated from logs. */
    public Builder totalUpdatedRecordsCompacted(long v) {
      totalUpdatedRecordsCompacted = v;
      return this;
    }

    /** Compaction: log blocks read. */
    public Builder totalLogBlocks(long v) {
      totalLogBlocks = v;
      return this;
    }

    /** Compaction: corrupt blocks. */
    public Builder totalCorruptLogBlock(long v) {
      totalCorruptLogBlock = v;
      return this;
    }

    /** Compaction: rollback blocks. */
    public Builder totalRollbackBlocks(long v) {
      totalRollbackBlocks = v;
      return this;
    }

    /** File size at close. */
    public Builder fileSizeInBytes(long v) {
      fileSizeInBytes = v;
      return this;
    }

    /** Smallest event time. */
    public Builder minEventTime(Long v) {
      minEventTime = Optional.ofNullable(v);
      return this;
    }

    /** Largest event time. */
    public Builder maxEventTime(Long v) {
      maxEventTime = Optional.ofNullable(v);
      return this;
    }

    /** Timings. */
    public Builder runtimeStats(RuntimeStats v) {
      runtimeStats = Optional.ofNullable(v);
      return this;
    }

    /** Marks this as a log append stat ({@code HoodieDeltaWriteStat}). */
    public Builder delta(boolean v) {
      delta = v;
      return this;
    }

    /** Log version (delta only; sets {@code delta}). */
    public Builder logVersion(int v) {
      logVersion = v;
      delta = true;
      return this;
    }

    /** Log offset (delta only; sets {@code delta}). */
    public Builder logOffset(long v) {
      logOffset = v;
      delta = true;
      return this;
    }

    /** Base file name of the slice (delta only; sets {@code delta}). */
    public Builder baseFile(String v) {
      baseFile = v == null ? "" : v;
      delta = true;
      return this;
    }

    /** Log file names of the slice (delta only; sets {@code delta}). */
    public Builder logFiles(List<String> v) {
      logFiles = List.copyOf(v);
      delta = true;
      return this;
    }

    /** The stat. */
    public WriteStat build() {
      return new WriteStat(fileId, path, cdcStats, prevCommit, numWrites, numDeletes, numUpdateWrites, numInserts,
          totalWriteBytes, totalWriteErrors, tempPath, partitionPath, totalLogRecords, totalLogFilesCompacted,
          totalLogSizeCompacted, totalUpdatedRecordsCompacted, totalLogBlocks, totalCorruptLogBlock,
          totalRollbackBlocks, fileSizeInBytes, minEventTime, maxEventTime, runtimeStats, delta, logVersion,
          logOffset, baseFile, logFiles, prevBaseFile);
    }

    /** Name of the base file this one replaces (empty or null: none recorded). */
    public Builder prevBaseFile(String v) {
      prevBaseFile = v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
      return this;
    }
  }
}
