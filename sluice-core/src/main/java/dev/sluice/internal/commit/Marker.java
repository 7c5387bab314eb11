package dev.sluice.internal.commit;

/**
 * One marker: a data file an instant's write may have created.
 *
 * @param partitionPath relative partition path ("" for non-partitioned tables)
 * @param fileName the data file's name
 * @param ioType what the write did
 */
public record Marker(String partitionPath, String fileName, IOType ioType) {
  /** The data file's path relative to the base path. */
  public String relativeFilePath() {
    return partitionPath.isEmpty() ? fileName : partitionPath + "/" + fileName;
  }
}
