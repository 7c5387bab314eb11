package dev.sluice.api;

import java.util.Objects;

/**
 * Names a file group: its partition and file id. Ordered by partition, then file id.
 *
 * @param partitionPath relative partition path ({@code ""} for a non-partitioned table)
 * @param fileId the file group id
 */
public record FileGroupKey(String partitionPath, String fileId) implements Comparable<FileGroupKey> {
  /** Rejects nulls. */
  public FileGroupKey {
    Objects.requireNonNull(partitionPath, "partitionPath");
    Objects.requireNonNull(fileId, "fileId");
  }

  @Override
  public int compareTo(FileGroupKey o) {
    int c = partitionPath.compareTo(o.partitionPath);
    return c != 0 ? c : fileId.compareTo(o.fileId);
  }
}
