package dev.sluice.internal.write;

import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.merge.WriteRecord;
import java.util.List;
import java.util.Map;

/**
 * The planned work for one file group in a write: merge into its current base file, create it, or (Merge-on-Read)
 * append to the log of its current file slice.
 */
public sealed interface FileGroupWrite permits FileGroupWrite.Merge, FileGroupWrite.Create, FileGroupWrite.Append {
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

  /**
   * Merge-on-Read: append the updates and deletes of an existing file group to the log of {@code slice} (one data
   * block and/or one delete block); the base file is neither read nor rewritten.
   *
   * @param id the file group
   * @param slice the slice the blocks belong to: the latest one, or the log-only slice opened by a pending
   *     compaction
   * @param updates incoming versions (and deletes) of keys the file group holds, by record key
   */
  record Append(FileGroupId id, FileSlice slice, Map<String, WriteRecord> updates) implements FileGroupWrite {
    /** An append inserts nothing: inserts go to base files, as Hudi's Spark writer places them. */
    @Override
    public List<WriteRecord> inserts() {
      return List.of();
    }
  }
}
