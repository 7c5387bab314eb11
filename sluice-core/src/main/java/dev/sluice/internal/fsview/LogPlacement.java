package dev.sluice.internal.fsview;

import dev.sluice.internal.timeline.Timeline;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.function.Supplier;

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

  /**
   * The placement of {@code timeline}'s layout; {@code archived} gives the completion times of the archived timeline
   * (asked only when a log's delta commit is older than the active timeline).
   */
  static LogPlacement of(Timeline timeline, Supplier<Map<String, String>> archived) {
    return timeline.layout().slicesByCompletionTime() ? new ByCompletionTime(timeline.writeTimeline(), archived)
        : new ByName();
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
   * A delta commit older than the active timeline (archived) counts as completed, with the completion time the
   * archived timeline gives it ({@code CompletionTimeQueryViewV2} loads it from there); one the archive does not
   * know joins the latest slice, as Hudi 1.x places a log whose completion time it cannot find.
   *
   * @param writes the write timeline of the view
   * @param archived the archived timeline's completion times by requested time
   */
  record ByCompletionTime(Timeline writes, Supplier<Map<String, String>> archived) implements LogPlacement {
    @Override
    public Optional<String> sliceOf(LogFile log, NavigableSet<String> baseInstants) {
      String deltaCommit = log.baseInstant();
      boolean archivedCommit = !writes.isCompleted(deltaCommit) && writes.isBeforeStart(deltaCommit);
      if (!writes.isCompleted(deltaCommit) && !archivedCommit) {
        return Optional.empty();
      }
      if (baseInstants.isEmpty()) {
        return Optional.of(deltaCommit);
      }
      Optional<String> completion = archivedCommit ? Optional.ofNullable(archived.get().get(deltaCommit))
          : Optional.of(writes.completionTime(deltaCommit).orElse(deltaCommit));
      if (completion.isEmpty()) {
        return Optional.of(baseInstants.last());
      }
      return Optional.of(Optional.ofNullable(baseInstants.floor(completion.get())).orElse(deltaCommit));
    }
  }
}
