package dev.sluice.internal.mdt.write;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.table.PartitionMetadata;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The data table's partitions and data files as a storage listing finds them (Hudi's {@code DirectoryInfo} walk,
 * which the metadata table's bootstrap and a restore's re-sync use): folders are walked breadth-first from the base
 * path, {@code .hoodie} skipped; a folder holding a {@code .hoodie_partition_metadata} file is a partition; its base
 * and log files are its data files.
 */
final class DataFiles {
  private DataFiles() {
  }

  /**
   * Partition (relative path, {@code ""} for the base path) to data file name to size, for the data files whose
   * instant (a base file's commit, a log file's base instant) passes {@code instantFilter}. Empty files are left out:
   * the metadata table lists no file of size 0.
   */
  static Map<String, Map<String, Long>> list(Storage storage, String basePath, Predicate<String> instantFilter) {
    Map<String, Map<String, Long>> out = new TreeMap<>();
    Deque<String> dirs = new ArrayDeque<>();
    dirs.add(basePath);
    while (!dirs.isEmpty()) {
      String dir = dirs.poll();
      List<FileInfo> entries;
      try {
        entries = storage.list(dir);
      } catch (IOException e) {
        throw Errors.storage("list", dir, e);
      }
      boolean partition = false;
      Map<String, Long> files = new TreeMap<>();
      for (FileInfo f : entries) {
        if (f.directory()) {
          if (!(dir.equals(basePath) && f.name().equals(TableLayout.META_FOLDER))) {
            dirs.add(f.path());
          }
          continue;
        }
        if (f.name().startsWith(PartitionMetadata.FILE)) {
          partition = true;
        } else if (f.length() > 0 && FileNames.isDataFileCandidate(f.name()) && instantFilter.test(instantOf(f.name()))) {
          files.put(f.name(), f.length());
        }
      }
      if (partition) {
        out.put(StoragePaths.relativize(basePath, dir), files);
      }
    }
    return out;
  }

  /** The instant in a data file's name: a base file's commit time, a log file's base instant. */
  static String instantOf(String name) {
    return FileNames.parseBase(name).map(b -> b.instantTime())
        .or(() -> FileNames.parseLog(name).map(l -> l.baseInstant())).orElse("");
  }
}
