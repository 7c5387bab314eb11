package dev.sluice.internal.clean;

import dev.sluice.internal.fsview.FileGroup;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.storage.Storage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Decides which files a clean deletes, as Hudi 0.15's {@code CleanPlanner} does.
 *
 * <p>KEEP_LATEST_COMMITS (and BY_HOURS): with ECTR the earliest commit to retain, a file slice of a file group is
 * deleted only if its base instant is before ECTR, it is not the group's latest slice, it is not the group's newest
 * slice before ECTR (which a query as of ECTR, or one that started before it, still reads), and no pending
 * compaction needs it. Every slice a query as of any retained commit reads therefore stays. File groups replaced
 * before ECTR are deleted whole.
 *
 * <p>KEEP_LATEST_FILE_VERSIONS: all but the newest N slices of each group (N-1 besides the slice a pending compaction
 * reads), and every replaced file group.
 *
 * <p>Slices listed by a savepoint are never deleted; files of writes that are not completed are not in the view and
 * are left to rollback. No partition is ever deleted whole.
 */
public final class CleanPlanner {
  private final Storage storage;
  private final String basePath;
  private final CleanSettings settings;
  private final ZoneId zone;
  private final Function<Timeline, FileSystemView> views;

  /** A planner for the table at {@code basePath} that lists storage; does no I/O. */
  public CleanPlanner(Storage storage, String basePath, CleanSettings settings, ZoneId zone) {
    this(storage, basePath, settings, zone, tl -> FileSystemView.of(storage, basePath, tl));
  }

  private CleanPlanner(Storage storage, String basePath, CleanSettings settings, ZoneId zone,
      Function<Timeline, FileSystemView> views) {
    this.storage = storage;
    this.basePath = basePath;
    this.settings = settings;
    this.zone = zone;
    this.views = views;
  }

  /**
   * A planner for the data table at {@code basePath} that lists its partitions and files through the metadata table
   * when {@code metadataEnabled} and the metadata table is consistent with the timeline (as Hudi's writers plan
   * cleans from the metadata table's file-system view), else storage; does no I/O.
   */
  public static CleanPlanner of(Storage storage, String basePath, CleanSettings settings, ZoneId zone,
      boolean metadataEnabled) {
    if (!metadataEnabled) {
      return new CleanPlanner(storage, basePath, settings, zone);
    }
    return new CleanPlanner(storage, basePath, settings, zone, tl -> MetadataTables.view(storage, basePath, tl,
        TableConfigStore.read(storage, basePath), true));
  }

  /**
   * A planner for the metadata table at {@code metadataBasePath} (its own timeline, HFile base files, partitions
   * listed from storage: the metadata table has no metadata table); does no I/O.
   */
  public static CleanPlanner ofMetadataTable(Storage storage, String metadataBasePath, CleanSettings settings,
      ZoneId zone) {
    return new CleanPlanner(storage, metadataBasePath, settings, zone,
        tl -> FileSystemView.ofMetadataTable(storage, metadataBasePath, tl));
  }

  /**
   * True if enough commits completed since the last completed clean ({@code hoodie.clean.max.commits}), counting
   * from the last clean's {@code lastCompletedCommitTimestamp} ({@code CleanPlanActionExecutor.needsCleaning}).
   */
  public boolean needsCleaning(Timeline timeline) {
    TimelineStore store = new TimelineStore(storage, basePath);
    List<Instant> commits = timeline.commitsTimeline().completed().instants();
    Optional<Instant> lastClean = timeline.filter(i -> i.action() == Action.CLEAN && i.isCompleted()).lastInstant();
    long since = commits.size();
    if (lastClean.isPresent()) {
      Optional<CleanMetadata> md = lastCleanMetadata(store, lastClean.get());
      if (md.isPresent()) {
        String last = md.get().lastCompletedCommit();
        since = commits.stream().filter(c -> InstantTimes.isBefore(last, c.time())).count();
      }
    }
    return since >= settings.maxCommits();
  }

