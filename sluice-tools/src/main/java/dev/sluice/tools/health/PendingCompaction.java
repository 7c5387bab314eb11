package dev.sluice.tools.health;

import dev.sluice.api.FileGroupKey;
import java.util.List;

/**
 * A requested or inflight compaction.
 *
 * @param instantTime the compaction instant
 * @param state {@code REQUESTED} or {@code INFLIGHT}
 * @param fileGroups the file groups its plan covers
 * @param ageMinutes minutes between the instant time (read in the table's timeline time zone) and now
 */
public record PendingCompaction(String instantTime, String state, List<FileGroupKey> fileGroups, long ageMinutes) {
  /** Copies the list. */
  public PendingCompaction {
    fileGroups = List.copyOf(fileGroups);
  }
}
