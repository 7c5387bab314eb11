package dev.sluice.api;

import java.io.Serializable;

/**
 * A base file as a cluster engine's tasks are told about it (tagging looks keys up in it, a merge rewrites it).
 *
 * @param partitionPath relative partition path
 * @param fileId its file group
 * @param path its full path
 * @param fileName its name
 * @param instantTime the instant that wrote it
 * @param size its length in bytes
 * @param minKey the smallest record key it holds, from its footer; null if not read (range pruning off, or no
 *     range in the footer)
 * @param maxKey the largest record key it holds; null as {@code minKey}
 */
public record FileRef(String partitionPath, String fileId, String path, String fileName, String instantTime,
    long size, String minKey, String maxKey) implements Serializable {
  private static final long serialVersionUID = 2L;

  /** A file whose key range is not known. */
  public FileRef(String partitionPath, String fileId, String path, String fileName, String instantTime, long size) {
    this(partitionPath, fileId, path, fileName, instantTime, size, null, null);
  }

  /**
   * False only if the file's key range is known and {@code key} is outside it (the bloom index's range pruning):
   * then the file cannot hold the key and is not opened for it.
   */
  public boolean mayHold(String key) {
    return minKey == null || maxKey == null || (key.compareTo(minKey) >= 0 && key.compareTo(maxKey) <= 0);
  }
}
