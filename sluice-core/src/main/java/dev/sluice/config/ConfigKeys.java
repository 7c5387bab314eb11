package dev.sluice.config;

import java.util.List;

/**
 * Every configuration key Sluice reads, with its default and meaning. Names are Hudi's where Hudi has the
 * setting; {@code sluice.*} names are Sluice's own.
 */
public final class ConfigKeys {
  private ConfigKeys() {
  }

  // ---- Parquet base files ----
  /** Parquet compression codec. Sluice defaults to snappy (Hudi's default is gzip). */
  public static final ConfigKey<String> PARQUET_COMPRESSION = ConfigKey.ofString("hoodie.parquet.compression.codec",
      "snappy", "Parquet compression codec: snappy, gzip, zstd, uncompressed.");
  /** Target size of a base file. */
  public static final ConfigKey<Long> PARQUET_MAX_FILE_SIZE = ConfigKey.ofLong("hoodie.parquet.max.file.size",
      125_829_120L, "Target size in bytes of a base file (120 MiB).");
  /** Row group size. */
  public static final ConfigKey<Long> PARQUET_BLOCK_SIZE = ConfigKey.ofLong("hoodie.parquet.block.size",
      125_829_120L, "Parquet row group size in bytes (120 MiB).");
  /** Page size. */
  public static final ConfigKey<Integer> PARQUET_PAGE_SIZE = ConfigKey.ofInt("hoodie.parquet.page.size",
      1_048_576, "Parquet page size in bytes (1 MiB).");
  /** Dictionary encoding. */
  public static final ConfigKey<Boolean> PARQUET_DICTIONARY = ConfigKey.ofBoolean("hoodie.parquet.dictionary.enabled",
      true, "Parquet dictionary encoding.");
  /** Base files below this size receive inserts before new file groups are opened; 0 disables. */
  public static final ConfigKey<Long> SMALL_FILE_LIMIT = ConfigKey.ofLong("hoodie.parquet.small.file.limit",
      104_857_600L, "Base files smaller than this (bytes) take new inserts first; 0 turns small-file handling off.");
  /** Record size guess before any commit gives a measured average. */
  public static final ConfigKey<Long> RECORD_SIZE_ESTIMATE = ConfigKey.ofLong("hoodie.copyonwrite.record.size.estimate",
      1024L, "Estimated bytes per record until earlier commits give a measured average.");
  /** Which commits count for the average record size. */
  public static final ConfigKey<Double> RECORD_SIZE_THRESHOLD = ConfigKey.ofDouble("hoodie.record.size.estimation.threshold",
      1.0, "A commit's average record size is used once it wrote more than this fraction of the small-file limit.");

  // ---- Index ----
  /** Index used for tagging. */
  public static final ConfigKey<String> INDEX_TYPE = ConfigKey.ofString("hoodie.index.type", "BLOOM",
      "Index for tagging: BLOOM, SIMPLE, GLOBAL_BLOOM, GLOBAL_SIMPLE.");
  /** Key-range pruning before bloom probes. */
  public static final ConfigKey<Boolean> BLOOM_PRUNE_BY_RANGES = ConfigKey.ofBoolean("hoodie.bloom.index.prune.by.ranges",
      true, "Compare a key only against base files whose min/max key range contains it.");
  /** Bloom filter type written to footers. */
  public static final ConfigKey<String> BLOOM_FILTER_TYPE = ConfigKey.ofString("hoodie.bloom.index.filter.type",
      "DYNAMIC_V0", "Bloom filter type in base file footers: DYNAMIC_V0 or SIMPLE.");
  /** Entries per bloom filter (per row for dynamic filters). */
  public static final ConfigKey<Integer> BLOOM_NUM_ENTRIES = ConfigKey.ofInt("hoodie.index.bloom.num_entries",
      60_000, "Keys a bloom filter is sized for (per row of a dynamic filter).");
  /** False positive probability. */
  public static final ConfigKey<Double> BLOOM_FPP = ConfigKey.ofDouble("hoodie.index.bloom.fpp",
      0.000000001, "Bloom filter false positive probability.");
  /** Dynamic filter ceiling. */
  public static final ConfigKey<Integer> BLOOM_DYNAMIC_MAX_ENTRIES = ConfigKey.ofInt(
      "hoodie.bloom.index.filter.dynamic.max.entries", 100_000, "Keys after which a dynamic bloom filter stops growing.");
  /** Global bloom: move records whose partition changed. */
  public static final ConfigKey<Boolean> BLOOM_UPDATE_PARTITION_PATH = ConfigKey.ofBoolean(
      "hoodie.bloom.index.update.partition.path", true,
      "Global bloom index: a record whose partition changed is deleted from the old partition and inserted in the new.");
  /** Global simple: move records whose partition changed. */
  public static final ConfigKey<Boolean> SIMPLE_UPDATE_PARTITION_PATH = ConfigKey.ofBoolean(
      "hoodie.simple.index.update.partition.path", true,
      "Global simple index: a record whose partition changed is deleted from the old partition and inserted in the new.");

