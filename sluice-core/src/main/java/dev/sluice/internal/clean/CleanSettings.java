package dev.sluice.internal.clean;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKey;
import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;

/**
 * The cleaner's configuration, validated.
 *
 * @param policy what to keep
 * @param commitsRetained KEEP_LATEST_COMMITS window ({@code hoodie.cleaner.commits.retained})
 * @param fileVersionsRetained KEEP_LATEST_FILE_VERSIONS count ({@code hoodie.cleaner.fileversions.retained})
 * @param hoursRetained KEEP_LATEST_BY_HOURS window ({@code hoodie.cleaner.hours.retained})
 * @param maxCommits commits since the last clean that trigger a new one ({@code hoodie.clean.max.commits})
 * @param incremental look only at partitions written since the last clean ({@code hoodie.cleaner.incremental.mode})
 * @param automatic clean after every commit ({@code hoodie.clean.automatic})
 */
public record CleanSettings(CleanPolicy policy, int commitsRetained, int fileVersionsRetained, int hoursRetained,
                            int maxCommits, boolean incremental, boolean automatic) {
  /** Validates the numbers. */
  public CleanSettings {
    positive(ConfigKeys.CLEANER_FILE_VERSIONS_RETAINED, fileVersionsRetained);
    positive(ConfigKeys.CLEAN_MAX_COMMITS, maxCommits);
    // Hudi accepts 0 and then never cleans; a positive window is what the setting means
    positive(ConfigKeys.CLEANER_COMMITS_RETAINED, commitsRetained);
    if (hoursRetained < 0) {
      throw Errors.badConfig(ConfigKeys.CLEANER_HOURS_RETAINED.name(), Integer.toString(hoursRetained),
          "zero or a positive number");
    }
  }

  /** Reads and validates the cleaner keys of {@code config} (defaults as Hudi's). */
  public static CleanSettings from(Config config) {
    return new CleanSettings(CleanPolicy.parse(config.get(ConfigKeys.CLEANER_POLICY)),
        config.get(ConfigKeys.CLEANER_COMMITS_RETAINED), config.get(ConfigKeys.CLEANER_FILE_VERSIONS_RETAINED),
        config.get(ConfigKeys.CLEANER_HOURS_RETAINED), config.get(ConfigKeys.CLEAN_MAX_COMMITS),
        config.get(ConfigKeys.CLEANER_INCREMENTAL_MODE), config.get(ConfigKeys.CLEAN_AUTOMATIC));
  }

  /** Hudi's defaults. */
  public static CleanSettings defaults() {
    return from(Config.empty());
  }

  private static void positive(ConfigKey<Integer> key, int value) {
    if (value < 1) {
      throw Errors.badConfig(key.name(), Integer.toString(value), "a positive number");
    }
  }
}
