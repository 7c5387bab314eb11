package dev.sluice.internal.clean;

import dev.sluice.storage.StoragePaths;
import java.util.Objects;

/**
 * One file a clean plan deletes ({@code HoodieCleanFileInfo}).
 *
 * @param path full path of the file
 * @param bootstrapBaseFile true for the source file of a bootstrapped base file (Hudi's bootstrap; Sluice never
 *                          plans these, but runs plans that have them)
 */
public record CleanFile(String path, boolean bootstrapBaseFile) {
  /** Rejects a null path. */
  public CleanFile {
    Objects.requireNonNull(path, "path");
  }

  /** A data file of the table. */
  public static CleanFile of(String path) {
    return new CleanFile(path, false);
  }

  /** The file name (what clean metadata records for table files). */
  public String name() {
    return StoragePaths.name(path);
  }
}
