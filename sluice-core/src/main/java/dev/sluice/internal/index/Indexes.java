package dev.sluice.internal.index;

import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import dev.sluice.storage.Storage;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.timeline.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

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
    return of(storage, table, settings, FooterPreload.NONE);
  }

  /**
   * The index {@code settings} name, over {@code table}, taking the footers {@code preload} has read so far (and
   * stopping it): its lookups read only the footers the preload had not.
   */
  public static Index of(Storage storage, IndexedTable table, IndexSettings settings, FooterPreload preload) {
    int threads = settings.threads();
    boolean prune = settings.pruneByRanges();
    Map<String, FooterPreload.Preloaded> footers = preload.stop();
    return switch (settings.type()) {
      case "BLOOM" -> new KeyLookupIndex(storage, new BloomCandidates(prune), false, false, threads, footers);
      case "GLOBAL_BLOOM" -> new KeyLookupIndex(storage, new BloomCandidates(prune), true,
          settings.updatePartitionPath(), threads, footers);
      case "SIMPLE" -> new KeyLookupIndex(storage, (reader, keys) -> keys, false, false, threads, footers);
      case "GLOBAL_SIMPLE" -> globalSimple(storage, settings, footers);
      case RECORD_INDEX -> new RecordLevelIndex(storage, table, settings, RecordLevelIndex.CHUNK_KEYS);
      default -> throw Errors.badConfig(ConfigKeys.INDEX_TYPE.name(), settings.type(), "one of " + TYPES);
    };
  }

  /** Of two file groups whose base files both hold a key, the one with its live copy ({@link KeyLookupIndex#liveCopy}). */
  public static Location liveCopy(Location a, Location b) {
    return KeyLookupIndex.liveCopy(a, b);
  }

  /**
   * The tags of {@code r}, whose key a global index found at {@code loc} (the one rule of every global index, in a
   * single-machine write and in a distributed one): an update there if the partitions agree; else, with
   * {@code updatePartitionPath}, a delete in the old partition plus an insert in the new one; else an update in the
   * old partition.
   */
  public static List<TaggedRecord> tagFound(WriteRecord r, Location loc, boolean updatePartitionPath) {
    List<TaggedRecord> out = new ArrayList<>(2);
    KeyLookupIndex.tagFound(r, loc, updatePartitionPath, out);
    return out;
  }

  /**
   * The shard count of {@code table}'s record index as of {@code timeline} if a RECORD_INDEX write can look keys up
   * in it; empty if it tags as GLOBAL_SIMPLE instead (the reason logged, as {@link #of}'s index does).
   */
  public static Optional<Integer> recordIndexShards(Storage storage, IndexedTable table, IndexSettings settings,
      Timeline timeline) {
    return new RecordLevelIndex(storage, table, settings, RecordLevelIndex.CHUNK_KEYS).shards(timeline);
  }

  /**
   * A lookup of keys in {@code table}'s record index as of {@code timeline}, one call per batch of keys (best one
   * shard's keys per call): each key it holds and its location.
   */
  public static Function<List<String>, Map<String, RecordLocation>> recordIndexLookup(Storage storage,
      IndexedTable table, IndexSettings settings, Timeline timeline) {
    RecordLevelIndex index = new RecordLevelIndex(storage, table, settings, RecordLevelIndex.CHUNK_KEYS);
    return keys -> index.locations(timeline, keys);
  }

  /** The global simple index (also the record index's fallback): every base file's key column, all partitions. */
  static Index globalSimple(Storage storage, IndexSettings settings) {
    return globalSimple(storage, settings, Map.of());
  }

  private static Index globalSimple(Storage storage, IndexSettings settings,
      Map<String, FooterPreload.Preloaded> footers) {
    return new KeyLookupIndex(storage, (reader, keys) -> keys, true, settings.updatePartitionPath(), settings.threads(),
        footers);
  }
}
