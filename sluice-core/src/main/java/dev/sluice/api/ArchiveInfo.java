package dev.sluice.api;

import java.util.List;
import java.util.Optional;

/**
 * What an archival did.
 *
 * @param archived the instants moved to the archived timeline
 * @param stateFiles timeline files removed from {@code .hoodie}
 * @param archiveFile the archive log file written to, if anything was archived
 */
public record ArchiveInfo(List<InstantInfo> archived, int stateFiles, Optional<String> archiveFile) {
  /** Copies the list. */
  public ArchiveInfo {
    archived = List.copyOf(archived);
  }
}
