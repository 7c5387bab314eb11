package dev.sluice.internal.index;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import java.util.Locale;

/**
 * The index options, read from {@link Config} here once and checked (an unknown type fails before a write starts).
 * Each is a key of {@link ConfigKeys}, where its Hudi name, default and meaning are.
 *
 * @param type {@link ConfigKeys#INDEX_TYPE}, upper case, one of {@link Indexes#TYPES}
 * @param pruneByRanges {@link ConfigKeys#BLOOM_PRUNE_BY_RANGES}
 * @param updatePartitionPath for a global index, {@link ConfigKeys#BLOOM_UPDATE_PARTITION_PATH},
 *     {@link ConfigKeys#SIMPLE_UPDATE_PARTITION_PATH} or {@link ConfigKeys#RECORD_INDEX_UPDATE_PARTITION_PATH} by its
 *     type (the record index's fallback to a global simple lookup keeps the record index's); false otherwise
 * @param threads {@link ConfigKeys#WRITE_PARALLELISM}: the threads that look keys up
 */
public record IndexSettings(String type, boolean pruneByRanges, boolean updatePartitionPath, int threads) {

  /** The index options in {@code config}; refuses an unknown index type. */
  public static IndexSettings from(Config config) {
    String type = config.get(ConfigKeys.INDEX_TYPE).toUpperCase(Locale.ROOT);
    boolean update = switch (type) {
      case "BLOOM", "SIMPLE" -> false;
      case "GLOBAL_BLOOM" -> config.get(ConfigKeys.BLOOM_UPDATE_PARTITION_PATH);
      case "GLOBAL_SIMPLE" -> config.get(ConfigKeys.SIMPLE_UPDATE_PARTITION_PATH);
      case Indexes.RECORD_INDEX -> config.get(ConfigKeys.RECORD_INDEX_UPDATE_PARTITION_PATH);
      default -> throw Errors.badConfig(ConfigKeys.INDEX_TYPE.name(), type, "one of " + Indexes.TYPES);
    };
    return new IndexSettings(type, config.get(ConfigKeys.BLOOM_PRUNE_BY_RANGES), update,
        config.get(ConfigKeys.WRITE_PARALLELISM));
  }

  /** True if keys are unique across partitions. */
  public boolean global() {
    return type.startsWith("GLOBAL_") || type.equals(Indexes.RECORD_INDEX);
  }
}
