package dev.sluice.write;

import dev.sluice.config.ConfigKeys;
import dev.sluice.fsview.BaseFile;
import dev.sluice.fsview.FileGroupId;
import dev.sluice.fsview.FileNames;
import dev.sluice.fsview.FileSystemView;
import dev.sluice.index.Location;
import dev.sluice.index.TaggedRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Plans a write per file group, as Hudi's upsert partitioner does: tagged records update their file group;
 * inserts first fill file groups whose base file is below the small-file limit, then go to new file groups
 * sized to the target file size by the average record size. Inserts are sorted by key before they are split,
 * so each new file covers a narrow key range (which keeps later bloom-index lookups cheap).
 */
final class WritePlanner {
  private final WriteSetup setup;
  private final long averageRecordSize;

  WritePlanner(WriteSetup setup, long averageRecordSize) {
    this.setup = setup;
    this.averageRecordSize = averageRecordSize;
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
    for (String partition : partitionsOf(updates, insertsByPartition)) {
      for (BaseFile f : view.latestBaseFiles(partition)) {
        currentFiles.put(new FileGroupId(partition, f.fileId()), f);
      }
    }
    Map<FileGroupId, List<WriteRecord>> smallFileInserts = new LinkedHashMap<>();
    List<FileGroupWrite> out = new ArrayList<>();
    for (Map.Entry<String, List<WriteRecord>> e : insertsByPartition.entrySet()) {
      List<WriteRecord> inserts = e.getValue();
      inserts.sort(Comparator.comparing(WriteRecord::key));
      int next = assignToSmallFiles(e.getKey(), inserts, view, smallFileInserts);
      out.addAll(newFileGroups(e.getKey(), inserts.subList(next, inserts.size())));
    }
    List<FileGroupWrite> merges = new ArrayList<>();
    for (Map.Entry<FileGroupId, Map<String, WriteRecord>> e : updates.entrySet()) {
      BaseFile current = currentFiles.get(e.getKey());
      if (current == null) {
        throw dev.sluice.error.Errors.conflict("Write to file group " + e.getKey(),
            "its base file of instant " + baseInstants.get(e.getKey()) + " is no longer the latest");
      }
      merges.add(new FileGroupWrite.Merge(e.getKey(), current, e.getValue(),
          smallFileInserts.getOrDefault(e.getKey(), List.of())));
    }
    for (Map.Entry<FileGroupId, List<WriteRecord>> e : smallFileInserts.entrySet()) {
      if (!updates.containsKey(e.getKey())) {
        merges.add(new FileGroupWrite.Merge(e.getKey(), currentFiles.get(e.getKey()), Map.of(), e.getValue()));
      }
    }
    merges.addAll(out);
    return merges;
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

  /** Fills small files in order of size (smallest first); returns the index of the first unassigned insert. */
  private int assignToSmallFiles(String partition, List<WriteRecord> inserts, FileSystemView view,
      Map<FileGroupId, List<WriteRecord>> assigned) {
    long limit = setup.config().get(ConfigKeys.SMALL_FILE_LIMIT);
    if (limit <= 0) {
      return 0;
    }
    List<BaseFile> small = new ArrayList<>();
    for (BaseFile f : view.latestBaseFiles(partition)) {
      if (f.size() < limit) {
        small.add(f);
      }
    }
    small.sort(Comparator.comparingLong(BaseFile::size));
    int next = 0;
    for (BaseFile f : small) {
      if (next >= inserts.size()) {
        break;
      }
      long capacity = (setup.maxFileSize() - f.size()) / averageRecordSize;
      if (capacity <= 0) {
        continue;
      }
      int take = (int) Math.min(capacity, inserts.size() - next);
      assigned.put(new FileGroupId(partition, f.fileId()), new ArrayList<>(inserts.subList(next, next + take)));
      next += take;
    }
    return next;
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
