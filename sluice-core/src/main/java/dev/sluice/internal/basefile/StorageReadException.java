package dev.sluice.internal.basefile;

import java.io.IOException;

/**
 * Marks an I/O failure of the storage itself while Parquet reads a file, so it is reported as a storage error and
 * not as a damaged file. The cause is the storage's exception.
 */
final class StorageReadException extends IOException {
  StorageReadException(IOException cause) {
    super(cause.getMessage(), cause);
  }

  /** The storage failure somewhere in {@code t}'s cause chain, if any. */
  static IOException find(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof StorageReadException s) {
        return (IOException) s.getCause();
      }
    }
    return null;
  }
}
