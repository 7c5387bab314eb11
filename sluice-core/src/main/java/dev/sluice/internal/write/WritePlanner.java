package dev.sluice.internal.write;

import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.index.Location;
import dev.sluice.internal.index.TaggedRecord;
import dev.sluice.api.TableType;
import dev.sluice.internal.util.KeySort;
import dev.sluice.internal.util.Parallel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Plans a write per file group, as Hudi's upsert partitioner does: tagged records update their file group;
 * inserts first fill file groups whose base file is below the small-file limit, then go to new file groups
 * sized to the target file size by the average record size. Inserts are sorted by key before they are split,
 * so each new file covers a narrow key range (which keeps later bloom-index lookups cheap). On Merge-on-Read
 * tables updates and deletes of a file group are appended to its log instead, unless the group is the
 * partition's small file taking inserts (Hudi's Spark writer: its index cannot see log files).
 */
final class WritePlanner {
  private final WriteSetup setup;
  private final long averageRecordSize;
  private final boolean mergeOnRead;

  WritePlanner(WriteSetup setup, long averageRecordSize) {
    this.setup = setup;
    this.averageRecordSize = averageRecordSize;
    this.mergeOnRead = setup.tableConfig().type() == TableType.MERGE_ON_READ;
  }

  /** The plan for a tagged batch. */
  List<FileGroupWrite> plan(List<TaggedRecord> tagged, FileSystemView view) {
    Map<FileGroupId, Map<String, WriteRecord>> updates = new LinkedHashMap<>();
    Map<FileGroupId, String> baseInstants = new HashMap<>();
    Map<String, List<WriteRecord>> insertsByPartition = new TreeMap<>();
    for (TaggedRecord t : tagged) {
      WriteRecord r = t.record();
      if (t.location().isPresent()) {
        Location loc = t.location().get();
        FileGroupId id = new FileGroupId(loc.partitionPath(), loc.fileId());
        updates.computeIfAbsent(id, k -> new LinkedHashMap<>()).put(r.key(), r);
        baseInstants.put(id, loc.baseInstant());
      } else if (!r.isDelete()) {
        insertsByPartition.computeIfAbsent(r.partitionPath(), p -> new ArrayList<>()).add(r);
      }
    }
    Map<FileGroupId, BaseFile> currentFiles = new HashMap<>();
    Map<FileGroupId, FileSlice> latestSlices = new HashMap<>();
    for (String partition : partitionsOf(updates, insertsByPartition)) {
      for (BaseFile f : view.latestBaseFiles(partition)) {
        currentFiles.put(new FileGroupId(partition, f.fileId()), f);
      }
      if (mergeOnRead) {
        for (FileSlice s : view.latestSlices(partition)) {
          latestSlices.put(s.id(), s);
        }
      }
    }
    Map<FileGroupId, List<WriteRecord>> smallFileInserts = new LinkedHashMap<>();
    Set<FileGroupId> smallFileGroups = new HashSet<>();
    List<FileGroupWrite> out = new ArrayList<>();
    Parallel.map(new ArrayList<>(insertsByPartition.values()), setup.parallelism(), WritePlanner::sortByKey);
    for (Map.Entry<String, List<WriteRecord>> e : insertsByPartition.entrySet()) {
      List<WriteRecord> inserts = e.getValue();
      List<BaseFile> small = smallFileCandidates(e.getKey(), view);
      small.forEach(f -> smallFileGroups.add(new FileGroupId(e.getKey(), f.fileId())));
      int next = assignToSmallFiles(e.getKey(), inserts, small, smallFileInserts);
      out.addAll(newFileGroups(e.getKey(), inserts.subList(next, inserts.size())));
    }
    List<FileGroupWrite> writes = new ArrayList<>();
    for (Map.Entry<FileGroupId, Map<String, WriteRecord>> e : updates.entrySet()) {
      FileGroupId id = e.getKey();
      // MoR: updates go to the log, except in a small file group taking inserts, which is rewritten whole
      if (mergeOnRead && !smallFileGroups.contains(id)) {
        FileSlice slice = latestSlices.get(id);
        if (slice == null) {
          throw gone(id, baseInstants.get(id));
        }
        writes.add(new FileGroupWrite.Append(id, slice, e.getValue()));
        continue;
      }
      BaseFile current = currentFiles.get(id);
      if (current == null) {
        throw gone(id, baseInstants.get(id));
      }
      writes.add(new FileGroupWrite.Merge(id, current, e.getValue(), smallFileInserts.getOrDefault(id, List.of())));
    }
    for (Map.Entry<FileGroupId, List<WriteRecord>> e : smallFileInserts.entrySet()) {
      if (!updates.containsKey(e.getKey())) {
        writes.add(new FileGroupWrite.Merge(e.getKey(), currentFiles.get(e.getKey()), Map.of(), e.getValue()));
      }
    }
    writes.addAll(out);
    return writes;
  }

