package dev.sluice.internal.fsview;

import dev.sluice.internal.timeline.Timeline;
import java.util.NavigableSet;
import java.util.Optional;

/**
 * Which file slice of its file group a log file joins: the seam between table version 6, where a log file is named
 * after its slice's base instant, and versions 8 and 9, where it is named after the delta commit that wrote it and
 * joins the slice by that commit's completion time ({@code HoodieFileGroup.getBaseInstantTime}).
 */
sealed interface LogPlacement permits LogPlacement.ByName, LogPlacement.ByCompletionTime {

  /**
   * The base instant of the slice {@code log} joins, given the slices its file group has so far ({@code baseInstants},
   * base files, pending compactions and logs placed before it); empty if the log must not be seen at all.
   */
  Optional<String> sliceOf(LogFile log, NavigableSet<String> baseInstants);

  /** The placement of {@code timeline}'s layout. */
  static LogPlacement of(Timeline timeline) {
    return timeline.layout().slicesByCompletionTime() ? new ByCompletionTime(timeline.writeTimeline()) : new ByName();
  }

  /** Version 6: the instant in the log's name is its slice's base instant. */
  record ByName() implements LogPlacement {
    @Override
    public Optional<String> sliceOf(LogFile log, NavigableSet<String> baseInstants) {
      return Optional.of(log.baseInstant());
    }
  }

  /**
   * Versions 8 and 9: a log of a completed delta commit joins the slice with the greatest base instant not after the
   * commit's completion time, or opens a slice of its own when there is none; a log of a delta commit that is not
   * completed (failed or running) is left out, as Hudi 1.x's views leave it out ({@code filterUncommittedLogs}).
   * A delta commit older than the active timeline (archived) counts as completed; its completion time is not read
   * from the archive here, so its requested time stands in for it.
   *
   * @param writes the write timeline of the view
   */
  record ByCompletionTime(Timeline writes) implements LogPlacement {
    @Override
    public Optional<String> sliceOf(LogFile log, NavigableSet<String> baseInstants) {
      String deltaCommit = log.baseInstant();
      if (!writes.isCompleted(deltaCommit) && !writes.isBeforeStart(deltaCommit)) {
        return Optional.empty();
      }
      if (baseInstants.isEmpty()) {
        return Optional.of(deltaCommit);
      }
      String completion = writes.completionTime(deltaCommit).orElse(deltaCommit);
      return Optional.of(Optional.ofNullable(baseInstants.floor(completion)).orElse(deltaCommit));
    }
  }
}
