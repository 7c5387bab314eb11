package dev.sluice.api;

import java.util.Optional;

/**
 * An instant of the archived timeline ({@code .hoodie/archived}).
 *
 * @param instant the instant, in the latest state the archive holds for it
 * @param commit the commit metadata archived with it, for completed commits and delta commits
 */
public record ArchivedInstantInfo(InstantInfo instant, Optional<CommitInfo> commit) {
}
