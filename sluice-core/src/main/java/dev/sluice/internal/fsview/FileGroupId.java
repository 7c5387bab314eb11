package dev.sluice.internal.fsview;

import java.util.Objects;

/**
 * A file group: a file id within a partition.
 *
 * @param partitionPath relative partition path ("" for non-partitioned tables)
 * @param fileId the file id, {@code <uuid>-<n>}
 */
public record FileGroupId(String partitionPath, String fileId) implements Comparable<FileGroupId> {
  /** Rejects nulls. */
  public FileGroupId {
    Objects.requireNonNull(partitionPath, "partitionPath");
    Objects.requireNonNull(fileId, "fileId");
  }

  @Override
  public int compareTo(FileGroupId o) {
    int c = partitionPath.compareTo(o.partitionPath);
    return c != 0 ? c : fileId.compareTo(o.fileId);
  }
}