  /** The plan for {@code timeline}; its {@link CleanPlan#isEmpty()} says whether there is anything to delete. */
  public CleanPlan plan(Timeline timeline) {
    return plan(timeline, java.time.Instant.now());
  }

  /** The plan for {@code timeline} with {@code now} as the clock of KEEP_LATEST_BY_HOURS. */
  public CleanPlan plan(Timeline timeline, java.time.Instant now) {
    TimelineStore store = new TimelineStore(storage, basePath);
    Optional<Instant> ectr = RetentionWindow.earliestCommitToRetain(timeline, settings, now, zone);
    String lastCompleted = timeline.commitsTimeline().completed().lastInstant().map(Instant::time).orElse("");
    ProtectedSlices protect = ProtectedSlices.load(store, timeline);
    FileSystemView view = views.apply(timeline);
    Map<String, List<CleanFile>> files = new LinkedHashMap<>();
    List<String> partitions = partitionsToClean(store, timeline, view, ectr, protect);
    // one batched lookup through the metadata table for all of them (a no-op when listing storage)
    view.prefetch(partitions);
    for (String partition : partitions) {
      List<CleanFile> delete = settings.policy() == CleanPolicy.KEEP_LATEST_FILE_VERSIONS
          ? keepingVersions(view, partition, protect)
          : keepingCommits(view, timeline, partition, ectr, protect);
      if (!delete.isEmpty()) {
        files.put(partition, delete);
      }
    }
    Map<String, String> extra = new LinkedHashMap<>();
    if (!protect.savepointTimes().isEmpty()) {
      extra.put(CleanPlan.SAVEPOINTED_TIMESTAMPS, String.join(",", protect.savepointTimes()));
    }
    return new CleanPlan(ectr, lastCompleted, settings.policy(), files, List.of(), extra);
  }

  private List<String> partitionsToClean(TimelineStore store, Timeline timeline, FileSystemView view,
                                         Optional<Instant> ectr, ProtectedSlices protect) {
    if (settings.policy() == CleanPolicy.KEEP_LATEST_FILE_VERSIONS) {
      return view.partitions();
    }
    if (ectr.isEmpty()) {
      return List.of();
    }
    if (settings.incremental()) {
      Optional<List<String>> changed = partitionsChangedSinceLastClean(store, timeline, ectr.get(), protect);
      if (changed.isPresent()) {
        return changed.get();
      }
    }
    return view.partitions();
  }

  /**
   * The partitions written by completed commits in [last clean's ECTR, new ECTR), plus those of savepoints removed
   * since the last clean; empty (meaning: look at every partition) when the last clean gives no usable ECTR.
   */
  private Optional<List<String>> partitionsChangedSinceLastClean(TimelineStore store, Timeline timeline, Instant ectr,
                                                                 ProtectedSlices protect) {
    Optional<Instant> lastClean = timeline.filter(i -> i.action() == Action.CLEAN && i.isCompleted()).lastInstant();
    if (lastClean.isEmpty()) {
      return Optional.empty();
    }
    Optional<CleanMetadata> md = lastCleanMetadata(store, lastClean.get());
    if (md.isEmpty() || md.get().earliestCommitToRetain().isEmpty()) {
      return Optional.empty();
    }
    String previous = md.get().earliestCommitToRetain();
    Timeline commits = timeline.commitsTimeline();
    Optional<Instant> firstCommit = commits.firstNonSavepoint();
    if (firstCommit.isPresent() && InstantTimes.isBefore(previous, firstCommit.get().time())) {
      // the commits since the last clean were partly archived: their partitions are unknown
      return Optional.empty();
    }
    TreeSet<String> out = new TreeSet<>();
    for (Instant c : commits.completed().instants()) {
      if (InstantTimes.isBeforeOrEqual(previous, c.time()) && InstantTimes.isBefore(c.time(), ectr.time())) {
        out.addAll(partitionsOf(store, c));
      }
    }
    String before = md.get().extraMetadata().getOrDefault(CleanPlan.SAVEPOINTED_TIMESTAMPS, "");
    for (String removed : Arrays.stream(before.split(",")).filter(s -> !s.isEmpty()).toList()) {
      if (!protect.savepointTimes().contains(removed)) {
        commits.completed().find(removed).ifPresent(c -> out.addAll(partitionsOf(store, c)));
      }
    }
    return Optional.of(List.copyOf(out));
  }

