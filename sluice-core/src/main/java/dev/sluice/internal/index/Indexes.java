package dev.sluice.internal.index;

import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import dev.sluice.storage.Storage;
import java.util.List;

/** Builds the index named by {@code hoodie.index.type}. */
public final class Indexes {
  private Indexes() {
  }

  /** The type of the metadata table's record-level index. */
  public static final String RECORD_INDEX = "RECORD_INDEX";

  /** The index types Sluice supports. */
  public static final List<String> TYPES = List.of("BLOOM", "SIMPLE", "GLOBAL_BLOOM", "GLOBAL_SIMPLE", RECORD_INDEX);

  /** The index {@code settings} name, over {@code table}. */
  public static Index of(Storage storage, IndexedTable table, IndexSettings settings) {
    int threads = settings.threads();
    boolean prune = settings.pruneByRanges();
    return switch (settings.type()) {
      case "BLOOM" -> new KeyLookupIndex(storage, new BloomCandidates(prune), false, false, threads);
      case "GLOBAL_BLOOM" -> new KeyLookupIndex(storage, new BloomCandidates(prune), true,
          settings.updatePartitionPath(), threads);
      case "SIMPLE" -> new KeyLookupIndex(storage, (reader, keys) -> keys, false, false, threads);
      case "GLOBAL_SIMPLE" -> globalSimple(storage, settings);
      case RECORD_INDEX -> new RecordLevelIndex(storage, table, settings, RecordLevelIndex.CHUNK_KEYS);
      default -> throw Errors.badConfig(ConfigKeys.INDEX_TYPE.name(), settings.type(), "one of " + TYPES);
    };
  }

  /** The global simple index (also the record index's fallback): every base file's key column, all partitions. */
  static Index globalSimple(Storage storage, IndexSettings settings) {
    return new KeyLookupIndex(storage, (reader, keys) -> keys, true, settings.updatePartitionPath(), settings.threads());
  }
}
