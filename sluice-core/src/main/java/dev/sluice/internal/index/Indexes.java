package dev.sluice.internal.index;

import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import dev.sluice.storage.Storage;
import java.util.List;
import java.util.Locale;

/** Builds the index named by {@code hoodie.index.type}. */
public final class Indexes {
  private Indexes() {
  }

  /** The index types Sluice supports. */
  public static final List<String> TYPES = List.of("BLOOM", "SIMPLE", "GLOBAL_BLOOM", "GLOBAL_SIMPLE");

  /** The configured index. */
  public static Index forConfig(Storage storage, Config config) {
    String type = config.get(ConfigKeys.INDEX_TYPE).toUpperCase(Locale.ROOT);
    int threads = config.get(ConfigKeys.WRITE_PARALLELISM);
    boolean prune = config.get(ConfigKeys.BLOOM_PRUNE_BY_RANGES);
    return switch (type) {
      case "BLOOM" -> new KeyLookupIndex(storage, new BloomCandidates(prune), false, false, threads);
      case "GLOBAL_BLOOM" -> new KeyLookupIndex(storage, new BloomCandidates(prune), true,
          config.get(ConfigKeys.BLOOM_UPDATE_PARTITION_PATH), threads);
      case "SIMPLE" -> new KeyLookupIndex(storage, (reader, keys) -> keys, false, false, threads);
      case "GLOBAL_SIMPLE" -> new KeyLookupIndex(storage, (reader, keys) -> keys, true,
          config.get(ConfigKeys.SIMPLE_UPDATE_PARTITION_PATH), threads);
      default -> throw Errors.badConfig(ConfigKeys.INDEX_TYPE.name(), type, "one of " + TYPES);
    };
  }

  /** True if the configured index is global (keys unique across partitions). */
  public static boolean isGlobal(Config config) {
    return config.get(ConfigKeys.INDEX_TYPE).toUpperCase(Locale.ROOT).startsWith("GLOBAL_");
  }
}
