package dev.sluice.internal.compact;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import java.nio.file.Path;

/**
 * The compaction options of a table handle, read and checked once ({@code HoodieCompactionConfig}).
 *
 * @param inline schedule and run after each write ({@code hoodie.compact.inline})
 * @param scheduleInline schedule after each write ({@code hoodie.compact.schedule.inline})
 * @param async run scheduled compactions on a background thread ({@code sluice.compact.async})
 * @param trigger when a compaction is due
 * @param maxDeltaCommits delta commits that make one due
 * @param maxDeltaSeconds seconds that make one due
 * @param strategy which slices a plan takes
 * @param targetIoMb IO budget of a plan in MiB
 * @param logFileSizeThreshold log bytes a slice needs (size strategy)
 * @param logFileNumThreshold log files a slice needs (count strategy)
 * @param maxFileSize base file target size: the write size assumed for a log-only slice
 * @param parallelism slices compacted at once
 * @param memoryBudget heap bytes for merged log records, shared by the slices compacted at once
 * @param spillDirectory where merged log records beyond the budget spill
 */
public record CompactionSettings(boolean inline, boolean scheduleInline, boolean async, TriggerStrategy trigger,
    int maxDeltaCommits, long maxDeltaSeconds, CompactionStrategy strategy, long targetIoMb, long logFileSizeThreshold,
    long logFileNumThreshold, long maxFileSize, int parallelism, long memoryBudget, Path spillDirectory) {

  /** Reads the settings from {@code config}; BAD_CONFIG for a bad value. */
  public static CompactionSettings from(Config config) {
    int maxCommits = config.get(ConfigKeys.COMPACT_INLINE_MAX_DELTA_COMMITS);
    if (maxCommits < 1) {
      throw Errors.badConfig(ConfigKeys.COMPACT_INLINE_MAX_DELTA_COMMITS.name(), Integer.toString(maxCommits),
          "a number of delta commits of at least 1");
    }
    int maxSeconds = config.get(ConfigKeys.COMPACT_INLINE_MAX_DELTA_SECONDS);
    if (maxSeconds < 0) {
      throw Errors.badConfig(ConfigKeys.COMPACT_INLINE_MAX_DELTA_SECONDS.name(), Integer.toString(maxSeconds),
          "a number of seconds, 0 or more");
    }
    long budget = config.get(ConfigKeys.LOG_MERGE_MAX_MEMORY);
    if (budget <= 0) {
      throw Errors.badConfig(ConfigKeys.LOG_MERGE_MAX_MEMORY.name(), Long.toString(budget), "a number of bytes above 0");
    }
    boolean inline = config.get(ConfigKeys.COMPACT_INLINE);
    boolean async = config.get(ConfigKeys.COMPACT_ASYNC);
    if (inline && async) {
      throw Errors.badConfig(ConfigKeys.COMPACT_ASYNC.name(), "true", "false when " + ConfigKeys.COMPACT_INLINE.name()
          + " is true (a compaction runs either inline or on the background thread)");
    }
    return new CompactionSettings(inline, config.get(ConfigKeys.COMPACT_SCHEDULE_INLINE), async,
        TriggerStrategy.parse(ConfigKeys.COMPACT_TRIGGER_STRATEGY.name(), config.get(ConfigKeys.COMPACT_TRIGGER_STRATEGY)),
        maxCommits, maxSeconds,
        CompactionStrategy.parse(ConfigKeys.COMPACTION_STRATEGY.name(), config.get(ConfigKeys.COMPACTION_STRATEGY)),
        config.get(ConfigKeys.COMPACTION_TARGET_IO), config.get(ConfigKeys.COMPACTION_LOGFILE_SIZE_THRESHOLD),
        config.get(ConfigKeys.COMPACTION_LOGFILE_NUM_THRESHOLD), config.get(ConfigKeys.PARQUET_MAX_FILE_SIZE),
        Math.max(1, config.get(ConfigKeys.WRITE_PARALLELISM)), budget,
        Path.of(config.get(ConfigKeys.SPILLABLE_MAP_PATH)));
  }

  /** True if a write schedules compactions after it commits (inline, schedule-inline or async). */
  public boolean schedulesAfterWrites() {
    return inline || scheduleInline || async;
  }
}
