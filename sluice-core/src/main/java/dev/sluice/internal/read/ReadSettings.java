package dev.sluice.internal.read;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import java.nio.file.Path;

/**
 * The read path's options, read from {@link Config} here and nowhere else in the read package. Each is a key of
 * {@link ConfigKeys}, where its Hudi name, default and meaning are.
 *
 * @param parallelism {@link ConfigKeys#READ_PARALLELISM}, used when a scan sets none
 * @param logMergeMaxMemory {@link ConfigKeys#LOG_MERGE_MAX_MEMORY}: the heap budget of a scan's merged log records
 * @param spillDirectory {@link ConfigKeys#SPILLABLE_MAP_PATH}
 * @param incrementalFallbackFullScan {@link ConfigKeys#INCR_FALLBACK_FULL_TABLE_SCAN}
 * @param metadataTable {@link ConfigKeys#METADATA_ENABLE}: list through the metadata table when it is valid
 */
public record ReadSettings(int parallelism, long logMergeMaxMemory, Path spillDirectory,
    boolean incrementalFallbackFullScan, boolean metadataTable) {

  /** The read options in {@code config}. */
  public static ReadSettings from(Config config) {
    return new ReadSettings(config.get(ConfigKeys.READ_PARALLELISM), config.get(ConfigKeys.LOG_MERGE_MAX_MEMORY),
        Path.of(config.get(ConfigKeys.SPILLABLE_MAP_PATH)), config.get(ConfigKeys.INCR_FALLBACK_FULL_TABLE_SCAN),
        config.get(ConfigKeys.METADATA_ENABLE));
  }

  /** The defaults. */
  public static ReadSettings defaults() {
    return from(Config.empty());
  }
}
