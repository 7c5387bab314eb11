package dev.sluice.internal.archive;

import dev.sluice.internal.clean.CleanAvro;
import dev.sluice.internal.clean.CleanPlan;
import dev.sluice.internal.clean.CleanPolicy;
import dev.sluice.internal.clean.CleanSettings;
import dev.sluice.internal.clean.RetentionWindow;
import dev.sluice.api.TableType;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which instants archival moves off the active timeline, as Hudi 0.15's {@code HoodieTimelineArchiver} chooses them.
 *
 * <ul>
 *   <li>Completed cleans and rollbacks: per action, once more than max exist, the oldest down to min.</li>
 *   <li>Completed commits (commit, deltacommit, replacecommit, compaction commits): once more than max exist, the
 *       oldest down to min, but only those before the first savepoint, before the newest completed commit that
 *       precedes the oldest pending write or compaction, before the instant MoR compaction scheduling still counts
 *       from, and before the oldest replacecommit whose replaced files may not be cleaned yet.</li>
 *   <li>min and max are raised so that the cleaner's earliest commit to retain and the commit before it stay
 *       active ({@code ArchivalUtils.getMinAndMaxInstantsToKeep}).</li>
 * </ul>
 */
final class ArchivalPlanner {
  private final ArchiveSettings settings;
  private final CleanSettings cleanSettings;
  private final TableType tableType;
  private final ZoneId zone;

  ArchivalPlanner(ArchiveSettings settings, CleanSettings cleanSettings, TableType tableType, ZoneId zone) {
    this.settings = settings;
    this.cleanSettings = cleanSettings;
    this.tableType = tableType;
    this.zone = zone;
  }

  /** min and max after the cleaner's window is taken into account. */
  int[] bounds(Timeline timeline) {
    List<Instant> commits = timeline.commitsTimeline().completed().instants();
    Optional<Instant> ectr = RetentionWindow.earliestCommitToRetain(timeline, cleanSettings, clock(commits), zone);
    int min = settings.minCommits();
    int max = settings.maxCommits();
    if (ectr.isPresent()) {
      int needed = (int) commits.stream().filter(c -> InstantTimes.isBefore(ectr.get().time(), c.time())).count() + 2;
      if (min < needed) {
        max = needed + max - min;
        min = needed;
      }
    }
    return new int[] {min, max};
  }

  /**
   * The clock of KEEP_LATEST_BY_HOURS: the last commit's time (ArchivalUtils); the current time if there is none or
   * it is not a date (Hudi then skips the adjustment, which an unparsable clock gives here too).
   */
  private java.time.Instant clock(List<Instant> commits) {
    if (commits.isEmpty() || cleanSettings.policy() != CleanPolicy.KEEP_LATEST_BY_HOURS) {
      return java.time.Instant.now();
    }
    String last = commits.get(commits.size() - 1).time();
    if (last.length() < InstantTimes.SECONDS_LENGTH) {
      // not a date: no commit is within the window
      return java.time.Instant.EPOCH;
    }
    return InstantTimes.toTime(last, zone);
  }

  /**
   * The instants to archive, each in its latest (completed) state. Version 6 (Hudi 0.15's archiver): cleans and
   * rollbacks first, each action on its own min/max count, then commits. Versions 8/9 (Hudi 1.x's
   * {@code TimelineArchiverV2}): the commits, then every completed clean and rollback requested before the newest
   * commit archived, ascending: 1.x archives cleans and rollbacks only behind the commits they belong to, so the
   * active timeline keeps one continuous stretch of instants.
   */
  List<Instant> select(Timeline timeline, TimelineStore store) {
    int[] b = bounds(timeline);
    int min = b[0];
    int max = b[1];
    if (timeline.layout().archivesToLsmTimeline()) {
      List<Instant> commits = commitsToArchive(timeline, store, min, max);
      if (commits.isEmpty()) {
        return commits;
      }
      String newest = commits.get(commits.size() - 1).time();
      List<Instant> out = new ArrayList<>(commits);
      out.addAll(timeline.filter(i -> (i.action() == Action.CLEAN || i.action() == Action.ROLLBACK) && i.isCompleted()
          && InstantTimes.isBefore(i.time(), newest)).instants());
      out.sort(null);
      return out;
    }
    List<Instant> out = new ArrayList<>();
    for (Action a : new Action[] {Action.CLEAN, Action.ROLLBACK}) {
      List<Instant> done = timeline.filter(i -> i.action() == a && i.isCompleted()).instants();
      if (done.size() > max) {
        out.addAll(done.subList(0, done.size() - min));
      }
    }
    out.addAll(commitsToArchive(timeline, store, min, max));
    return out;
  }

