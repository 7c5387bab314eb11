package dev.sluice.internal.mdt;

/**
 * One entry of a {@code files} record ({@code HoodieMetadataFileInfo}): a file's size, or a tombstone. An added file
 * must have a size above zero: Hudi's readers refuse to merge a live entry of size 0 or less.
 *
 * @param size bytes of the file (0 for a tombstone or a partition-list entry)
 * @param deleted true for a tombstone
 */
public record FileEntry(long size, boolean deleted) {
  /** A tombstone. */
  public static final FileEntry DELETED = new FileEntry(0, true);
  /** A partition in the partition list. */
  public static final FileEntry PARTITION = new FileEntry(0, false);

  /** A live file of {@code size} bytes. */
  public static FileEntry file(long size) {
    return new FileEntry(size, false);
  }
}
