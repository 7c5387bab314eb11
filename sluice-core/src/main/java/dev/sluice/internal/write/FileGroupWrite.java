package dev.sluice.internal.write;

import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSlice;

/**
 * The planned work for one file group in a write: merge into its current base file, create it, or (Merge-on-Read)
 * append to the log of its current file slice. A plan counts records; the {@link PlanSource} the plan was made from
 * hands each write its records when the write is applied.
 */
public sealed interface FileGroupWrite permits FileGroupWrite.Merge, FileGroupWrite.Create, FileGroupWrite.Append {
  /** The file group written. */
  FileGroupId id();

  /** Updates and deletes of keys the file group holds that it takes. */
  long updates();

  /** Inserts (new keys) it takes. */
  long inserts();

  /**
   * Rewrite an existing file group: stream its base file, apply updates and deletes by key, append inserts.
   *
   * @param id the file group
   * @param current its latest base file
   * @param updates incoming versions (and deletes) of keys the file holds
   * @param inserts new keys routed to this (small) file group: the next ones of its partition in key order
   */
  record Merge(FileGroupId id, BaseFile current, long updates, long inserts) implements FileGroupWrite {
  }

  /**
   * Create a new file group from inserts (rolling over to further new file groups past the target size).
   *
   * @param id the new file group
   * @param inserts new keys: the next ones of its partition in key order
   */
  record Create(FileGroupId id, long inserts) implements FileGroupWrite {
    /** A new file group updates nothing. */
    @Override
    public long updates() {
      return 0;
    }
  }

  /**
   * Merge-on-Read: append the updates and deletes of an existing file group to the log of {@code slice} (one data
   * block and/or one delete block); the base file is neither read nor rewritten.
   *
   * @param id the file group
   * @param slice the slice the blocks belong to: the latest one, or the log-only slice opened by a pending
   *     compaction
   * @param updates incoming versions (and deletes) of keys the file group holds
   */
  record Append(FileGroupId id, FileSlice slice, long updates) implements FileGroupWrite {
    /** An append inserts nothing: inserts go to base files, as Hudi's Spark writer places them. */
    @Override
    public long inserts() {
      return 0;
    }
  }
}