  /** The completed commits to archive, oldest first, with min and max as {@link #bounds} gives them. */
  private List<Instant> commitsToArchive(Timeline timeline, TimelineStore store, int min, int max) {
    List<Instant> out = new ArrayList<>();
    List<Instant> commits = timeline.commitsTimeline().completed().instants();
    if (commits.size() <= max) {
      return out;
    }
    List<Limit> limits = limits(timeline, store, commits);
    int allowed = commits.size() - min;
    for (Instant c : commits) {
      if (allowed == 0) {
        break;
      }
      boolean before = limits.stream().allMatch(l -> InstantTimes.isBefore(c.time(), l.time()));
      if (before) {
        out.add(c);
        allowed--;
      }
    }
    return out;
  }

  /** An instant commits are archived only before, and what it is (for {@link #heldBack}). */
  private record Limit(String time, String what) {
  }

  /** The instants that hold commits back, those that apply to {@code timeline}. */
  private List<Limit> limits(Timeline timeline, TimelineStore store, List<Instant> commits) {
    List<Limit> out = new ArrayList<>();
    oldestCommitToRetain(timeline, commits).ifPresent(t -> out.add(new Limit(t,
        "a pending write or compaction (the commits from " + t + " on stay until it completes or is rolled back)")));
    timeline.filter(i -> i.action() == Action.SAVEPOINT && i.isCompleted()).firstInstant().map(Instant::time)
        .ifPresent(t -> out.add(new Limit(t, "the savepoint " + t + " (the commits from it on stay until it is deleted)")));
    if (tableType == TableType.MERGE_ON_READ) {
      retainedForCompaction(timeline).ifPresent(t -> out.add(new Limit(t, "compaction scheduling, which counts delta "
          + "commits from " + t + " (hoodie.compact.inline.max.delta.commits=" + settings.maxDeltaCommits() + ")")));
    }
    retainedForClustering(timeline, store).ifPresent(t -> out.add(new Limit(t, "the replacecommit " + t
        + ", whose replaced files the cleaner has not deleted yet")));
    return out;
  }

  /**
   * Why {@link #select} chooses nothing from {@code timeline}: too few commits for the configured bounds, or the
   * limits that hold the oldest commit back, each with the instant and setting behind it.
   */
  String heldBack(Timeline timeline, TimelineStore store) {
    int[] b = bounds(timeline);
    List<Instant> commits = timeline.commitsTimeline().completed().instants();
    String raised = b[1] != settings.maxCommits() ? " (raised from " + settings.maxCommits() + " and "
        + settings.minCommits() + " so that the cleaner's earliest commit to retain and the commit before it stay)" : "";
    if (commits.size() <= b[1]) {
      return commits.size() + " completed commits are on the active timeline; archival starts when there are more than "
          + "hoodie.keep.max.commits=" + b[1] + " and keeps the newest hoodie.keep.min.commits=" + b[0] + raised;
    }
    String oldest = commits.get(0).time();
    List<String> held = limits(timeline, store, commits).stream()
        .filter(l -> !InstantTimes.isBefore(oldest, l.time())).map(Limit::what).toList();
    return commits.size() + " completed commits are on the active timeline, more than hoodie.keep.max.commits=" + b[1]
        + raised + ", but the oldest, " + oldest + ", is held back by " + String.join(" and by ", held);
  }

