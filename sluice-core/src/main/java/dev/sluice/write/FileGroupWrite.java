package dev.sluice.write;

import dev.sluice.fsview.BaseFile;
import dev.sluice.fsview.FileGroupId;
import java.util.List;
import java.util.Map;

/** The planned work for one file group in a write: merge into its current base file, or create it. */
public sealed interface FileGroupWrite permits FileGroupWrite.Merge, FileGroupWrite.Create {
  /** The file group written. */
  FileGroupId id();

  /** Records inserted into this file group. */
  List<WriteRecord> inserts();

  /**
   * Rewrite an existing file group: stream its base file, apply updates and deletes by key, append inserts.
   *
   * @param id the file group
   * @param current its latest base file
   * @param updates incoming versions (and deletes) of keys the file holds, by record key
   * @param inserts new keys routed to this (small) file group
   */
  record Merge(FileGroupId id, BaseFile current, Map<String, WriteRecord> updates, List<WriteRecord> inserts)
      implements FileGroupWrite {
  }

  /**
   * Create a new file group from inserts (rolling over to further new file groups past the target size).
   *
   * @param id the new file group
   * @param inserts records, in the order to write them
   */
  record Create(FileGroupId id, List<WriteRecord> inserts) implements FileGroupWrite {
  }
}
