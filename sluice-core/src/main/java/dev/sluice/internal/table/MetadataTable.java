package dev.sluice.internal.table;

import dev.sluice.internal.error.Errors;
import dev.sluice.storage.Storage;
import java.io.IOException;

/**
 * Removing the metadata table ({@code .hoodie/metadata}): what a writer with {@code hoodie.metadata.enable=false}
 * does, and the fall-back wherever it cannot be kept, since Hudi readers and writers would trust a stale file
 * listing. Keeping it is {@code mdt.write.MetadataTableWriter}'s.
 */
public final class MetadataTable {
  private MetadataTable() {
  }

  /** True if {@code .hoodie/metadata} exists or the config lists completed or inflight metadata partitions. */
  public static boolean isPresent(Storage storage, String basePath, TableConfig config) {
    String folder = TableLayout.metadataTableFolder(basePath);
    try {
      return !config.metadataPartitions().isEmpty() || !config.metadataPartitionsInflight().isEmpty()
          || storage.info(folder).isPresent();
    } catch (IOException e) {
      throw Errors.storage("check for the metadata table at", folder, e);
    }
  }

  /**
   * Removes the metadata table the way a Hudi 0.15 writer with {@code hoodie.metadata.enable=false} does
   * ({@code HoodieTableMetadataUtil.deleteMetadataTable}): the table config is updated first so that
   * {@code hoodie.table.metadata.partitions} and {@code hoodie.table.metadata.partitions.inflight} are both
   * empty ({@code clearMetadataPartitions}), then {@code .hoodie/metadata} is deleted. Returns whether anything
   * was removed or changed.
   */
  public static boolean removeIfPresent(Storage storage, String basePath) {
    TableConfig config = TableConfigStore.read(storage, basePath);
    if (!isPresent(storage, basePath, config)) {
      return false;
    }
    boolean configNeedsClearing = !config.get(TableConfig.METADATA_PARTITIONS).orElse("").isEmpty()
        || !config.get(TableConfig.METADATA_PARTITIONS_INFLIGHT).orElse("").isEmpty();
    if (configNeedsClearing) {
      // config first: a crash after this leaves an unused folder, never a listed-but-missing metadata table
      TableConfigStore.update(storage, basePath, c -> c.with(TableConfig.METADATA_PARTITIONS, "")
          .with(TableConfig.METADATA_PARTITIONS_INFLIGHT, ""));
    }
    String folder = TableLayout.metadataTableFolder(basePath);
    try {
      storage.deleteRecursively(folder);
    } catch (IOException e) {
      throw Errors.storage("delete the metadata table", folder, e);
    }
    return true;
  }
}
