package dev.sluice.internal.index;

import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.storage.Storage;
import dev.sluice.internal.util.KeySort;
import dev.sluice.internal.util.Parallel;
import dev.sluice.internal.util.ProgressMeter;
import dev.sluice.internal.merge.WriteRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The bloom and simple indexes (and their global variants): for every latest base file in scope, select
 * candidate keys (a {@link CandidateFilter}), then check them exactly against the file's record key column.
 *
 * <p>Footers (key range, bloom filter) are read once per file and index instance: base files never change, so
 * a second {@link #tag} call on the same instance (a session of point lookups) opens only the files whose range
 * and bloom filter admit a key.
 */
final class KeyLookupIndex implements Index {
  private final Storage storage;
  private final CandidateFilter filter;
  private final boolean global;
  private final boolean updatePartitionPath;
  private final int threads;
  private final AtomicLong filesOpened = new AtomicLong();
  /** Footers already read, by file path; readers hold no open streams. */
  private final Map<String, BaseFileReader> footers = new ConcurrentHashMap<>();
  /** Footers a {@link FooterPreload} read before this index was made, by file path. */
  private final Map<String, FooterPreload.Preloaded> preloaded;

  KeyLookupIndex(Storage storage, CandidateFilter filter, boolean global, boolean updatePartitionPath, int threads) {
    this(storage, filter, global, updatePartitionPath, threads, Map.of());
  }

  KeyLookupIndex(Storage storage, CandidateFilter filter, boolean global, boolean updatePartitionPath, int threads,
      Map<String, FooterPreload.Preloaded> preloaded) {
    this.preloaded = preloaded;
    this.storage = storage;
    this.filter = filter;
    this.global = global;
    this.updatePartitionPath = updatePartitionPath;
    this.threads = threads;
  }

  @Override
  public boolean isGlobal() {
    return global;
  }

  @Override
  public long filesOpened() {
    return filesOpened.get();
  }

  private record FileTask(BaseFile file, String partition, List<String> sortedKeys) {
  }

  private record Match(String key, Location location) {
  }

  @Override
  public List<TaggedRecord> tag(List<WriteRecord> records, FileSystemView view) {
    return tag(records, view, ProgressMeter.OFF);
  }

  /**
   * Tags as {@link #tag(List, FileSystemView)}; each base file looked up counts an equal share of the batch's records
   * as tagged (the shares add up to the batch exactly), so a long lookup over many files shows its progress.
   */
  @Override
  public List<TaggedRecord> tag(List<WriteRecord> records, FileSystemView view, ProgressMeter progress) {
    filesOpened.set(0);
    Map<String, List<String>> keysByScope = new HashMap<>();
    for (WriteRecord r : records) {
      keysByScope.computeIfAbsent(global ? "" : r.partitionPath(), p -> new ArrayList<>()).add(r.key());
    }
    // files first: keys of a scope without base files (all of them, into an empty table) need no sorting or lookup
    Map<String, List<BaseFile>> filesByPartition = new LinkedHashMap<>();
    List<String> partitions = global ? view.partitions() : new ArrayList<>(keysByScope.keySet());
    // one batched lookup of the partitions' files through the metadata table, not one merge of its logs per partition
    view.prefetch(partitions);
    for (String partition : partitions) {
      List<String> keys = keysByScope.get(global ? "" : partition);
      if (keys == null || keys.isEmpty()) {
        continue;
      }
      List<BaseFile> files = view.latestBaseFiles(partition);
      if (!files.isEmpty()) {
        filesByPartition.put(partition, files);
      }
    }
    if (filesByPartition.isEmpty()) {
      List<TaggedRecord> out = new ArrayList<>(records.size());
      records.forEach(r -> out.add(TaggedRecord.insert(r)));
      progress.advance(records.size());
      return out;
    }
    Set<String> scopes = new LinkedHashSet<>();
    filesByPartition.keySet().forEach(p -> scopes.add(global ? "" : p));
    List<List<String>> toSort = new ArrayList<>();
    scopes.forEach(s -> toSort.add(keysByScope.get(s)));
    // range pruning binary-searches sorted keys; sorting a million keys was seconds on the caller's thread
    Parallel.map(toSort, threads, keys -> {
      KeySort.sortStrings(keys);
      return keys;
    });
    List<FileTask> tasks = new ArrayList<>();
    for (Map.Entry<String, List<BaseFile>> e : filesByPartition.entrySet()) {
      List<String> keys = keysByScope.get(global ? "" : e.getKey());
      for (BaseFile f : e.getValue()) {
        tasks.add(new FileTask(f, e.getKey(), keys));
      }
    }
    // found keys by partition (one map for a global index), so no per-record key strings are built
    Map<String, Map<String, Location>> found = new HashMap<>();
    AtomicLong looked = new AtomicLong();
    long batch = records.size();
    int files = tasks.size();
    Function<FileTask, List<Match>> counted = task -> {
      List<Match> m = lookup(task);
      long k = looked.incrementAndGet();
      progress.advance(batch * k / files - batch * (k - 1) / files);
      return m;
    };
    for (List<Match> matches : Parallel.map(tasks, threads, counted)) {
      for (Match m : matches) {
        found.computeIfAbsent(global ? "" : m.location().partitionPath(), p -> new HashMap<>())
            .merge(m.key(), m.location(), KeyLookupIndex::liveCopy);
      }
    }
    List<TaggedRecord> out = new ArrayList<>(records.size());
    for (WriteRecord r : records) {
      Map<String, Location> inScope = found.get(global ? "" : r.partitionPath());
      Location loc = inScope == null ? null : inScope.get(r.key());
      if (loc == null) {
        out.add(TaggedRecord.insert(r));
      } else if (!global) {
        out.add(new TaggedRecord(r, Optional.of(loc)));
      } else {
        tagFound(r, loc, updatePartitionPath, out);
      }
    }
    return out;
  }

  /**
   * Of two file groups whose base files both hold a key (only a global lookup finds one key twice), the one that
   * holds its live copy: the newer base file. A key that moved partition on Merge-on-Read stays in its old base file,
   * deleted by a log block, until that file group is compacted (which drops it); the move wrote the new copy's base
   * file at or after that delete, so the newer base file is the live one (Copy-on-Write rewrites the old base file
   * without the key, so never finds it twice).
   */
  public static Location liveCopy(Location a, Location b) {
    return b.baseInstant().compareTo(a.baseInstant()) > 0 ? b : a;
  }

  /**
   * Adds the tags of {@code r}, whose key a global index found at {@code loc}: an update there if the partitions
   * agree; else, with {@code updatePartitionPath}, a delete in the old partition plus an insert in the new one (a
   * delete stays a delete in the old partition); else an update in the old partition.
   */
  static void tagFound(WriteRecord r, Location loc, boolean updatePartitionPath, List<TaggedRecord> out) {
    if (loc.partitionPath().equals(r.partitionPath())) {
      out.add(new TaggedRecord(r, Optional.of(loc)));
    } else if (updatePartitionPath && !r.isDelete()) {
      out.add(new TaggedRecord(r.asDeleteIn(loc.partitionPath()), Optional.of(loc)));
      out.add(TaggedRecord.insert(r));
    } else {
      out.add(new TaggedRecord(r.inPartition(loc.partitionPath()), Optional.of(loc)));
    }
  }

  private List<Match> lookup(FileTask task) {
    String path = task.file().path();
    boolean[] opened = new boolean[1];
    BaseFileReader reader = footers.computeIfAbsent(path, p -> {
      // a preloaded footer counts as this index's opening of the file, as if it had read it here
      opened[0] = true;
      FooterPreload.Preloaded pre = preloaded.get(p);
      return pre != null && pre.size() == task.file().size() ? pre.reader()
          : BaseFileReader.open(storage, p, task.file().size());
    });
    List<String> candidates = filter.candidates(reader, task.sortedKeys());
    if (opened[0] || !candidates.isEmpty()) {
      filesOpened.incrementAndGet();
    }
    if (candidates.isEmpty()) {
      return List.of();
    }
    Location loc = new Location(task.partition(), task.file().fileId(), task.file().instantTime());
    List<String> keys = reader.recordKeysFoundAmong(candidates);
    List<Match> out = new ArrayList<>(keys.size());
    keys.forEach(k -> out.add(new Match(k, loc)));
    return out;
  }
}
