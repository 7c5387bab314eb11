package dev.sluice.internal.index;

import dev.sluice.internal.table.TableConfig;
import java.util.Objects;

/**
 * The table an index tags against, beyond its file-system view: what the record index needs to find and trust the
 * metadata table.
 *
 * @param basePath the table's base path
 * @param config its {@code hoodie.properties} as the write or lookup read them (which metadata partitions are built)
 * @param metadataEnabled {@code hoodie.metadata.enable} of the writer or reader: the record index is used only with it
 */
public record IndexedTable(String basePath, TableConfig config, boolean metadataEnabled) {
  /** Checks the parts. */
  public IndexedTable {
    Objects.requireNonNull(basePath, "basePath");
    Objects.requireNonNull(config, "config");
  }
}
