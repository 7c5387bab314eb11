package dev.sluice.tools.health;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The latest file slice of one file group as a snapshot query reads it (for a group under pending compaction: the
 * slice before the compaction plus the logs written since), and what reading it costs.
 *
 * <p>{@link #readAmplification} = (base bytes + log bytes) / base bytes: the bytes a snapshot read of the slice
 * opens per byte a read-optimized read opens. {@link #logRecordsPerBaseRecord} = log records (rows and deletes the
 * commit metadata says were appended since the base instant) / records in the base file: the merge work per base
 * row. Both are empty for a slice without base file.
 *
 * @param partitionPath partition ("" if not partitioned)
 * @param fileId file group id
 * @param baseInstant the slice's base instant (the instant its base file was written: the last compaction or rewrite)
 * @param baseFile the base file name, if the slice has one
 * @param baseFileBytes base file size (0 without base file)
 * @param baseRecords records in the base file, from the commit that wrote it (empty if that commit is archived)
 * @param logFiles log files of the slice
 * @param logBytes their total size
 * @param logRecords rows and deletes appended to the slice's logs since the base instant (active timeline)
 * @param deltaCommitsSinceBase completed delta commits since the base instant that appended to this file group
 * @param pendingCompaction the pending compaction that covers this file group, if any
 * @param readAmplification (base + log bytes) / base bytes, if the slice has a base file
 * @param logRecordsPerBaseRecord log records / base records, if both are known and the base is not empty
 */
public record SliceStats(String partitionPath, String fileId, String baseInstant, Optional<String> baseFile,
    long baseFileBytes, OptionalLong baseRecords, int logFiles, long logBytes, long logRecords, int deltaCommitsSinceBase,
    Optional<String> pendingCompaction, OptionalDouble readAmplification, OptionalDouble logRecordsPerBaseRecord) {
}