  /** The newest completed commit before the oldest pending write (or that pending instant if none precedes it). */
  private static Optional<String> oldestCommitToRetain(Timeline timeline, List<Instant> commits) {
    Optional<Instant> pending = timeline.writeTimeline().filter(i -> !i.isCompleted()).firstInstant();
    if (pending.isEmpty()) {
      return Optional.empty();
    }
    String p = pending.get().time();
    Instant before = null;
    for (Instant c : commits) {
      if (InstantTimes.isBefore(c.time(), p)) {
        before = c;
      }
    }
    return Optional.of(before == null ? p : before.time());
  }

  /**
   * MoR: the last completed compaction (or the first delta commit) while fewer than the trigger's delta commits
   * follow it, else the delta commit from which the trigger counts ({@code getOldestInstantToRetainForCompaction}).
   */
  private Optional<String> retainedForCompaction(Timeline timeline) {
    Optional<Instant> lastCompaction = timeline.filter(i -> i.action() == Action.COMMIT && i.isCompleted()).lastInstant();
    List<Instant> deltas = timeline.filter(i -> i.action() == Action.DELTACOMMIT).instants();
    Instant anchor;
    List<Instant> counted;
    if (lastCompaction.isPresent()) {
      anchor = lastCompaction.get();
      counted = deltas.stream().filter(d -> InstantTimes.isBefore(anchor.time(), d.time())).toList();
    } else if (!deltas.isEmpty()) {
      anchor = deltas.get(0);
      counted = deltas;
    } else {
      return Optional.empty();
    }
    int max = settings.maxDeltaCommits();
    if (counted.size() < max) {
      return Optional.of(anchor.time());
    }
    return Optional.of(counted.get(counted.size() - max).time());
  }

  /**
   * The oldest replacecommit at or after the last clean's earliest retained commit (its replaced files may still be
   * on storage, and without it readers would see them again), or before a pending replacecommit
   * ({@code ClusteringUtils.getOldestInstantToRetainForClustering}).
   */
  private static Optional<String> retainedForClustering(Timeline timeline, TimelineStore store) {
    // a version-8/9 clustering is pending as a clustering and completes as a replacecommit
    Timeline replaces = timeline.filter(i -> i.action() == Action.REPLACECOMMIT || i.action() == Action.CLUSTERING);
    if (replaces.isEmpty()) {
      return Optional.empty();
    }
    Optional<Instant> lastClean = timeline.filter(i -> i.action() == Action.CLEAN && i.isCompleted()).lastInstant();
    Optional<Instant> oldest;
    if (lastClean.isPresent()) {
      Instant requested = Instant.requested(lastClean.get().time(), Action.CLEAN);
      String lower = store.readIfExists(requested)
          .flatMap(bytes -> CleanAvro.decodePlan(bytes, store.basePath(), store.pathOf(requested)))
          .flatMap(CleanPlan::earliestInstantToRetain).map(Instant::time)
          // KEEP_LATEST_FILE_VERSIONS: replaced groups were all cleaned up to the clean itself
          .orElse(lastClean.get().time());
      oldest = replaces.filter(r -> InstantTimes.isBeforeOrEqual(lower, r.time())).firstInstant();
    } else {
      oldest = replaces.firstInstant();
    }
    Optional<Instant> pending = replaces.filter(r -> !r.isCompleted()).firstInstant();
    if (pending.isPresent()) {
      Optional<Instant> before = timeline.commitsTimeline().completed()
          .filter(c -> InstantTimes.isBefore(c.time(), pending.get().time())).lastInstant();
      if (before.isPresent() && oldest.map(o -> o.compareTo(before.get()) > 0).orElse(true)) {
        oldest = before;
      }
    }
    return oldest.map(Instant::time);
  }
}
