package dev.sluice.internal.archive;

import dev.sluice.internal.timeline.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What one archival did.
 *
 * @param archived the instants moved off the active timeline (one per instant, in its latest state), oldest first
 * @param stateFiles the number of timeline files archived and deleted
 * @param archiveFile the archive file written, if any
 */
public record ArchiveResult(List<Instant> archived, int stateFiles, Optional<String> archiveFile) {
  /** Copies the list. */
  public ArchiveResult {
    archived = List.copyOf(archived);
  }

  /** Nothing archived. */
  public static ArchiveResult none() {
    return new ArchiveResult(List.of(), 0, Optional.empty());
  }
}
