package dev.sluice.index;

import dev.sluice.basefile.BaseFileReader;
import dev.sluice.fsview.BaseFile;
import dev.sluice.fsview.FileSystemView;
import dev.sluice.storage.Storage;
import dev.sluice.util.CloseableIterator;
import dev.sluice.util.Parallel;
import dev.sluice.write.WriteRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

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

  KeyLookupIndex(Storage storage, CandidateFilter filter, boolean global, boolean updatePartitionPath, int threads) {
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
    filesOpened.set(0);
    Map<String, List<String>> keysByScope = new HashMap<>();
    for (WriteRecord r : records) {
      keysByScope.computeIfAbsent(global ? "" : r.partitionPath(), p -> new ArrayList<>()).add(r.key());
    }
    keysByScope.values().forEach(l -> l.sort(null));
    List<FileTask> tasks = new ArrayList<>();
    List<String> partitions = global ? view.partitions() : new ArrayList<>(keysByScope.keySet());
    for (String partition : partitions) {
      List<String> keys = keysByScope.get(global ? "" : partition);
      if (keys == null || keys.isEmpty()) {
        continue;
      }
      for (BaseFile f : view.latestBaseFiles(partition)) {
        tasks.add(new FileTask(f, partition, keys));
      }
    }
    Map<String, Location> found = new HashMap<>();
    for (List<Match> matches : Parallel.map(tasks, threads, this::lookup)) {
      for (Match m : matches) {
        found.put(global ? m.key() : m.location().partitionPath() + '\u0000' + m.key(), m.location());
      }
    }
    List<TaggedRecord> out = new ArrayList<>(records.size());
    for (WriteRecord r : records) {
      Location loc = found.get(global ? r.key() : r.partitionPath() + '\u0000' + r.key());
      if (loc == null) {
        out.add(TaggedRecord.insert(r));
      } else if (!global || loc.partitionPath().equals(r.partitionPath())) {
        out.add(new TaggedRecord(r, Optional.of(loc)));
      } else if (updatePartitionPath && !r.isDelete()) {
        out.add(new TaggedRecord(r.asDeleteIn(loc.partitionPath()), Optional.of(loc)));
        out.add(TaggedRecord.insert(r));
      } else {
        out.add(new TaggedRecord(r.inPartition(loc.partitionPath()), Optional.of(loc)));
      }
    }
    return out;
  }

  private List<Match> lookup(FileTask task) {
    String path = task.file().path();
    boolean[] opened = new boolean[1];
    BaseFileReader reader = footers.computeIfAbsent(path, p -> {
      opened[0] = true;
      return BaseFileReader.open(storage, p, task.file().size());
    });
    List<String> candidates = filter.candidates(reader, task.sortedKeys());
    if (opened[0] || !candidates.isEmpty()) {
      filesOpened.incrementAndGet();
    }
    if (candidates.isEmpty()) {
      return List.of();
    }
    Set<String> wanted = new HashSet<>(candidates);
    Location loc = new Location(task.partition(), task.file().fileId(), task.file().instantTime());
    List<Match> out = new ArrayList<>();
    try (CloseableIterator<String> keys = reader.recordKeysAmong(candidates)) {
      while (keys.hasNext()) {
        String k = keys.next();
        if (wanted.contains(k)) {
          out.add(new Match(k, loc));
        }
      }
    }
    return out;
  }
}