  private static List<String> partitionsOf(TimelineStore store, Instant commit) {
    Optional<CommitMetadata> md = store.readCommitMetadata(commit);
    List<String> out = new ArrayList<>();
    md.ifPresent(m -> {
      out.addAll(m.partitionToWriteStats().keySet());
      m.partitionToReplaceFileIds().ifPresent(r -> out.addAll(r.keySet()));
    });
    return out;
  }

  private static Optional<CleanMetadata> lastCleanMetadata(TimelineStore store, Instant clean) {
    byte[] bytes = store.readIfExists(clean).orElse(new byte[0]);
    return CleanAvro.decodeMetadata(bytes, store.pathOf(clean));
  }

  private List<CleanFile> keepingCommits(FileSystemView view, Timeline timeline, String partition,
                                         Optional<Instant> ectr, ProtectedSlices protect) {
    List<CleanFile> out = new ArrayList<>();
    int window = settings.policy() == CleanPolicy.KEEP_LATEST_BY_HOURS ? 0 : settings.commitsRetained();
    if (ectr.isEmpty() || timeline.commitsTimeline().completed().instants().size() <= window) {
      return out;
    }
    String retain = ectr.get().time();
    Map<dev.sluice.internal.fsview.FileGroupId, String> replacedAt = view.replacedFileGroupIds();
    for (FileGroup g : view.replacedFileGroups(partition)) {
      String at = replacedAt.get(g.id());
      if (at != null && InstantTimes.isBefore(at, retain)) {
        addUnlessSavepointed(g.slices(), protect, out);
      }
    }
    for (FileGroup g : view.fileGroups(partition)) {
      List<FileSlice> slices = g.slices();
      if (slices.isEmpty()) {
        continue;
      }
      String latest = slices.get(0).baseInstant();
      String latestBeforeRetained = null;
      for (FileSlice s : slices) {
        if (InstantTimes.isBefore(s.baseInstant(), retain)) {
          latestBeforeRetained = s.baseInstant();
          break;
        }
      }
      for (FileSlice s : slices) {
        String t = s.baseInstant();
        if (protect.savepointed(s) || t.equals(latest) || t.equals(latestBeforeRetained)) {
          continue;
        }
        if (!protect.neededForPendingCompaction(s) && InstantTimes.isBefore(t, retain)) {
          addSlice(s, out);
        }
      }
    }
    return out;
  }

  private List<CleanFile> keepingVersions(FileSystemView view, String partition, ProtectedSlices protect) {
    List<CleanFile> out = new ArrayList<>();
    for (FileGroup g : view.replacedFileGroups(partition)) {
      addUnlessSavepointed(g.slices(), protect, out);
    }
    for (FileGroup g : view.fileGroups(partition)) {
      int keep = settings.fileVersionsRetained();
      if (protect.inPendingCompaction(g.id())) {
        // the slice the compaction reads is kept anyway and counts as one of the versions
        keep--;
      }
      Iterator<FileSlice> it = g.slices().stream().filter(s -> !protect.neededForPendingCompaction(s)).iterator();
      while (it.hasNext() && keep > 0) {
        it.next();
        keep--;
      }
      while (it.hasNext()) {
        FileSlice s = it.next();
        if (!protect.savepointed(s)) {
          addSlice(s, out);
        }
      }
    }
    return out;
  }

  private static void addUnlessSavepointed(List<FileSlice> slices, ProtectedSlices protect, List<CleanFile> out) {
    for (FileSlice s : slices) {
      if (!protect.savepointed(s)) {
        addSlice(s, out);
      }
    }
  }

  private static void addSlice(FileSlice s, List<CleanFile> out) {
    s.baseFile().ifPresent(b -> out.add(CleanFile.of(b.path())));
    for (LogFile l : s.logFiles()) {
      out.add(CleanFile.of(l.path()));
    }
  }
}
