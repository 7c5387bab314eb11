package dev.sluice.internal.mdt;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A record of the {@code files} partition: the partition list (key {@link #ALL_PARTITIONS}, type 1: partition path
 * to {@link FileEntry#PARTITION} or a tombstone) or one partition's file list (key = the partition's relative path,
 * {@link #NON_PARTITIONED} for a non-partitioned table, type 2: file name to size or tombstone).
 *
 * @param key the record key
 * @param type {@link #PARTITION_LIST} or {@link #FILE_LIST}
 * @param entries name to entry, sorted by name
 */
public record FilesRecord(String key, int type, Map<String, FileEntry> entries) {
  /** Key of the partition list ({@code HoodieTableMetadata.RECORDKEY_PARTITION_LIST}). */
  public static final String ALL_PARTITIONS = "__all_partitions__";
  /** Partition id of a non-partitioned table's only partition. */
  public static final String NON_PARTITIONED = ".";
  /** Record type of the partition list. */
  public static final int PARTITION_LIST = 1;
  /** Record type of a partition's file list. */
  public static final int FILE_LIST = 2;

  /** Copies {@code entries} into an unmodifiable sorted map. */
  public FilesRecord {
    if (type != PARTITION_LIST && type != FILE_LIST) {
      throw new IllegalArgumentException("a files record has type 1 or 2, not " + type);
    }
    entries = Collections.unmodifiableMap(new TreeMap<>(entries));
  }

  /** The partition list record. */
  public static FilesRecord partitionList(Map<String, FileEntry> partitions) {
    return new FilesRecord(ALL_PARTITIONS, PARTITION_LIST, partitions);
  }

  /** The file list record of the partition at relative path {@code partition} ({@code ""} if not partitioned). */
  public static FilesRecord fileList(String partition, Map<String, FileEntry> files) {
    return new FilesRecord(partitionId(partition), FILE_LIST, files);
  }

  /** The key of a partition in the {@code files} partition: its relative path, {@code "."} for {@code ""}. */
  public static String partitionId(String partition) {
    return partition.isEmpty() ? NON_PARTITIONED : partition;
  }

  /** The relative path of a partition id ({@code "."} is the table's base path, {@code ""}). */
  public static String partitionPath(String partitionId) {
    return partitionId.equals(NON_PARTITIONED) ? "" : partitionId;
  }

  /**
   * This record (older) merged with {@code newer} of the same key, as Hudi's payload combines them: a live entry
   * takes the larger size of the two (sizes only grow: log files get appended), a tombstone removes a live entry
   * and is kept when there is none to remove (it applies to an older version below).
   */
  public FilesRecord merge(FilesRecord newer) {
    if (!key.equals(newer.key) || type != newer.type) {
      throw new IllegalArgumentException("cannot merge files records " + key + "/" + type + " and " + newer.key + "/"
          + newer.type);
    }
    Map<String, FileEntry> out = new TreeMap<>(entries);
    for (Map.Entry<String, FileEntry> e : newer.entries.entrySet()) {
      FileEntry old = out.get(e.getKey());
      FileEntry neu = e.getValue();
      if (!neu.deleted()) {
        out.put(e.getKey(), old == null || old.deleted() ? neu : FileEntry.file(Math.max(old.size(), neu.size())));
      } else if (old != null && !old.deleted()) {
        out.remove(e.getKey());
      } else {
        out.put(e.getKey(), FileEntry.DELETED);
      }
    }
    return new FilesRecord(key, type, out);
  }

  /** The names of the live entries, sorted (tombstones left after merging are spurious deletes and not listed). */
  public List<String> live() {
    return entries.entrySet().stream().filter(e -> !e.getValue().deleted()).map(Map.Entry::getKey).toList();
  }
}
