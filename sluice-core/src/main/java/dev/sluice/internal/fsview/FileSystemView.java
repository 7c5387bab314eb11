package dev.sluice.internal.fsview;

import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.lsm.LsmTimeline;
import dev.sluice.internal.table.TableConfigStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which data files of a table are visible at a timeline snapshot ({@code AbstractTableFileSystemView},
 * {@code HoodieFileGroup}). A file slice is visible if its base instant is at or before the last completed
 * write (or pending compaction) and is a completed write instant, a pending compaction, or older than the first
 * write instant of the active timeline (archived, hence committed). Base files written by a pending compaction
 * are dropped; file groups replaced by a completed replacecommit are hidden.
 *
 * <p>One difference from Hudi is deliberate: "the timeline starts" at the first write instant in any state, so
 * files of a failed or running write that is older than every completed one stay hidden (Hudi measures from the
 * first completed instant and would show them).
 *
 * <p>Which slice a log file belongs to depends on the table version ({@link LogPlacement}): the slice named in its
 * file name (version 6), or the slice its delta commit's completion time falls in (versions 8 and 9, whose views also
 * leave out the logs of delta commits that did not complete).
 *
 * <p>Listings are made lazily, once per directory, and shared with views made by {@link #asOf}; the view is
 * thread-safe.
 */
public final class FileSystemView {
  private final Shared shared;
  private final Timeline timeline;
  private final Timeline visible;
  private final Optional<String> start;
  private final Optional<String> lastVisible;
  private final LogPlacement placement;
  private final Map<String, Groups> groups = new ConcurrentHashMap<>();
  private volatile Map<FileGroupId, String> pendingCompactionOps;
  private volatile Map<FileGroupId, String> replacedGroups;

  private FileSystemView(Shared shared, Timeline timeline) {
    this.shared = shared;
    this.timeline = timeline;
    Timeline writes = timeline.writeTimeline();
    this.visible = writes.completedAndPendingCompactions();
    this.start = writes.firstNonSavepoint().map(Instant::time);
    this.lastVisible = visible.lastInstant().map(Instant::time);
    this.placement = LogPlacement.of(timeline, shared::archivedCompletionTimes);
  }

  /** A view of the table at {@code basePath} as of {@code timeline}, listing storage; does no I/O until asked. */
  public static FileSystemView of(Storage storage, String basePath, Timeline timeline) {
    return of(storage, basePath, timeline, new StorageListing(storage, basePath));
  }

  /** A view of the table at {@code basePath} as of {@code timeline} with files from {@code listing}. */
  public static FileSystemView of(Storage storage, String basePath, Timeline timeline, FileListing listing) {
    return new FileSystemView(new Shared(storage, basePath, timeline.layout(), listing, FileNames.PARQUET_EXTENSION),
        timeline);
  }

  /**
   * A view of a metadata table (at {@code .hoodie/metadata}) as of its own {@code timeline}: its base files are
   * HFiles ({@code .hfile}), its partitions {@code files}, {@code record_index}, ... listed from storage.
   */
  public static FileSystemView ofMetadataTable(Storage storage, String metadataBasePath, Timeline timeline) {
    return new FileSystemView(new Shared(storage, metadataBasePath, timeline.layout(),
        new StorageListing(storage, metadataBasePath), FileNames.HFILE_EXTENSION), timeline);
  }

  /** The view with the timeline cut at {@code instantTime} (instants after it are ignored); shares listings. */
  public FileSystemView asOf(String instantTime) {
    return new FileSystemView(shared, timeline.asOf(instantTime));
  }

  /**
   * The view as of {@code other}, sharing this view's listings (files already listed are not listed again): for a
   * timeline of the same table whose listing is this one's, e.g. this view's timeline plus a write's requested instant.
   */
  public FileSystemView withTimeline(Timeline other) {
    return new FileSystemView(shared, other);
  }

  /** The timeline this view is built on. */
  public Timeline timeline() {
    return timeline;
  }

  /** The number of storage list calls made by this view and the views sharing its listings. */
  public long listCalls() {
    return shared.listing.listCalls();
  }

  /**
   * The relative paths of all partitions, sorted: from the listing (a walk of storage for directories holding a
   * {@code .hoodie_partition_metadata*} file, or the metadata table's partition list).
   */
  public List<String> partitions() {
    return shared.listing.partitions();
  }

  /** Fetches the files of {@code partitions} in one request where the listing can (the metadata table). */
  public void prefetch(Collection<String> partitions) {
    shared.listing.prefetch(partitions);
  }

  /** Fetches the partition list and every partition's files, in one request where the listing can. */
  public void prefetchAll() {
    shared.listing.prefetchAll();
  }

  /** True if {@link #prefetchAll} is one request (the metadata table), false if it lists every partition. */
  public boolean listsAllInOneRequest() {
    return shared.listing.listsAllInOneRequest();
  }

  /** Where this view's partitions and files come from: {@code storage} or {@code metadata table}. */
  public String listingSource() {
    return shared.listing.source();
  }

  /** The visible, not replaced file groups of a partition, sorted by file id (one listing per partition). */
  public List<FileGroup> fileGroups(String partition) {
    return groups(partition).visible();
  }

  /** File groups of the partition that a completed replacecommit replaced (still on storage until cleaned). */
  public List<FileGroup> replacedFileGroups(String partition) {
    return groups(partition).replaced();
  }

  /** One file group, if visible. */
  public Optional<FileGroup> fileGroup(FileGroupId id) {
    for (FileGroup g : fileGroups(id.partitionPath())) {
      if (g.id().equals(id)) {
        return Optional.of(g);
      }
    }
    return Optional.empty();
  }

  /** The newest visible base file of each file group (CoW snapshot, MoR read-optimized). */
  public List<BaseFile> latestBaseFiles(String partition) {
    List<BaseFile> out = new ArrayList<>();
    for (FileGroup g : fileGroups(partition)) {
      g.latestBaseFile().ifPresent(out::add);
    }
    return out;
  }

  /**
   * The newest slice of each file group. For a group under pending compaction this is the slice at the
   * compaction instant (without base file; possibly empty), where new log files must go.
   */
  public List<FileSlice> latestSlices(String partition) {
    List<FileSlice> out = new ArrayList<>();
    for (FileGroup g : fileGroups(partition)) {
      g.latestSlice().ifPresent(out::add);
    }
    return out;
  }

  /**
   * The newest slice of each file group for reading (MoR snapshot): if it is the slice of a pending compaction,
   * it is merged with the slice before it: that slice's base file, its log files, then the new slice's logs
   * ({@code getLatestMergedFileSlicesBeforeOrOn}).
   */
  public List<FileSlice> latestMergedSlices(String partition) {
    Map<FileGroupId, String> pending = pendingCompactionOperations();
    List<FileSlice> out = new ArrayList<>();
    for (FileGroup g : fileGroups(partition)) {
      Optional<FileSlice> latest = g.latestSlice();
      if (latest.isEmpty()) {
        continue;
      }
      out.add(mergedWithPendingCompaction(g, latest.get(), pending));
    }
    return out;
  }

  /**
   * Per file group not replaced at or before {@code maxInstant}, its newest slice whose base instant is at or before
   * {@code maxInstant}, merged with the slice before it when it is a pending compaction's
   * ({@code getLatestMergedFileSlicesBeforeOrOn} over the whole timeline, not one cut at {@code maxInstant}: a
   * compaction requested later still opens its slice, and logs placed in it are not before {@code maxInstant}).
   */
  public List<FileSlice> latestMergedSlicesBeforeOrOn(String partition, String maxInstant) {
    Map<FileGroupId, String> pending = pendingCompactionOperations();
    Map<FileGroupId, String> replaced = replacedFileGroupIds();
    List<FileGroup> candidates = new ArrayList<>(fileGroups(partition));
    for (FileGroup g : replacedFileGroups(partition)) {
      if (InstantTimes.isBefore(maxInstant, replaced.get(g.id()))) {
        candidates.add(g);
      }
    }
    candidates.sort(Comparator.comparing(FileGroup::id));
    List<FileSlice> out = new ArrayList<>();
    for (FileGroup g : candidates) {
      Optional<FileSlice> latest = g.slices().stream()
          .filter(s -> InstantTimes.isBeforeOrEqual(s.baseInstant(), maxInstant)).findFirst();
      if (latest.isEmpty()) {
        continue;
      }
      out.add(mergedWithPendingCompaction(g, latest.get(), pending));
    }
    return out;
  }

  /**
   * {@code slice} of {@code g}, merged with the slice before it when it is the slice a pending compaction opened
   * (that slice's base file, its log files, then this slice's logs); {@code slice} itself otherwise.
   */
  private static FileSlice mergedWithPendingCompaction(FileGroup g, FileSlice slice, Map<FileGroupId, String> pending) {
    String compaction = pending.get(g.id());
    if (compaction == null || !compaction.equals(slice.baseInstant())) {
      return slice;
    }
    Optional<FileSlice> prev = g.latestSliceBefore(compaction);
    if (prev.isEmpty()) {
      return slice;
    }
    List<LogFile> logs = new ArrayList<>(prev.get().logFiles());
    logs.addAll(slice.logFiles());
    return new FileSlice(g.id(), prev.get().baseInstant(), prev.get().baseFile(), logs);
  }

  /**
   * File groups under a pending compaction of this view's timeline, mapped to the compaction instant time
   * (read from the {@code .compaction.requested} plans).
   */
  public Map<FileGroupId, String> pendingCompactionOperations() {
    Map<FileGroupId, String> m = pendingCompactionOps;
    if (m == null) {
      Map<FileGroupId, String> built = new HashMap<>();
      for (Instant c : timeline.pendingCompactions()) {
        for (FileGroupId id : shared.planFileGroups(c.time())) {
          built.put(id, c.time());
        }
      }
      m = Collections.unmodifiableMap(built);
      pendingCompactionOps = m;
    }
    return m;
  }

  /** File groups replaced by completed replacecommits of this view's timeline, mapped to the replace instant. */
  public Map<FileGroupId, String> replacedFileGroupIds() {
    Map<FileGroupId, String> m = replacedGroups;
    if (m == null) {
      Map<FileGroupId, String> built = new HashMap<>();
      for (Instant r : timeline.filter(i -> i.isCompleted() && i.action() == Action.REPLACECOMMIT).instants()) {
        shared.replacedFileIds(r).forEach((partition, ids) -> {
          for (String id : ids) {
            // the newest replace wins when two replaced the same group (Hudi's merge rule)
            built.merge(new FileGroupId(partition, id), r.time(), (a, b) -> InstantTimes.isBefore(a, b) ? b : a);
          }
        });
      }
      m = Collections.unmodifiableMap(built);
      replacedGroups = m;
    }
    return m;
  }

  /** True if a slice with this base instant is visible in this view. */
  boolean isVisible(String baseInstant) {
    if (lastVisible.isEmpty() || InstantTimes.isBefore(lastVisible.get(), baseInstant)) {
      return false;
    }
    return visible.contains(baseInstant) || (start.isPresent() && InstantTimes.isBefore(baseInstant, start.get()));
  }

  private Groups groups(String partition) {
    return groups.computeIfAbsent(partition, this::build);
  }

  private Groups build(String partition) {
    Map<String, TreeMap<String, SliceBuilder>> byFileId = new TreeMap<>();
    Map<String, List<LogFile>> logsByFileId = new HashMap<>();
    for (FileInfo f : shared.listing.files(partition)) {
      if (f.directory() || !FileNames.isDataFileCandidate(f.name())) {
        continue;
      }
      String name = f.name();
      Optional<BaseFileName> base = FileNames.parseBase(name);
      if (base.isPresent()) {
        BaseFileName b = base.get();
        if (!b.extension().equals(shared.baseExtension)) {
          continue;
        }
        slice(byFileId, b.fileId(), b.instantTime()).base =
            new BaseFile(f.path(), name, b.fileId(), b.instantTime(), f.length());
        continue;
      }
      Optional<LogFileName> log = FileNames.parseLog(name);
      if (log.isPresent()) {
        LogFileName l = log.get();
        byFileId.computeIfAbsent(l.fileId(), k -> new TreeMap<>());
        logsByFileId.computeIfAbsent(l.fileId(), k -> new ArrayList<>()).add(new LogFile(f.path(), name, l.fileId(),
            l.baseInstant(), l.version(), l.writeToken().orElse(""), f.length()));
      }
    }
    Map<FileGroupId, String> pending = pendingCompactionOperations();
    Map<FileGroupId, String> replaced = replacedFileGroupIds();
    List<FileGroup> visibleGroups = new ArrayList<>();
    List<FileGroup> replacedList = new ArrayList<>();
    for (Map.Entry<String, TreeMap<String, SliceBuilder>> e : byFileId.entrySet()) {
      FileGroupId id = new FileGroupId(partition, e.getKey());
      String compaction = pending.get(id);
      if (compaction != null) {
        // a requested compaction opens a new slice for writers (before the logs are placed: by completion time, a
        // log completed after the plan belongs to it), and its partial output is not data yet
        e.getValue().computeIfAbsent(compaction, k -> new SliceBuilder()).base = null;
      }
      List<LogFile> logs = logsByFileId.getOrDefault(e.getKey(), new ArrayList<>());
      logs.sort(null);
      for (LogFile log : logs) {
        placement.sliceOf(log, e.getValue().navigableKeySet())
            .ifPresent(slice -> e.getValue().computeIfAbsent(slice, k -> new SliceBuilder()).logs.add(log));
      }
      List<FileSlice> slices = new ArrayList<>();
      for (Map.Entry<String, SliceBuilder> s : e.getValue().descendingMap().entrySet()) {
        if (isVisible(s.getKey())) {
          slices.add(new FileSlice(id, s.getKey(), Optional.ofNullable(s.getValue().base), s.getValue().logs));
        }
      }
      if (slices.isEmpty()) {
        continue;
      }
      FileGroup g = new FileGroup(id, slices);
      (replaced.containsKey(id) ? replacedList : visibleGroups).add(g);
    }
    visibleGroups.sort(Comparator.comparing(FileGroup::id));
    replacedList.sort(Comparator.comparing(FileGroup::id));
    return new Groups(List.copyOf(visibleGroups), List.copyOf(replacedList));
  }

  private static SliceBuilder slice(Map<String, TreeMap<String, SliceBuilder>> byFileId, String fileId, String instant) {
    return byFileId.computeIfAbsent(fileId, k -> new TreeMap<>()).computeIfAbsent(instant, k -> new SliceBuilder());
  }

  private static final class SliceBuilder {
    private BaseFile base;
    private final List<LogFile> logs = new ArrayList<>();
  }

  private record Groups(List<FileGroup> visible, List<FileGroup> replaced) {
  }

  /** What views of one table at different instants share: storage, listings, parsed plans. */
  private static final class Shared {
    private final TimelineStore store;
    private final FileListing listing;
    private final String baseExtension;
    private final Map<String, List<FileGroupId>> plans = new ConcurrentHashMap<>();
    private final Map<String, Map<String, List<String>>> replaces = new ConcurrentHashMap<>();

    private final Storage storage;
    private final String basePath;
    private volatile Map<String, String> archivedCompletionTimes;

    Shared(Storage storage, String basePath, TimelineLayout layout, FileListing listing, String baseExtension) {
      this.storage = storage;
      this.basePath = basePath;
      this.store = new TimelineStore(storage, basePath, layout);
      this.listing = listing;
      this.baseExtension = baseExtension;
    }

    /**
     * The completion times of the layout-2 archived timeline, read on first use (only a log of an archived delta
     * commit needs them) and kept for the views sharing this listing.
     */
    Map<String, String> archivedCompletionTimes() {
      Map<String, String> m = archivedCompletionTimes;
      if (m == null) {
        synchronized (this) {
          m = archivedCompletionTimes;
          if (m == null) {
            m = Map.copyOf(LsmTimeline.of(storage, basePath, TableConfigStore.read(storage, basePath)).completionTimes());
            archivedCompletionTimes = m;
          }
        }
      }
      return m;
    }

    List<FileGroupId> planFileGroups(String compactionTime) {
      return plans.computeIfAbsent(compactionTime, t -> {
        Instant requested = Instant.requested(t, Action.COMPACTION);
        return store.readIfExists(requested)
            .map(bytes -> CompactionPlanFiles.fileGroups(bytes, store.pathOf(requested)))
            .map(List::copyOf)
            .orElse(List.of());
      });
    }

    Map<String, List<String>> replacedFileIds(Instant replace) {
      return replaces.computeIfAbsent(replace.time(), t -> store.readCommitMetadata(replace)
          .flatMap(CommitMetadata::partitionToReplaceFileIds)
          // archived or cleaned meanwhile: nothing to hide (Hudi ignores a missing replace file too)
          .orElse(Map.of()));
    }
  }
}