  // ---- Write ----
  /** Combine duplicate keys of one batch. */
  public static final ConfigKey<Boolean> COMBINE_BEFORE_UPSERT = ConfigKey.ofBoolean("hoodie.combine.before.upsert",
      true, "Combine records with the same key inside one upsert batch (larger precombine value wins).");
  /** Combine duplicate keys of one insert batch. */
  public static final ConfigKey<Boolean> COMBINE_BEFORE_INSERT = ConfigKey.ofBoolean("hoodie.combine.before.insert",
      true, "Combine records with the same key inside one insert batch.");
  /** Threads for writing file groups. */
  public static final ConfigKey<Integer> WRITE_PARALLELISM = ConfigKey.ofInt("sluice.write.parallelism",
      Runtime.getRuntime().availableProcessors(), "Threads that write file groups in parallel (default: cores).");
  /** Payload (merge mode) for tables Sluice creates. */
  public static final ConfigKey<String> PAYLOAD_CLASS = ConfigKey.ofString("hoodie.compaction.payload.class",
      "org.apache.hudi.common.model.DefaultHoodieRecordPayload",
      "Merge mode: DefaultHoodieRecordPayload (event-time ordering) or OverwriteWithLatestAvroPayload (commit-time).");

  // ---- Merge-on-Read ----
  /** Small file groups per partition that may take inserts in a MoR write. */
  public static final ConfigKey<Integer> MERGE_SMALL_FILE_GROUP_CANDIDATES_LIMIT = ConfigKey.ofInt(
      "hoodie.merge.small.file.group.candidates.limit", 1,
      "MoR: at most this many small file groups (with no log files yet) per partition take inserts; their updates "
          + "are then merged into a new base file instead of being appended to a log.");
  /** Log file size after which appends go to a new log version. */
  public static final ConfigKey<Long> LOGFILE_MAX_SIZE = ConfigKey.ofLong("hoodie.logfile.max.size",
      1_073_741_824L, "MoR: a log file larger than this (bytes, 1 GiB) is closed; later appends start a new version.");
  /** Heap budget for the merged log records of one file slice. */
  public static final ConfigKey<Long> LOG_MERGE_MAX_MEMORY = ConfigKey.ofLong("hoodie.memory.compaction.max.size",
      Math.min(1_073_741_824L, Runtime.getRuntime().maxMemory() / 4),
      "MoR reads: estimated heap bytes for the merged log records of one file slice before they spill to local disk "
          + "(default: a quarter of the JVM's maximum heap, at most 1 GiB).");
  /** Local folder for spilled log records. */
  public static final ConfigKey<String> SPILLABLE_MAP_PATH = ConfigKey.ofString("hoodie.memory.spillable.map.path",
      System.getProperty("java.io.tmpdir"), "MoR reads: local folder where log records beyond the memory budget spill.");

  /** All keys, for documentation and {@code --help}. */
  public static List<ConfigKey<?>> all() {
    return List.of(PARQUET_COMPRESSION, PARQUET_MAX_FILE_SIZE, PARQUET_BLOCK_SIZE, PARQUET_PAGE_SIZE,
        PARQUET_DICTIONARY, SMALL_FILE_LIMIT, RECORD_SIZE_ESTIMATE, RECORD_SIZE_THRESHOLD, INDEX_TYPE,
        BLOOM_PRUNE_BY_RANGES, BLOOM_FILTER_TYPE, BLOOM_NUM_ENTRIES, BLOOM_FPP, BLOOM_DYNAMIC_MAX_ENTRIES,
        BLOOM_UPDATE_PARTITION_PATH, SIMPLE_UPDATE_PARTITION_PATH, COMBINE_BEFORE_UPSERT, COMBINE_BEFORE_INSERT,
        WRITE_PARALLELISM, PAYLOAD_CLASS, MERGE_SMALL_FILE_GROUP_CANDIDATES_LIMIT, LOGFILE_MAX_SIZE,
        LOG_MERGE_MAX_MEMORY, SPILLABLE_MAP_PATH);
  }
}
