package dev.sluice.internal.mdt.write;

import dev.sluice.internal.mdt.FilesRecord;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Test checks of a kept metadata table: its {@code files} partition against a listing of the table. */
public final class MetadataTableChecks {
  private MetadataTableChecks() {
  }

  /** The files partition's view (completed deltacommits merged): partition to live file names. */
  public static Map<String, List<String>> listing(Storage storage, String basePath) {
    String mdtBase = TableLayout.metadataTableFolder(basePath);
    Timeline tl = new TimelineStore(storage, mdtBase).load();
    Map<String, FilesRecord> merged = FilesPartitionState.load(storage, StoragePaths.join(mdtBase, "files"), tl)
        .merged(storage, tl);
    Map<String, List<String>> out = new TreeMap<>();
    FilesRecord all = merged.get(FilesRecord.ALL_PARTITIONS);
    for (String p : all == null ? List.<String>of() : all.live()) {
      FilesRecord files = merged.get(p);
      out.put(FilesRecord.partitionPath(p), files == null ? List.of() : files.live());
    }
    return out;
  }

  /** The data files on storage: partition to names. */
  public static Map<String, List<String>> onStorage(Storage storage, String basePath) {
    Map<String, List<String>> out = new TreeMap<>();
    DataFiles.list(storage, basePath, t -> true).forEach((p, files) -> out.put(p, List.copyOf(files.keySet())));
    return out;
  }

  /**
   * What is wrong with the table's metadata table (empty if nothing): it must be listed in {@code hoodie.properties}
   * and list exactly the partitions and data files on storage.
   */
  public static List<String> problems(Storage storage, String basePath) {
    List<String> out = new ArrayList<>();
    if (!TableConfigStore.read(storage, basePath).metadataPartitions().contains("files")) {
      out.add("the metadata table is not listed in hoodie.properties");
      return out;
    }
    // a partition folder without data files (made by a write that crashed, then rolled back) is no difference: a
    // listing finds no file in it either, and Hudi's writers leave it out of the metadata table alike
    Map<String, List<String>> kept = new TreeMap<>(listing(storage, basePath));
    kept.values().removeIf(List::isEmpty);
    Map<String, List<String>> real = new TreeMap<>(onStorage(storage, basePath));
    real.values().removeIf(List::isEmpty);
    if (!kept.equals(real)) {
      out.add("the metadata table lists " + kept + " but storage holds " + real);
    }
    return out;
  }
}
