package dev.sluice.internal.index;

import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import dev.sluice.storage.Storage;
import java.util.List;

/** Builds the index named by {@code hoodie.index.type}. */
public final class Indexes {
  private Indexes() {
  }

  /** The index types Sluice supports. */
  public static final List<String> TYPES = List.of("BLOOM", "SIMPLE", "GLOBAL_BLOOM", "GLOBAL_SIMPLE");

  /** The index {@code settings} name. */
  public static Index of(Storage storage, IndexSettings settings) {
    int threads = settings.threads();
    boolean prune = settings.pruneByRanges();
    return switch (settings.type()) {
      case "BLOOM" -> new KeyLookupIndex(storage, new BloomCandidates(prune), false, false, threads);
      case "GLOBAL_BLOOM" -> new KeyLookupIndex(storage, new BloomCandidates(prune), true,
          settings.updatePartitionPath(), threads);
      case "SIMPLE" -> new KeyLookupIndex(storage, (reader, keys) -> keys, false, false, threads);
      case "GLOBAL_SIMPLE" -> new KeyLookupIndex(storage, (reader, keys) -> keys, true,
          settings.updatePartitionPath(), threads);
      default -> throw Errors.badConfig(ConfigKeys.INDEX_TYPE.name(), settings.type(), "one of " + TYPES);
    };
  }
}
