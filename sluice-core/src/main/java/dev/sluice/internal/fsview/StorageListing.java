package dev.sluice.internal.fsview;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.table.PartitionMetadata;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Partitions and files from listings of storage ({@code FileSystemBackedTableMetadata}): each directory is listed
 * at most once, and a partition found by the walk is not listed again for its files.
 */
public final class StorageListing implements FileListing {
  private final Storage storage;
  private final String basePath;
  private final AtomicLong listCalls = new AtomicLong();
  private final Map<String, List<FileInfo>> listings = new ConcurrentHashMap<>();
  private volatile List<String> partitions;

  /** A listing of the table at {@code basePath}; does no I/O until asked. */
  public StorageListing(Storage storage, String basePath) {
    this.storage = storage;
    this.basePath = basePath;
  }

  /**
   * Directories holding a {@code .hoodie_partition_metadata*} file, found by walking down from the base path
   * ({@code ""} if the base path holds one: a non-partitioned table).
   */
  @Override
  public List<String> partitions() {
    List<String> known = partitions;
    if (known != null) {
      return known;
    }
    List<String> found = new ArrayList<>();
    Deque<String> todo = new ArrayDeque<>();
    todo.add("");
    while (!todo.isEmpty()) {
      String rel = todo.poll();
      List<FileInfo> entries = list(StoragePaths.join(basePath, rel));
      boolean isPartition = false;
      List<String> subdirs = new ArrayList<>();
      for (FileInfo f : entries) {
        if (f.directory()) {
          String name = f.name();
          // Hudi skips only .hoodie; other hidden folders (staging dirs) are never partitions either
          if (!name.startsWith(".")) {
            subdirs.add(rel.isEmpty() ? name : rel + "/" + name);
          }
        } else if (f.name().startsWith(PartitionMetadata.FILE)) {
          isPartition = true;
        }
      }
      if (isPartition) {
        found.add(rel);
      } else {
        todo.addAll(subdirs);
      }
    }
    Collections.sort(found);
    List<String> out = List.copyOf(found);
    partitions = out;
    return out;
  }

  @Override
  public List<FileInfo> files(String partition) {
    return list(StoragePaths.join(basePath, partition));
  }

  @Override
  public long listCalls() {
    return listCalls.get();
  }

  @Override
  public String source() {
    return "storage";
  }

  private List<FileInfo> list(String dir) {
    return listings.computeIfAbsent(dir, d -> {
      listCalls.incrementAndGet();
      try {
        return List.copyOf(storage.list(d));
      } catch (IOException e) {
        throw Errors.storage("list", d, e);
      }
    });
  }
}
