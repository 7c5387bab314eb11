package dev.sluice.internal.mdt.read;

import dev.sluice.internal.fsview.FileListing;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.StoragePaths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A data table's partitions and files from its metadata table ({@code BaseTableMetadata.fetchAllPartitionPaths},
 * {@code fetchAllFilesInPartition}): the partition list is one lookup of {@code __all_partitions__}, a partition's
 * files one lookup of its key; no data partition is listed. Files carry the recorded size and modification time 0,
 * as Hudi's do. The view filters them by the timeline as it filters a storage listing.
 */
public final class MetadataListing implements FileListing {
  private final MetadataTableReader reader;
  private final String basePath;
  private final Map<String, List<FileInfo>> files = new ConcurrentHashMap<>();
  private volatile List<String> partitions;

  /** Listings of the data table at {@code basePath} from its metadata table's {@code reader}. */
  public MetadataListing(MetadataTableReader reader, String basePath) {
    this.reader = reader;
    this.basePath = basePath;
  }

  /** The reader the listings come from. */
  public MetadataTableReader reader() {
    return reader;
  }

  @Override
  public List<String> partitions() {
    List<String> p = partitions;
    if (p == null) {
      p = reader.partitions();
      partitions = p;
    }
    return p;
  }

  @Override
  public List<FileInfo> files(String partition) {
    return files.computeIfAbsent(partition, p -> infos(p, reader.files(p)));
  }

  @Override
  public void prefetch(Collection<String> partitions) {
    List<String> missing = partitions.stream().filter(p -> !files.containsKey(p)).toList();
    if (missing.size() > 1) {
      Map<String, List<MetadataFile>> found = reader.files(missing);
      for (String p : missing) {
        files.putIfAbsent(p, infos(p, found.getOrDefault(p, List.of())));
      }
    }
  }

  @Override
  public boolean listsAllInOneRequest() {
    return true;
  }

  @Override
  public void prefetchAll() {
    if (partitions != null) {
      prefetch(partitions);
      return;
    }
    // the partition list and every partition's file list are the files partition's records: one read of all of it
    MetadataTableReader.AllFiles all = reader.allFiles();
    for (String p : all.partitions()) {
      files.putIfAbsent(p, infos(p, all.files().getOrDefault(p, List.of())));
    }
    partitions = all.partitions();
  }

  private List<FileInfo> infos(String partition, List<MetadataFile> listed) {
    String dir = StoragePaths.join(basePath, partition);
    List<FileInfo> out = new ArrayList<>();
    for (MetadataFile f : listed) {
      out.add(new FileInfo(StoragePaths.join(dir, f.name()), f.size(), false, 0));
    }
    return List.copyOf(out);
  }

  @Override
  public long listCalls() {
    return reader.listCalls();
  }

  @Override
  public String source() {
    return "metadata table";
  }
}
