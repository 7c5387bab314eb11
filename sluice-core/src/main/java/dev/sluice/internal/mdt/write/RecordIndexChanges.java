package dev.sluice.internal.mdt.write;

import dev.sluice.api.CloseableIterator;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.spill.ExternalSorter;
import dev.sluice.internal.spill.RecordSerializer;
import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * What one data-table write changes in the record index, collected from the write handles as they write (Hudi
 * derives the same from its write statuses, {@code getRecordIndexUpdates}): a key written to a new location (an
 * insert, or a key a global index moved to another partition) and a key deleted. Updates in place change nothing and
 * are not collected. Bounded memory: pairs go to an {@link ExternalSorter} keyed by shard then key in HFile order, so
 * {@link #changes()} hands them out per shard, sorted, as the record index's log blocks need them.
 *
 * <p>Thread-safe: the handles of one write run in parallel.
 */
public final class RecordIndexChanges implements Closeable {
  private static final char DELETE = 'D';
  private static final char INSERT = 'I';
  private static final char SEPARATOR = '\0';

  private final int shards;
  private final ExternalSorter<String> sorter;
  private final long budgetBytes;
  private final Path spillDirectory;
  /** The data partitions of the changes (few: one per partition a write touches). */
  private final java.util.Set<String> partitions = new java.util.TreeSet<>();

  private RecordIndexChanges(int shards, long budgetBytes, Path spillDirectory) {
    this.shards = shards;
    this.budgetBytes = budgetBytes;
    this.spillDirectory = spillDirectory;
    this.sorter = shards == 0 ? null : ExternalSorter.builder(RecordSerializer.string())
        .memoryBudgetBytes(budgetBytes).spillDirectory(spillDirectory).build();
  }

  /** A collector that keeps nothing: the table has no record index. */
  public static RecordIndexChanges none() {
    return new RecordIndexChanges(0, 0, null);
  }

  /**
   * A collector for a record index of {@code shards} file groups, holding up to {@code budgetBytes} of changes on the
   * heap, sorted runs beyond that in {@code spillDirectory}.
   */
  public static RecordIndexChanges collecting(int shards, long budgetBytes, Path spillDirectory) {
    if (shards < 1) {
      throw new IllegalArgumentException("a record index has at least one file group, not " + shards);
    }
    return new RecordIndexChanges(shards, budgetBytes, spillDirectory);
  }

  /** True if changes are kept (the table has a record index). */
  public boolean isCollecting() {
    return sorter != null;
  }

  /** The shard count the changes are sorted for (0 when nothing is collected). */
  int shards() {
    return shards;
  }

  /** {@code key} was written to the file group {@code fileId} of {@code partition} by this write (a new location). */
  public void insert(String key, String partition, String fileId) {
    insert(key, partition, fileId, "");
  }

  /** {@code key} is in the file group {@code fileId} of {@code partition} since {@code instant}. */
  void insert(String key, String partition, String fileId, String instant) {
    if (sorter != null) {
      add(MetadataPartition.fileGroupIndex(key, shards), key, partition,
          INSERT + partition + SEPARATOR + fileId + SEPARATOR + instant);
    }
  }

  /**
   * {@code key} was deleted from data partition {@code partition} (a partitioned record index holds the key's entry in
   * that partition's file groups).
   */
  public void delete(String key, String partition) {
    if (sorter != null) {
      add(MetadataPartition.fileGroupIndex(key, shards), key, partition, DELETE + partition);
    }
  }

  private synchronized void add(int shard, String key, String partition, String value) {
    partitions.add(partition);
    sorter.add(sortKey(shard, key), value);
  }

  /** The data partitions the changes are in, sorted. */
  synchronized java.util.SortedSet<String> partitions() {
    return new java.util.TreeSet<>(partitions);
  }

  /** How many changes were collected (before a key's insert and delete are netted). */
  public synchronized long size() {
    return sorter == null ? 0 : sorter.size();
  }

  /**
   * The shard (as a char, so it sorts first) then the key's UTF-8 bytes as Latin-1 chars: {@link String#compareTo}
   * of these is the unsigned byte order HFile cells need.
   */
  private static String sortKey(int shard, String key) {
    return (char) shard + new String(key.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }

  private static String keyOf(String sortKey) {
    return new String(sortKey.substring(1).getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
  }

  /**
   * One key's net change.
   *
   * @param shard the file group index of the key
   * @param key the record key
   * @param partition the data partition of the new location, or of the deleted entry
   * @param fileId the file group of the new location ({@code ""} for a delete)
   * @param instant the instant of the location ({@code ""}: the write's own)
   */
  public record Change(int shard, String key, String partition, String fileId, String instant) {
    /** True if the key is deleted. */
    public boolean isDelete() {
      return fileId.isEmpty();
    }
  }

  /**
   * The net change of each key, by shard, then in HFile key order: a key inserted and deleted in one write (a global
   * index's partition move: deleted from the old partition, inserted into the new) keeps its insert. Read once.
   */
  synchronized CloseableIterator<Change> changes() {
    if (sorter == null) {
      return CloseableIterator.empty();
    }
    CloseableIterator<Map.Entry<String, String>> sorted = sorter.sorted();
    return new CloseableIterator<>() {
      private Map.Entry<String, String> pending = sorted.hasNext() ? sorted.next() : null;

      @Override
      public boolean hasNext() {
        return pending != null;
      }

      @Override
      public Change next() {
        if (pending == null) {
          throw new NoSuchElementException();
        }
        String sortKey = pending.getKey();
        String value = pending.getValue();
        pending = null;
        while (sorted.hasNext()) {
          Map.Entry<String, String> e = sorted.next();
          if (!e.getKey().equals(sortKey)) {
            pending = e;
            break;
          }
          // the insert wins over the delete; of two inserts (none expected) the later
          if (e.getValue().charAt(0) != DELETE) {
            value = e.getValue();
          }
        }
        return decode(sortKey, value);
      }

      @Override
      public void close() {
        sorted.close();
      }
    };
  }

  /** Hands each key's net change ({@link #changes()}) to {@code sink}: a task's changes on their way to the driver. */
  public void forEachChange(java.util.function.Consumer<Change> sink) {
    try (CloseableIterator<Change> it = changes()) {
      while (it.hasNext()) {
        sink.accept(it.next());
      }
    }
  }

  /** The same changes sorted for {@code n} shards (the record index has another count than expected). */
  RecordIndexChanges resharded(int n) {
    RecordIndexChanges out = collecting(n, budgetBytes, spillDirectory);
    try (CloseableIterator<Change> it = changes()) {
      while (it.hasNext()) {
        Change c = it.next();
        if (c.isDelete()) {
          out.delete(c.key(), c.partition());
        } else {
          out.insert(c.key(), c.partition(), c.fileId(), c.instant());
        }
      }
    }
    return out;
  }

  /**
   * The same changes, not netted, sorted for {@code n} file groups of a partitioned record index, each change in file
   * group {@code fileGroupOf} picks (an index into the partition's file ids sorted; negative: the change is left out,
   * a delete in a data partition the index has no file group for). A key deleted from one data partition and written
   * to another (a global index's move) keeps both changes, each in its own partition's file group.
   */
  RecordIndexChanges rerouted(int n, java.util.function.ToIntFunction<Change> fileGroupOf) {
    RecordIndexChanges out = collecting(n, budgetBytes, spillDirectory);
    if (sorter == null) {
      return out;
    }
    try (CloseableIterator<Map.Entry<String, String>> sorted = sorter.sorted()) {
      while (sorted.hasNext()) {
        Map.Entry<String, String> e = sorted.next();
        Change c = decode(e.getKey(), e.getValue());
        int g = fileGroupOf.applyAsInt(c);
        if (g >= 0) {
          out.add(g, c.key(), c.partition(), e.getValue());
        }
      }
    }
    return out;
  }

  private static Change decode(String sortKey, String value) {
    String key = keyOf(sortKey);
    if (value.charAt(0) == DELETE) {
      return new Change(sortKey.charAt(0), key, value.substring(1), "", "");
    }
    int sep = value.indexOf(SEPARATOR);
    int sep2 = value.indexOf(SEPARATOR, sep + 1);
    return new Change(sortKey.charAt(0), key, value.substring(1, sep), value.substring(sep + 1, sep2),
        value.substring(sep2 + 1));
  }

  @Override
  public synchronized void close() {
    if (sorter != null) {
      sorter.close();
    }
  }
}
