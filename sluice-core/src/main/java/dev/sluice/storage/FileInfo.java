package dev.sluice.storage;

/**
 * What a listing says of one entry.
 *
 * @param path absolute path in the storage's form
 * @param length size in bytes (0 for directories)
 * @param directory true for a directory
 * @param modificationTime milliseconds since the epoch
 */
public record FileInfo(String path, long length, boolean directory, long modificationTime) {
  /** The last path component. */
  public String name() {
    return StoragePaths.name(path);
  }
}
