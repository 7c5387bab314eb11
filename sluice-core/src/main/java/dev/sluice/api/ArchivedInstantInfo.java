package dev.sluice.api;

import java.util.Objects;
import java.util.Optional;

/**
 * An instant of the archived timeline ({@code .hoodie/archived} of a version-6 table, the LSM timeline under
 * {@code .hoodie/timeline/history} of a version-8/9 table).
 *
 * @param instant the instant, in the latest state the archive holds for it (always completed for versions 8 and 9)
 * @param commit the commit metadata archived with it, for completed commits, delta commits (and, on versions 8 and
 *     9, replace commits)
 * @param completionTime when the instant completed, as the archive of a version-8/9 table records it; empty for
 *     version 6, whose archive has no completion times
 */
public record ArchivedInstantInfo(InstantInfo instant, Optional<CommitInfo> commit, Optional<String> completionTime) {
  /** Rejects nulls. */
  public ArchivedInstantInfo {
    Objects.requireNonNull(instant, "instant");
    Objects.requireNonNull(commit, "commit");
    Objects.requireNonNull(completionTime, "completionTime");
  }

  /** An instant of a version-6 archive (no completion time). */
  public ArchivedInstantInfo(InstantInfo instant, Optional<CommitInfo> commit) {
    this(instant, commit, Optional.empty());
  }
}
