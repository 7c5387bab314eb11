package dev.sluice.internal.fsview;

import dev.sluice.storage.FileInfo;
import java.util.Collection;
import java.util.List;

/**
 * Where a {@link FileSystemView} gets a table's partitions and their files from: a listing of storage
 * ({@link StorageListing}), or Hudi's metadata table ({@code dev.sluice.internal.mdt.read.MetadataListing}), which
 * answers without listing data partitions. Either way the view filters the files by the timeline, so a listing may
 * hold files of instants the view does not see.
 */
public interface FileListing {
  /** The relative paths of all partitions, sorted ({@code ""} for a non-partitioned table). */
  List<String> partitions();

  /**
   * The entries of the partition at relative path {@code partition}; the view keeps the base and log files among
   * them. Asked once per partition and view family.
   */
  List<FileInfo> files(String partition);

  /**
   * Fetches the files of {@code partitions} ahead of {@link #files} calls for them, where one request for many is
   * cheaper than one per partition (the metadata table's batched lookup); listing storage does nothing here.
   */
  default void prefetch(Collection<String> partitions) {
  }

  /**
   * Fetches the partition list and the files of every partition where one request can (the metadata table's whole
   * {@code files} partition); by default {@link #prefetch} of {@link #partitions}.
   */
  default void prefetchAll() {
    prefetch(partitions());
  }

  /** True if {@link #prefetchAll} is one request (the metadata table), false if it lists every partition. */
  default boolean listsAllInOneRequest() {
    return false;
  }

  /** Storage list calls made so far (the metadata table's own listings included). */
  long listCalls();

  /** What the listing comes from, for messages and {@code sluice metadata}: {@code storage} or {@code metadata table}. */
  String source();
}
