package dev.sluice.internal.archive;

import dev.sluice.internal.clean.CleanPolicy;
import dev.sluice.internal.clean.CleanSettings;
import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.timeline.lsm.LsmSettings;
import java.util.Objects;

/**
 * Archival's configuration, validated.
 *
 * @param minCommits completed commits archival leaves ({@code hoodie.keep.min.commits})
 * @param maxCommits completed commits that trigger archival ({@code hoodie.keep.max.commits})
 * @param batch entries per archive data block ({@code hoodie.commits.archival.batch})
 * @param maxDeltaCommits MoR: delta commits compaction scheduling counts ({@code hoodie.compact.inline.max.delta.commits})
 * @param automatic archive after every commit ({@code hoodie.archive.automatic})
 * @param lsm how a version-8/9 table's archived timeline is written (its Parquet codec and layer merges)
 */
public record ArchiveSettings(int minCommits, int maxCommits, int batch, int maxDeltaCommits, boolean automatic,
    LsmSettings lsm) {
  /** As the canonical constructor, with Hudi's defaults for the LSM archived timeline. */
  public ArchiveSettings(int minCommits, int maxCommits, int batch, int maxDeltaCommits, boolean automatic) {
    this(minCommits, maxCommits, batch, maxDeltaCommits, automatic, LsmSettings.DEFAULTS);
  }

  /** Validates: {@code 0 < min < max}, positive batch and delta-commit count. */
  public ArchiveSettings {
    Objects.requireNonNull(lsm, "lsm");
    if (minCommits < 1) {
      throw Errors.badConfig(ConfigKeys.KEEP_MIN_COMMITS.name(), Integer.toString(minCommits), "a positive number");
    }
    if (maxCommits <= minCommits) {
      throw Errors.badConfig(ConfigKeys.KEEP_MAX_COMMITS.name(), Integer.toString(maxCommits),
          "a number greater than " + ConfigKeys.KEEP_MIN_COMMITS.name() + "=" + minCommits);
    }
    if (batch < 1) {
      throw Errors.badConfig(ConfigKeys.COMMITS_ARCHIVAL_BATCH.name(), Integer.toString(batch), "a positive number");
    }
    if (maxDeltaCommits < 1) {
      throw Errors.badConfig(ConfigKeys.COMPACT_INLINE_MAX_DELTA_COMMITS.name(), Integer.toString(maxDeltaCommits),
          "a positive number");
    }
  }

  /**
   * Checks that archival leaves the cleaner a window to work with: with KEEP_LATEST_COMMITS the cleaner needs more
   * than {@code hoodie.cleaner.commits.retained} completed commits on the active timeline before it deletes anything,
   * so {@code hoodie.keep.max.commits} must exceed it (Hudi only warns, and then never cleans).
   */
  public void checkAgainst(CleanSettings clean) {
    if (clean.policy() == CleanPolicy.KEEP_LATEST_COMMITS && maxCommits <= clean.commitsRetained()) {
      throw Errors.badConfig(ConfigKeys.KEEP_MAX_COMMITS.name(), Integer.toString(maxCommits),
          "a number greater than " + ConfigKeys.CLEANER_COMMITS_RETAINED.name() + "=" + clean.commitsRetained()
              + " (archival would keep too few commits for the cleaner ever to run)");
    }
  }

  /** Reads and validates the archival keys of {@code config} (defaults as Hudi's). */
  public static ArchiveSettings from(Config config) {
    return new ArchiveSettings(config.get(ConfigKeys.KEEP_MIN_COMMITS), config.get(ConfigKeys.KEEP_MAX_COMMITS),
        config.get(ConfigKeys.COMMITS_ARCHIVAL_BATCH), config.get(ConfigKeys.COMPACT_INLINE_MAX_DELTA_COMMITS),
        config.get(ConfigKeys.ARCHIVE_AUTOMATIC), LsmSettings.from(config));
  }
}