  private static RuntimeException gone(FileGroupId id, String baseInstant) {
    return Errors.conflict("Write to file group " + id,
        "its base file of instant " + baseInstant + " is no longer the latest");
  }

  private static List<String> partitionsOf(Map<FileGroupId, ?> updates, Map<String, ?> inserts) {
    List<String> parts = new ArrayList<>(inserts.keySet());
    for (FileGroupId id : updates.keySet()) {
      if (!parts.contains(id.partitionPath())) {
        parts.add(id.partitionPath());
      }
    }
    return parts;
  }

  /** True for a Merge-on-Read table (updates go to logs). */
  boolean mergeOnRead() {
    return mergeOnRead;
  }

  /** The base files of {@code partition} that take inserts first, in the order they take them. */
  List<BaseFile> smallFileCandidates(String partition, FileSystemView view) {
    return mergeOnRead ? smallFileSlices(partition, view) : smallFiles(partition, view);
  }

  /** How many inserts small file {@code f} takes before it reaches the target size. */
  long smallFileCapacity(BaseFile f) {
    return Math.max(0, (setup.maxFileSize() - f.size()) / averageRecordSize);
  }

  /** How many of {@code n} sorted inserts each new file group takes, in order (equal groups of at most the target size). */
  List<Long> newFileGroupSizes(long n) {
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
    long limit = setup.config().get(ConfigKeys.SMALL_FILE_LIMIT);
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
    long limit = setup.config().get(ConfigKeys.SMALL_FILE_LIMIT);
    int candidates = setup.config().get(ConfigKeys.MERGE_SMALL_FILE_GROUP_CANDIDATES_LIMIT);
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

  /** Fills small files in the given order; returns the index of the first unassigned insert. */
  private int assignToSmallFiles(String partition, List<WriteRecord> inserts, List<BaseFile> small,
      Map<FileGroupId, List<WriteRecord>> assigned) {
    int next = 0;
    for (BaseFile f : small) {
      if (next >= inserts.size()) {
        break;
      }
      long capacity = smallFileCapacity(f);
      if (capacity <= 0) {
        continue;
      }
      int take = (int) Math.min(capacity, inserts.size() - next);
      assigned.put(new FileGroupId(partition, f.fileId()), new ArrayList<>(inserts.subList(next, next + take)));
      next += take;
    }
    return next;
  }

  /** Sorts {@code records} by record key in place (and returns them). */
  static List<WriteRecord> sortByKey(List<WriteRecord> records) {
    // a comparator reading each record's key cost seconds per million records (KeySort says why)
    KeySort.sort(records, WriteRecord::key);
    return records;
  }

  /** Splits sorted inserts into equal new file groups of at most the target size. */
  List<FileGroupWrite> newFileGroups(String partition, List<WriteRecord> inserts) {
    if (inserts.isEmpty()) {
      return List.of();
    }
    long perBucket = Math.max(1, setup.maxFileSize() / averageRecordSize);
    int buckets = (int) Math.max(1, (inserts.size() + perBucket - 1) / perBucket);
    String prefix = FileNames.newFileIdPrefix();
    List<FileGroupWrite> out = new ArrayList<>(buckets);
    int n = inserts.size();
    for (int b = 0; b < buckets; b++) {
      int from = (int) ((long) n * b / buckets);
      int to = (int) ((long) n * (b + 1) / buckets);
      out.add(new FileGroupWrite.Create(new FileGroupId(partition, FileNames.fileId(prefix, b)),
          new ArrayList<>(inserts.subList(from, to))));
    }
    return out;
  }
}
