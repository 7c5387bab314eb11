package dev.sluice.internal.clean;

import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/**
 * The commit window the cleaner protects ({@code CleanerUtils.getEarliestCommitToRetain}): the earliest commit to
 * retain (ECTR) is the N-th newest completed commit (KEEP_LATEST_COMMITS), or the first completed commit of the
 * last N hours (KEEP_LATEST_BY_HOURS), and never later than the newest completed commit before the oldest pending
 * write or compaction. Archival uses the same window so that it never archives a commit the cleaner still keeps
 * files for.
 */
public final class RetentionWindow {
  private RetentionWindow() {
  }

  /**
   * The earliest commit to retain on {@code timeline} (commits, delta commits, replace commits and compactions are
   * counted); empty for KEEP_LATEST_FILE_VERSIONS and while there are no more than N completed commits.
   *
   * @param now the clock, for KEEP_LATEST_BY_HOURS
   * @param zone the zone instant times are written in
   */
  public static Optional<Instant> earliestCommitToRetain(Timeline timeline, CleanSettings settings,
                                                         java.time.Instant now, ZoneId zone) {
    Timeline commitsAndCompactions = timeline.filter(i -> i.action() == Action.COMMIT
        || i.action() == Action.DELTACOMMIT || i.action() == Action.REPLACECOMMIT || i.action() == Action.COMPACTION);
    List<Instant> completed = commitsAndCompactions.completed().instants();
    switch (settings.policy()) {
      case KEEP_LATEST_COMMITS -> {
        int n = settings.commitsRetained();
        if (completed.size() <= n) {
          return Optional.empty();
        }
        Instant nth = completed.get(completed.size() - n);
        Optional<Instant> pending = commitsAndCompactions.filter(i -> !i.isCompleted()).firstInstant();
        if (pending.isEmpty() || nth.compareTo(pending.get()) <= 0) {
          return Optional.of(nth);
        }
        // a pending write may still add files next to older slices: stop before it
        String limit = pending.get().time();
        Instant before = null;
        for (Instant c : completed) {
          if (InstantTimes.isBefore(c.time(), limit)) {
            before = c;
          }
        }
        return Optional.ofNullable(before);
      }
      case KEEP_LATEST_BY_HOURS -> {
        String from = InstantTimes.format(now.minus(Duration.ofHours(settings.hoursRetained())), zone);
        return completed.stream().filter(c -> InstantTimes.isBeforeOrEqual(from, c.time())).findFirst();
      }
      default -> {
        return Optional.empty();
      }
    }
  }
}
