package dev.sluice.internal.write;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.api.TableType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Plans a write per file group, as Hudi's upsert partitioner does: tagged records update their file group;
 * inserts first fill file groups whose base file is below the small-file limit, then go to new file groups
 * sized to the target file size by the average record size. Inserts are taken in key order, so each new file covers
 * a narrow key range (which keeps later bloom-index lookups cheap). On Merge-on-Read tables updates and deletes of a
 * file group are appended to its log instead, unless the group is a small file of a partition taking inserts
 * (Hudi's Spark writer: its index cannot see log files, so such a group is rewritten whole).
 *
 * <p>The planner sees the batch as counts ({@link PlanSource}), whether it is held in memory or spilled, so both
 * plan alike. The plan's order is the one a spilled batch's sorted streams are read in ({@link #planOrder}): by
 * partition, within it the small files in the order they take inserts, then the other updated file groups by file
 * id, then the new file groups. One planner per write (it remembers each partition's small files).
 */
final class WritePlanner {
  private static final char SEP = '\u0000';

  private final WriteSetup setup;
  private final long averageRecordSize;
  private final boolean mergeOnRead;
  private final Map<String, List<BaseFile>> smallFiles = new HashMap<>();
  private final Map<FileGroupId, String> orders = new HashMap<>();
  private final Map<String, Map<String, FileSlice>> latestSlices = new HashMap<>();
  private final Map<String, Map<String, BaseFile>> latestBaseFiles = new HashMap<>();

  WritePlanner(WriteSetup setup, long averageRecordSize) {
    this.setup = setup;
    this.averageRecordSize = averageRecordSize;
    this.mergeOnRead = setup.tableConfig().type() == TableType.MERGE_ON_READ;
  }

  /** The plan for the batch of {@code source}; a bulk insert writes new file groups only. */
  List<FileGroupWrite> plan(PlanSource source, FileSystemView view, boolean bulkInsert) {
    Map<String, Long> inserts = source.insertCounts();
    TreeMap<String, PlanSource.TaggedGroup> tagged = new TreeMap<>();
    for (PlanSource.TaggedGroup g : source.taggedGroups()) {
      tagged.put(planOrder(g.id(), view), g);
    }
    TreeSet<String> partitions = new TreeSet<>(inserts.keySet());
    tagged.values().forEach(g -> partitions.add(g.id().partitionPath()));
    List<FileGroupWrite> out = new ArrayList<>();
    for (String p : partitions) {
      long n = inserts.getOrDefault(p, 0L);
      long taken = bulkInsert ? 0 : planExisting(p, n, tagged, view, out);
      List<Long> sizes = newFileGroupSizes(n - taken);
      String prefix = sizes.isEmpty() ? "" : FileNames.newFileIdPrefix();
      for (int b = 0; b < sizes.size(); b++) {
        out.add(new FileGroupWrite.Create(new FileGroupId(p, FileNames.fileId(prefix, b)), sizes.get(b)));
      }
    }
    return out;
  }

  /**
   * Where file group {@code id}'s updates come in a plan, as a string that sorts in plan order: its partition, then
   * {@code 0} and its rank among the partition's small files (in the order they take inserts), or {@code 1} and its
   * file id. A spilled batch sorts its updates by it, so they stream in the order the plan takes them.
   */
  String planOrder(FileGroupId id, FileSystemView view) {
    return orders.computeIfAbsent(id, k -> {
      List<BaseFile> small = smallFileCandidates(id.partitionPath(), view);
      for (int rank = 0; rank < small.size(); rank++) {
        if (small.get(rank).fileId().equals(id.fileId())) {
          return id.partitionPath() + SEP + String.format("0%09d", rank) + SEP;
        }
      }
      return id.partitionPath() + SEP + "1" + id.fileId() + SEP;
    });
  }

  /**
   * Plans the existing file groups of partition {@code p} (which takes {@code n} inserts) into {@code out}: its small
   * files in order, then its other tagged file groups; returns how many of the inserts the small files take.
   */
  private long planExisting(String p, long n, NavigableMap<String, PlanSource.TaggedGroup> tagged,
      FileSystemView view, List<FileGroupWrite> out) {
    List<BaseFile> small = smallFileCandidates(p, view);
    long taken = 0;
    for (BaseFile f : small) {
      FileGroupId id = new FileGroupId(p, f.fileId());
      long take = Math.min(smallFileCapacity(f), n - taken);
      PlanSource.TaggedGroup g = tagged.get(planOrder(id, view));
      long u = g == null ? 0 : g.updates();
      if (n > 0 && (u > 0 || take > 0)) {
        // a small file of a partition taking inserts is rewritten whole, with its updates (Hudi's small file ids)
        out.add(new FileGroupWrite.Merge(id, f, u, take));
      } else if (u > 0) {
        out.add(updateOf(g, view));
      }
      taken += take;
    }
    for (PlanSource.TaggedGroup g : tagged.subMap(p + SEP + "1", true, p + SEP + "2", false).values()) {
      out.add(updateOf(g, view));
    }
    return taken;
  }

  /** The write of a tagged file group's updates alone: a log append (Merge-on-Read) or a merge. */
  private FileGroupWrite updateOf(PlanSource.TaggedGroup g, FileSystemView view) {
    String p = g.id().partitionPath();
    if (mergeOnRead) {
      FileSlice slice = latestSlices.computeIfAbsent(p, k -> byFileId(view.latestSlices(k), s -> s.id().fileId()))
          .get(g.id().fileId());
      if (slice != null) {
        return new FileGroupWrite.Append(g.id(), slice, g.updates());
      }
    } else {
      BaseFile current = latestBaseFiles.computeIfAbsent(p, k -> byFileId(view.latestBaseFiles(k), BaseFile::fileId))
          .get(g.id().fileId());
      if (current != null) {
        return new FileGroupWrite.Merge(g.id(), current, g.updates(), 0);
      }
    }
    throw gone(g.id(), g.baseInstant());
  }

  private static <T> Map<String, T> byFileId(List<T> items, Function<T, String> fileId) {
    Map<String, T> out = new HashMap<>();
    items.forEach(t -> out.put(fileId.apply(t), t));
    return out;
  }

  private static RuntimeException gone(FileGroupId id, String baseInstant) {
    return Errors.conflict("Write to file group " + id,
        "its base file of instant " + baseInstant + " is no longer the latest");
  }

  /** The base files of {@code partition} that take inserts first, in the order they take them (memoised). */
  private List<BaseFile> smallFileCandidates(String partition, FileSystemView view) {
    return smallFiles.computeIfAbsent(partition,
        p -> mergeOnRead ? smallFileSlices(p, view) : smallFiles(p, view));
  }

  /** How many inserts small file {@code f} takes before it reaches the target size. */
  private long smallFileCapacity(BaseFile f) {
    return Math.max(0, (setup.maxFileSize() - f.size()) / averageRecordSize);
  }

  /** How many of {@code n} sorted inserts each new file group takes, in order (equal groups of at most the target size). */
  private List<Long> newFileGroupSizes(long n) {
    if (n == 0) {
      return List.of();
    }
    long perBucket = Math.max(1, setup.maxFileSize() / averageRecordSize);
    int buckets = (int) Math.max(1, (n + perBucket - 1) / perBucket);
    List<Long> out = new ArrayList<>(buckets);
    for (int b = 0; b < buckets; b++) {
      out.add(n * (b + 1) / buckets - n * b / buckets);
    }
    return out;
  }

  /** Copy-on-Write small files: every latest base file below the limit, smallest first. */
  private List<BaseFile> smallFiles(String partition, FileSystemView view) {
    long limit = setup.settings().smallFileLimit();
    List<BaseFile> small = new ArrayList<>();
    if (limit <= 0) {
      return small;
    }
    for (BaseFile f : view.latestBaseFiles(partition)) {
      if (f.size() < limit) {
        small.add(f);
      }
    }
    small.sort(Comparator.comparingLong(BaseFile::size));
    return small;
  }

  /**
   * Merge-on-Read small files, as Hudi's Spark writer picks them ({@code SparkUpsertDeltaCommitPartitioner}, whose
   * index cannot see log files): latest slices with a base file below the limit and no log files yet (a slice with
   * logs cannot take inserts without compacting them), not under a pending compaction; smallest first, at most
   * {@code hoodie.merge.small.file.group.candidates.limit} per partition.
   */
  private List<BaseFile> smallFileSlices(String partition, FileSystemView view) {
    long limit = setup.settings().smallFileLimit();
    int candidates = setup.settings().smallFileGroupCandidates();
    List<BaseFile> small = new ArrayList<>();
    if (limit <= 0 || candidates <= 0) {
      return small;
    }
    Map<FileGroupId, String> pending = view.pendingCompactionOperations();
    for (FileSlice s : view.latestSlices(partition)) {
      if (s.logFiles().isEmpty() && s.baseFile().isPresent() && s.baseFile().get().size() < limit
          && !pending.containsKey(s.id())) {
        small.add(s.baseFile().get());
      }
    }
    small.sort(Comparator.comparingLong(BaseFile::size));
    return small.size() > candidates ? new ArrayList<>(small.subList(0, candidates)) : small;
  }
}
