package dev.sluice.api;

import java.util.List;

/**
 * What an upsert of some records would touch (nothing is written): see {@link TableInspection#previewUpsert}.
 *
 * @param records records after combining duplicate keys
 * @param inserts records whose key no file group holds
 * @param targets the existing file groups the write would change
 * @param blockHeaderBytes about the bytes of one log block's header with the writer schema
 */
public record WritePreviewInfo(long records, long inserts, List<Target> targets, long blockHeaderBytes) {
  /** Copies the list. */
  public WritePreviewInfo {
    targets = List.copyOf(targets);
  }

  /**
   * One existing file group the write would change.
   *
   * @param id the file group
   * @param updates records updating keys the group holds
   * @param deletes records deleting keys the group holds
   * @param baseFileBytes size of its latest base file
   * @param logBytes size of the log files of its latest slice
   * @param changedRowBytes Avro binary bytes of the updated rows with their meta fields (deletes: key and partition)
   */
  public record Target(FileGroupKey id, long updates, long deletes, long baseFileBytes, long logBytes,
      long changedRowBytes) {
  }
}
