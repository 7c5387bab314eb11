package dev.sluice.tools.health;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;

/**
 * The thresholds of the health warnings and of {@code advise}, from {@code sluice.health.*} (see
 * {@link ConfigKeys}). The log-file and delta-commit thresholds default to twice
 * {@code hoodie.compact.inline.max.delta.commits}: a table whose compaction keeps up never gets past one round of it.
 *
 * @param maxLogFiles log files a slice may have
 * @param maxDeltaCommits delta commits since a slice's base file (or the last compaction) allowed
 * @param pendingCompactionMaxAgeMinutes minutes a compaction may stay requested or inflight
 * @param writeAmplificationMax bytes written per changed byte allowed for a rewrite
 * @param minRewrittenFileGroups file groups a commit must rewrite before it is judged scattered
 * @param maxChangedRecordsPerFileGroup changed records per rewritten file group below which a rewrite is scattered
 * @param adviseBreakEven rewrite ratio from which advise recommends Merge-on-Read
 * @param recentCommits newest writes the write-pattern checks and advise look at
 * @param smallFileLimit base files below this are small ({@code hoodie.parquet.small.file.limit})
 */
public record HealthSettings(int maxLogFiles, int maxDeltaCommits, long pendingCompactionMaxAgeMinutes,
    double writeAmplificationMax, int minRewrittenFileGroups, long maxChangedRecordsPerFileGroup, double adviseBreakEven, int recentCommits,
    long smallFileLimit) {

  /** The settings in {@code config}, with the derived defaults. */
  public static HealthSettings from(Config config) {
    int derived = 2 * Math.max(1, config.get(ConfigKeys.COMPACT_INLINE_MAX_DELTA_COMMITS));
    int logFiles = config.isSet(ConfigKeys.HEALTH_MAX_LOG_FILES) ? config.get(ConfigKeys.HEALTH_MAX_LOG_FILES) : derived;
    int deltas = config.isSet(ConfigKeys.HEALTH_MAX_DELTA_COMMITS) ? config.get(ConfigKeys.HEALTH_MAX_DELTA_COMMITS) : derived;
    return new HealthSettings(logFiles, deltas, config.get(ConfigKeys.HEALTH_PENDING_COMPACTION_MAX_AGE_MINUTES),
        config.get(ConfigKeys.HEALTH_WRITE_AMPLIFICATION_MAX), config.get(ConfigKeys.HEALTH_MIN_REWRITTEN_FILE_GROUPS),
        config.get(ConfigKeys.HEALTH_MAX_CHANGED_RECORDS_PER_FILE_GROUP), config.get(ConfigKeys.HEALTH_ADVISE_BREAK_EVEN),
        Math.max(1, config.get(ConfigKeys.HEALTH_RECENT_COMMITS)), config.get(ConfigKeys.SMALL_FILE_LIMIT));
  }
}
