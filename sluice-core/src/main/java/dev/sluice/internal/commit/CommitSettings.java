package dev.sluice.internal.commit;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;

/**
 * The commit protocol's options: concurrency mode, failed-writes policy, table lock and writer heartbeats, read from
 * {@link Config} here and nowhere else in the engine (defaults in {@link ConfigKeys}). Numbers are parsed here; the
 * names and ranges are checked where they are used ({@link ConcurrencyMode#of}, {@link FailedWritesPolicy#of},
 * {@link TableLock#forTable}, {@link Heartbeats#of}), as before: a single writer never builds a lock, so a lock
 * provider it does not use must not fail its writes.
 *
 * @param concurrencyMode {@link ConfigKeys#WRITE_CONCURRENCY_MODE}
 * @param failedWritesPolicy {@link ConfigKeys#FAILED_WRITES_POLICY}
 * @param lockProvider {@link ConfigKeys#LOCK_PROVIDER}
 * @param lockFilesystemPath {@link ConfigKeys#LOCK_FILESYSTEM_PATH}
 * @param lockFilesystemExpireMinutes {@link ConfigKeys#LOCK_FILESYSTEM_EXPIRE}
 * @param lockWaitMillis {@link ConfigKeys#LOCK_WAIT_TIME_MS}
 * @param lockRetryMillis {@link ConfigKeys#LOCK_RETRY_WAIT_MS}
 * @param heartbeatIntervalMillis {@link ConfigKeys#HEARTBEAT_INTERVAL_MS}
 * @param heartbeatTolerableMisses {@link ConfigKeys#HEARTBEAT_TOLERABLE_MISSES}
 * @param metadataEnabled {@link ConfigKeys#METADATA_ENABLE}: every action keeps the metadata table (its mirror commit
 *     is part of the publish), or removes it
 * @param metadataCompactMaxDeltaCommits {@link ConfigKeys#METADATA_COMPACT_MAX_DELTA_COMMITS}
 * @param recordIndexEnabled {@link ConfigKeys#RECORD_INDEX_ENABLE}: with the metadata table on, keep its
 *     {@code record_index} partition (built when missing) or drop it
 * @param recordIndexSizing {@link ConfigKeys#RECORD_INDEX_MIN_FILEGROUP_COUNT} and the other keys of Hudi's estimate
 *     of a new record index's shard count (checked when one is built)
 * @param memoryBudget {@link ConfigKeys#WRITE_MAX_MEMORY}: the heap the record index's bootstrap, change collection
 *     and compaction each sort within before spilling
 * @param spillDirectory {@link ConfigKeys#SPILLABLE_MAP_PATH}
 */
public record CommitSettings(String concurrencyMode, String failedWritesPolicy, String lockProvider,
    String lockFilesystemPath, int lockFilesystemExpireMinutes, long lockWaitMillis, long lockRetryMillis,
    long heartbeatIntervalMillis, int heartbeatTolerableMisses, boolean metadataEnabled,
    int metadataCompactMaxDeltaCommits, boolean recordIndexEnabled, RecordIndexSizing recordIndexSizing,
    long memoryBudget, java.nio.file.Path spillDirectory) {

  /** The commit options in {@code config}. */
  public static CommitSettings from(Config config) {
    return new CommitSettings(config.get(ConfigKeys.WRITE_CONCURRENCY_MODE), config.get(ConfigKeys.FAILED_WRITES_POLICY),
        config.get(ConfigKeys.LOCK_PROVIDER), config.get(ConfigKeys.LOCK_FILESYSTEM_PATH),
        config.get(ConfigKeys.LOCK_FILESYSTEM_EXPIRE), config.get(ConfigKeys.LOCK_WAIT_TIME_MS),
        config.get(ConfigKeys.LOCK_RETRY_WAIT_MS), config.get(ConfigKeys.HEARTBEAT_INTERVAL_MS),
        config.get(ConfigKeys.HEARTBEAT_TOLERABLE_MISSES), config.get(ConfigKeys.METADATA_ENABLE),
        config.get(ConfigKeys.METADATA_COMPACT_MAX_DELTA_COMMITS), config.get(ConfigKeys.RECORD_INDEX_ENABLE),
        new RecordIndexSizing(config.get(ConfigKeys.RECORD_INDEX_MIN_FILEGROUP_COUNT),
            config.get(ConfigKeys.RECORD_INDEX_MAX_FILEGROUP_COUNT), config.get(ConfigKeys.RECORD_INDEX_MAX_FILEGROUP_SIZE),
            config.get(ConfigKeys.RECORD_INDEX_GROWTH_FACTOR).floatValue()),
        config.get(ConfigKeys.WRITE_MAX_MEMORY),
        java.nio.file.Path.of(config.get(ConfigKeys.SPILLABLE_MAP_PATH)));
  }

  /** The defaults (a single writer). */
  public static CommitSettings defaults() {
    return from(Config.empty());
  }
}
