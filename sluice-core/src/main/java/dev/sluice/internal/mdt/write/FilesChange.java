package dev.sluice.internal.mdt.write;

import dev.sluice.internal.mdt.FileEntry;
import dev.sluice.internal.mdt.FilesRecord;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.WriteStat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one data-table action changes in the {@code files} partition (Hudi 0.15's {@code convertMetadataTo*Records}):
 * files added or grown (name to size) and files deleted, per partition; partitions to list and partitions deleted.
 * Partition paths are relative ({@code ""} for a non-partitioned table); file names have no folder.
 *
 * @param added partition to file name to size in bytes
 * @param deleted partition to names of deleted files
 * @param listedPartitions partitions the partition list gets (or keeps) as live
 * @param deletedPartitions partitions the partition list marks deleted
 */
public record FilesChange(Map<String, Map<String, Long>> added, Map<String, Set<String>> deleted,
    Set<String> listedPartitions, Set<String> deletedPartitions) {

  /** Copies everything into sorted, unmodifiable collections. */
  public FilesChange {
    Map<String, Map<String, Long>> a = new TreeMap<>();
    added.forEach((p, files) -> a.put(p, Collections.unmodifiableMap(new TreeMap<>(files))));
    added = Collections.unmodifiableMap(a);
    Map<String, Set<String>> d = new TreeMap<>();
    deleted.forEach((p, files) -> d.put(p, Collections.unmodifiableSet(new TreeSet<>(files))));
    deleted = Collections.unmodifiableMap(d);
    listedPartitions = Collections.unmodifiableSet(new TreeSet<>(listedPartitions));
    deletedPartitions = Collections.unmodifiableSet(new TreeSet<>(deletedPartitions));
  }

  /** No change (the mirror commit of an action that touched no file still completes). */
  public static FilesChange none() {
    return new FilesChange(Map.of(), Map.of(), Set.of(), Set.of());
  }

  /**
   * A commit, deltacommit, replacecommit or compaction: every partition with write stats is listed, and each file a
   * stat names (and each CDC file) is added with its size, the largest when several stats name one file. Replaced or
   * superseded files stay listed until a clean deletes them, as in Hudi.
   */
  public static FilesChange ofCommit(CommitMetadata metadata) {
    Map<String, Map<String, Long>> added = new TreeMap<>();
    for (Map.Entry<String, List<WriteStat>> e : metadata.partitionToWriteStats().entrySet()) {
      Map<String, Long> files = added.computeIfAbsent(e.getKey(), k -> new TreeMap<>());
      for (WriteStat s : e.getValue()) {
        s.path().filter(p -> !p.isEmpty() && !p.equals(WriteStat.NULL_COMMIT))
            .ifPresent(p -> files.merge(name(p), s.fileSizeInBytes(), Math::max));
        s.cdcStats().ifPresent(cdc -> cdc.forEach((p, size) -> files.merge(name(p), size, Math::max)));
      }
    }
    return new FilesChange(added, Map.of(), added.keySet(), Set.of());
  }

  /** A clean: the deleted files of each partition become tombstones; deleted partitions leave the partition list. */
  public static FilesChange ofClean(Map<String, ? extends Iterable<String>> deletedFiles, Iterable<String> deletedPartitions) {
    Map<String, Set<String>> deleted = new TreeMap<>();
    deletedFiles.forEach((p, files) -> {
      Set<String> names = new TreeSet<>();
      files.forEach(f -> names.add(name(f)));
      deleted.put(p, names);
    });
    Set<String> gone = new TreeSet<>();
    deletedPartitions.forEach(gone::add);
    return new FilesChange(Map.of(), deleted, Set.of(), gone);
  }

  /** Files added or grown (a rollback's command-block logs and the failed commit's logs), partitions not listed. */
  public static FilesChange ofAdded(Map<String, Map<String, Long>> added) {
    return new FilesChange(added, Map.of(), Set.of(), Set.of());
  }

  /** This change plus tombstones for {@code deletedFiles} (partition to file names or paths). */
  public FilesChange withDeleted(Map<String, ? extends Iterable<String>> deletedFiles) {
    Map<String, Set<String>> d = new TreeMap<>(deleted);
    deletedFiles.forEach((p, files) -> {
      Set<String> names = new TreeSet<>(d.getOrDefault(p, Set.of()));
      files.forEach(f -> names.add(name(f)));
      d.put(p, names);
    });
    return new FilesChange(added, d, listedPartitions, deletedPartitions);
  }

  /** True if the change has no record. */
  public boolean isEmpty() {
    return records().isEmpty();
  }

  /**
   * The {@code files} records: the partition list if partitions are listed or deleted, then one file list per
   * partition with additions or deletions (an addition of a file also deleted wins: it exists).
   */
  public List<FilesRecord> records() {
    List<FilesRecord> out = new ArrayList<>();
    if (!listedPartitions.isEmpty() || !deletedPartitions.isEmpty()) {
      Map<String, FileEntry> parts = new TreeMap<>();
      deletedPartitions.forEach(p -> parts.put(FilesRecord.partitionId(p), FileEntry.DELETED));
      listedPartitions.forEach(p -> parts.put(FilesRecord.partitionId(p), FileEntry.PARTITION));
      out.add(FilesRecord.partitionList(parts));
    }
    Set<String> partitions = new TreeSet<>(added.keySet());
    partitions.addAll(deleted.keySet());
    for (String p : partitions) {
      Map<String, FileEntry> files = new TreeMap<>();
      deleted.getOrDefault(p, Set.of()).forEach(f -> files.put(f, FileEntry.DELETED));
      added.getOrDefault(p, Map.of()).forEach((f, size) -> files.put(f, FileEntry.file(size)));
      if (!files.isEmpty()) {
        out.add(FilesRecord.fileList(p, files));
      }
    }
    return out;
  }

  private static String name(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? path : path.substring(slash + 1);
  }
}
