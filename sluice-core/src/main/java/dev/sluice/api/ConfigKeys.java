package dev.sluice.api;

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
      "Index for tagging: BLOOM, SIMPLE, GLOBAL_BLOOM, GLOBAL_SIMPLE, RECORD_INDEX (the metadata table's record-level "
          + "index; global; falls back to GLOBAL_SIMPLE with a warning when the table has no valid record index).");
  /** Key-range pruning before bloom probes. */
  public static final ConfigKey<Boolean> BLOOM_PRUNE_BY_RANGES = ConfigKey.ofBoolean("hoodie.bloom.index.prune.by.ranges",
      true, "Compare a key only against base files whose min/max key range contains it.");
  /** Bloom filter type written to footers. */
  public static final ConfigKey<String> BLOOM_FILTER_TYPE = ConfigKey.ofString("hoodie.bloom.index.filter.type",
      "DYNAMIC_V0", "Bloom filter type in base file footers: DYNAMIC_V0 or SIMPLE.");
  /** Entries per bloom filter (per row for dynamic filters). */
  public static final ConfigKey<Integer> BLOOM_NUM_ENTRIES = ConfigKey.ofInt("hoodie.index.bloom.num_entries",
      60_000, "Keys a bloom filter is sized for (per row of a dynamic filter); a file written with fewer keys gets a filter"
          + " sized for those.");
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
  /** Record index: move records whose partition changed. */
  public static final ConfigKey<Boolean> RECORD_INDEX_UPDATE_PARTITION_PATH = ConfigKey.ofBoolean(
      "hoodie.record.index.update.partition.path", false,
      "RECORD_INDEX: a record whose partition changed is deleted from the old partition and inserted in the new; "
          + "false (Hudi's default): it updates the record in the partition the index names.");

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
  /**
   * Content format of MoR log data blocks (default {@code avro}). {@code parquet} writes each block's records as
   * one embedded Parquet file (block type PARQUET_DATA_BLOCK) compressed with {@code hoodie.parquet.compression.codec}
   * and with {@code hoodie.parquet.dictionary.enabled}; {@code hfile} is for Hudi's metadata table and is refused.
   */
  public static final ConfigKey<String> LOGFILE_DATA_BLOCK_FORMAT = ConfigKey.ofString(
      "hoodie.logfile.data.block.format", "avro",
      "MoR: log data block format, avro (default) or parquet (compressed columnar blocks; costlier to encode).");
  /** Heap budget for the merged log records of one file slice. */
  public static final ConfigKey<Long> LOG_MERGE_MAX_MEMORY = ConfigKey.ofLong("hoodie.memory.compaction.max.size",
      Math.min(1_073_741_824L, Runtime.getRuntime().maxMemory() / 4),
      "MoR reads: estimated heap bytes for the merged log records of one file slice before they spill to local disk "
          + "(default: a quarter of the JVM's maximum heap, at most 1 GiB).");
  /** Heap budget for the prepared records of one write batch (Hudi: the merge handle's spillable map). */
  public static final ConfigKey<Long> WRITE_MAX_MEMORY = ConfigKey.ofLong("hoodie.memory.merge.max.size",
      Math.min(1_073_741_824L, Runtime.getRuntime().maxMemory() / 4),
      "Writes: estimated heap bytes of one batch's prepared records; a larger batch is sorted, tagged and written "
          + "through local spill files within this budget (default: a quarter of the JVM's maximum heap, at most 1 GiB).");
  /** Local folder for spilled log records and write batches. */
  public static final ConfigKey<String> SPILLABLE_MAP_PATH = ConfigKey.ofString("hoodie.memory.spillable.map.path",
      System.getProperty("java.io.tmpdir"),
      "Local folder where MoR log records and write batches beyond their memory budget spill.");

  // ---- Failed writes, concurrency, locks ----
  /** How failed writes are rolled back. */
  public static final ConfigKey<String> FAILED_WRITES_POLICY = ConfigKey.ofString("hoodie.cleaner.policy.failed.writes",
      "EAGER", "Failed writes: EAGER (every write first rolls back all failed ones; single writer), LAZY (only those whose "
          + "heartbeat expired; forced by optimistic concurrency control) or NEVER.");
  /** Single writer or optimistic concurrency control. */
  public static final ConfigKey<String> WRITE_CONCURRENCY_MODE = ConfigKey.ofString("hoodie.write.concurrency.mode",
      "SINGLE_WRITER", "SINGLE_WRITER, or OPTIMISTIC_CONCURRENCY_CONTROL for several writers: commits take a lock and fail "
          + "with a conflict if a write that completed meanwhile touched the same file groups.");
  /**
   * The concurrency mode recorded in the table's {@code hoodie.properties} (a table property, set when the table is
   * created: {@code sluice create --concurrency-mode}, or {@link TableSpec.Builder#property}); Hudi has no such
   * property and ignores it. Every Sluice writer of the table follows it; one whose own
   * {@code hoodie.write.concurrency.mode} says otherwise is refused. Empty: not recorded, each writer's own setting.
   */
  public static final ConfigKey<String> TABLE_CONCURRENCY_MODE = ConfigKey.ofString("sluice.table.concurrency.mode", "",
      "Table property (hoodie.properties, set at create): the concurrency mode every writer of the table follows; a "
          + "writer configured otherwise is refused. Empty: each writer's own hoodie.write.concurrency.mode.");
  /** Lock provider class (Hudi's names). */
  public static final ConfigKey<String> LOCK_PROVIDER = ConfigKey.ofString("hoodie.write.lock.provider",
      "org.apache.hudi.client.transaction.lock.FileSystemBasedLockProvider",
      "Lock for optimistic concurrency control: FileSystemBasedLockProvider (a lock file, any process) or "
          + "InProcessLockProvider (threads of one JVM).");
  /** Folder of the file-system lock. */
  public static final ConfigKey<String> LOCK_FILESYSTEM_PATH = ConfigKey.ofString("hoodie.write.lock.filesystem.path", "",
      "Folder of the lock file (default: the table's .hoodie folder).");
  /** Minutes after which a file-system lock counts as abandoned. */
  public static final ConfigKey<Integer> LOCK_FILESYSTEM_EXPIRE = ConfigKey.ofInt("hoodie.write.lock.filesystem.expire", 0,
      "Minutes after which a lock file is taken as abandoned and removed; 0: never (a lock of a dead process on this "
          + "host is removed at once).");
  /** How long to wait for the lock. */
  public static final ConfigKey<Long> LOCK_WAIT_TIME_MS = ConfigKey.ofLong("hoodie.write.lock.wait_time_ms", 60_000L,
      "Milliseconds a commit waits for the lock before it fails.");
  /** Pause between lock attempts. */
  public static final ConfigKey<Long> LOCK_RETRY_WAIT_MS = ConfigKey.ofLong("hoodie.write.lock.wait_time_ms_between_retry",
      1_000L, "Milliseconds between attempts to take the lock.");
  /** Heartbeat interval. */
  public static final ConfigKey<Long> HEARTBEAT_INTERVAL_MS = ConfigKey.ofLong("hoodie.client.heartbeat.interval_in_ms",
      60_000L, "LAZY failed-writes policy: a writer touches .hoodie/.heartbeat/<instant> this often (ms).");
  /** Missed heartbeats after which a writer counts as gone. */
  public static final ConfigKey<Integer> HEARTBEAT_TOLERABLE_MISSES = ConfigKey.ofInt("hoodie.client.heartbeat.tolerable.misses",
      2, "LAZY failed-writes policy: a write whose heartbeat is this many intervals old is failed and may be rolled back.");

  // ---- Metadata table (HoodieMetadataConfig) ----
  /**
   * Whether writers keep Hudi's metadata table ({@code .hoodie/metadata}). Default true, as Hudi 0.15's writers: every
   * action on a version-6 table builds it when missing and mirrors itself into it. The one place that applies it to a
   * table is {@code TableSettings.withMetadataDefault} (and {@code forChanges}, off for changes on versions 8/9).
   */
  public static final ConfigKey<Boolean> METADATA_ENABLE = ConfigKey.ofBoolean("hoodie.metadata.enable", true,
      "true (the default, as Hudi's writers): every action (write, compaction, clean, rollback, restore) keeps the "
          + "metadata table, building its 'files' partition from a listing when the table has none and no other "
          + "instant is pending, and reads list partitions and files through it when it is consistent with the "
          + "timeline; false: actions remove it, reads list storage. Tables of version 8/9: always off (Sluice does "
          + "not keep Hudi 1.x's metadata table yet; a write removes it).");
  /** Metadata deltacommits after which the metadata table is compacted. */
  public static final ConfigKey<Integer> METADATA_COMPACT_MAX_DELTA_COMMITS = ConfigKey.ofInt(
      "hoodie.metadata.compact.max.delta.commits", 10, "The metadata table is compacted (<instant>001) before a write "
          + "once this many of its deltacommits followed its last compaction and no older data-table instant is pending.");

  /** Whether writers keep the metadata table's record-level index ({@code record_index}); default false as Hudi 0.15. */
  public static final ConfigKey<Boolean> RECORD_INDEX_ENABLE = ConfigKey.ofBoolean(
      "hoodie.metadata.record.index.enable", false, "With the metadata table on: true keeps its record_index partition "
          + "(record key to partition and file group; built from the latest file slices by the first action that finds "
          + "none, then kept by every write); false drops a record_index partition another writer built, keeping "
          + "'files' (as Hudi 0.15's writers, whose default is false). Unset: true for a table that has one.");
  /** Fewest file groups (shards) of a new record index; default 10 as Hudi 0.15. */
  public static final ConfigKey<Integer> RECORD_INDEX_MIN_FILEGROUP_COUNT = ConfigKey.ofInt(
      "hoodie.metadata.record.index.min.filegroup.count", 10, "Fewest file groups (shards) a new record index is "
          + "built with. The count is Hudi's estimate at the bootstrap: live keys x growth.factor / (max.filegroup.size "
          + "/ 48 bytes per entry), within [min, max] (the minimum when both are equal); with the defaults the "
          + "minimum below about 112M records. Fixed once built.");
  /** Most file groups of a new record index; default 10000 as Hudi 0.15. */
  public static final ConfigKey<Integer> RECORD_INDEX_MAX_FILEGROUP_COUNT = ConfigKey.ofInt(
      "hoodie.metadata.record.index.max.filegroup.count", 10_000, "Most file groups (shards) a new record index is "
          + "built with (at most 10000: a metadata file id has four digits).");
  /** Size a record-index shard is planned to stay under; default 1 GiB as Hudi 0.15. */
  public static final ConfigKey<Integer> RECORD_INDEX_MAX_FILEGROUP_SIZE = ConfigKey.ofInt(
      "hoodie.metadata.record.index.max.filegroup.size", 1024 * 1024 * 1024, "Bytes one record-index shard is "
          + "planned to hold at most when the shard count is estimated (48 bytes per entry, Hudi's figure); at "
          + "least 48.");
  /** Room for growth in the record index's estimate; default 2.0 as Hudi 0.15. */
  public static final ConfigKey<Double> RECORD_INDEX_GROWTH_FACTOR = ConfigKey.ofDouble(
      "hoodie.metadata.record.index.growth.factor", 2.0, "The live keys at the record index's bootstrap are "
          + "multiplied by this when its shard count is estimated (room for the table to grow; positive).");

  // ---- Cleaning (HoodieCleanConfig) ----
  /** Which file versions the cleaner keeps. */
  public static final ConfigKey<String> CLEANER_POLICY = ConfigKey.ofString("hoodie.cleaner.policy",
      "KEEP_LATEST_COMMITS", "Cleaner policy: KEEP_LATEST_COMMITS (file versions the last N commits need), "
          + "KEEP_LATEST_FILE_VERSIONS (the last N versions of each file group) or KEEP_LATEST_BY_HOURS.");
  /** KEEP_LATEST_COMMITS: commits whose snapshots stay readable. */
  public static final ConfigKey<Integer> CLEANER_COMMITS_RETAINED = ConfigKey.ofInt("hoodie.cleaner.commits.retained",
      10, "KEEP_LATEST_COMMITS: the cleaner keeps every file a query as of any of the last N commits reads.");
  /** KEEP_LATEST_FILE_VERSIONS: versions kept per file group. */
  public static final ConfigKey<Integer> CLEANER_FILE_VERSIONS_RETAINED = ConfigKey.ofInt(
      "hoodie.cleaner.fileversions.retained", 3, "KEEP_LATEST_FILE_VERSIONS: file slices kept per file group.");
  /** KEEP_LATEST_BY_HOURS: hours of commits whose snapshots stay readable. */
  public static final ConfigKey<Integer> CLEANER_HOURS_RETAINED = ConfigKey.ofInt("hoodie.cleaner.hours.retained",
      24, "KEEP_LATEST_BY_HOURS: the cleaner keeps the files of the commits of the last N hours.");
  /** Clean after every commit. */
  public static final ConfigKey<Boolean> CLEAN_AUTOMATIC = ConfigKey.ofBoolean("hoodie.clean.automatic", true,
      "Run the cleaner after each commit (also available as 'sluice clean').");
  /** Commits between cleans. */
  public static final ConfigKey<Integer> CLEAN_MAX_COMMITS = ConfigKey.ofInt("hoodie.clean.max.commits", 1,
      "The cleaner plans a clean once this many commits completed since the last clean.");
  /** Plan cleans over the partitions changed since the last clean only. */
  public static final ConfigKey<Boolean> CLEANER_INCREMENTAL_MODE = ConfigKey.ofBoolean(
      "hoodie.cleaner.incremental.mode", true,
      "KEEP_LATEST_COMMITS: look only at partitions written since the last clean's earliest retained commit.");

  // ---- Reads ----
  /** Threads a scan reads file slices on, unless the scan sets its own. */
  public static final ConfigKey<Integer> READ_PARALLELISM = ConfigKey.ofInt("sluice.read.parallelism", 1,
      "Threads a scan reads file slices on (default 1). With more, slices are read at once; rows still come in "
          + "plan order, as with one.");

  // ---- Incremental queries (DataSourceReadOptions) ----
  /** Incremental queries over archived or cleaned commits: scan the whole table instead of failing. */
  public static final ConfigKey<Boolean> INCR_FALLBACK_FULL_TABLE_SCAN = ConfigKey.ofBoolean(
      "hoodie.datasource.read.incr.fallback.fulltablescan.enable", false,
      "Incremental queries whose range reaches archived commits or cleaned files scan the latest snapshot of the "
          + "whole table, keeping rows whose commit time is in the range, instead of failing.");

  // ---- Archival (HoodieArchivalConfig) ----
  /** Archive after every commit. */
  public static final ConfigKey<Boolean> ARCHIVE_AUTOMATIC = ConfigKey.ofBoolean("hoodie.archive.automatic", true,
      "Archive old instants after each commit (also available as 'sluice archive').");
  /** Completed commits archival leaves on the active timeline. */
  public static final ConfigKey<Integer> KEEP_MIN_COMMITS = ConfigKey.ofInt("hoodie.keep.min.commits", 20,
      "Archival keeps at least this many completed commits on the active timeline (raised when the cleaner needs more).");
  /** Completed commits that trigger archival. */
  public static final ConfigKey<Integer> KEEP_MAX_COMMITS = ConfigKey.ofInt("hoodie.keep.max.commits", 30,
      "Archival runs when the active timeline holds more than this many completed commits.");
  /** Archived instants per log block. */
  public static final ConfigKey<Integer> COMMITS_ARCHIVAL_BATCH = ConfigKey.ofInt("hoodie.commits.archival.batch", 10,
      "Archived timeline entries written per data block of the archive file.");
  /**
   * Files of one layer of a version-8/9 table's archived timeline (LSM) that are merged into one file of the next
   * layer.
   */
  public static final ConfigKey<Integer> TIMELINE_COMPACTION_BATCH_SIZE = ConfigKey.ofInt(
      "hoodie.timeline.compaction.batch.size", 10,
      "Version 8/9 tables: archived timeline files of one layer merged into one file of the next layer.");
  /** Delta commits compaction scheduling needs on the active timeline. */
  public static final ConfigKey<Integer> COMPACT_INLINE_MAX_DELTA_COMMITS = ConfigKey.ofInt(
      "hoodie.compact.inline.max.delta.commits", 5,
      "Delta commits after which compaction is scheduled; MoR archival keeps the delta commits that count toward it.");

  // ---- Table health (sluice stats, sluice files, sluice advise) ----
  /** A file slice with more log files than this is a compaction falling behind. */
  public static final ConfigKey<Integer> HEALTH_MAX_LOG_FILES = ConfigKey.ofInt("sluice.health.max.log.files", 10,
      "Health warning when a file slice has more log files than this (default: 2 x hoodie.compact.inline.max.delta.commits, "
          + "i.e. 10).");
  /** Delta commits since a slice's base file (or since the last compaction) past which compaction is behind. */
  public static final ConfigKey<Integer> HEALTH_MAX_DELTA_COMMITS = ConfigKey.ofInt("sluice.health.max.delta.commits", 10,
      "Health warning when a file slice took more delta commits since its base file than this, or the table more delta "
          + "commits since its last compaction with none scheduled (default: 2 x hoodie.compact.inline.max.delta.commits, "
          + "i.e. 10).");
  /** Age past which a pending compaction is stuck. */
  public static final ConfigKey<Long> HEALTH_PENDING_COMPACTION_MAX_AGE_MINUTES = ConfigKey.ofLong(
      "sluice.health.pending.compaction.max.age.minutes", 60L,
      "Health warning when a requested or inflight compaction is older than this many minutes (default 60).");
  /** Write amplification past which a Copy-on-Write upsert counts as rewriting too much. */
  public static final ConfigKey<Double> HEALTH_WRITE_AMPLIFICATION_MAX = ConfigKey.ofDouble(
      "sluice.health.write.amplification.max", 20.0,
      "Health warning (with the next two) when a recent commit wrote more than this many bytes per byte of the records it "
          + "changed (default 20: under 5% of each rewritten file changed).");
  /** File groups a commit must rewrite before its write amplification is worth a warning. */
  public static final ConfigKey<Integer> HEALTH_MIN_REWRITTEN_FILE_GROUPS = ConfigKey.ofInt(
      "sluice.health.rewritten.file.groups.min", 10,
      "Write amplification warning only for commits that rewrote more than this many existing file groups (default 10).");
  /** Changed records per rewritten file group below which a rewrite is scattered. */
  public static final ConfigKey<Long> HEALTH_MAX_CHANGED_RECORDS_PER_FILE_GROUP = ConfigKey.ofLong(
      "sluice.health.changed.records.per.file.group.max", 1000L,
      "Write amplification warning only when the commit changed fewer records than this per rewritten file group "
          + "(default 1000).");
  /** Rewrite ratio from which advise recommends Merge-on-Read. */
  public static final ConfigKey<Double> HEALTH_ADVISE_BREAK_EVEN = ConfigKey.ofDouble("sluice.health.advise.break.even",
      10.0, "'sluice advise' recommends Merge-on-Read when a Copy-on-Write upsert writes at least this many times the bytes "
          + "a Merge-on-Read append would for the same updates and deletes (default 10: even with compaction rewriting "
          + "each touched file once per 5 delta commits, Merge-on-Read then writes about 3 times less).");
  /** Commits the write-pattern checks and advise look at. */
  public static final ConfigKey<Integer> HEALTH_RECENT_COMMITS = ConfigKey.ofInt("sluice.health.recent.commits", 10,
      "Newest completed writes (commits and delta commits; compactions excluded, and bulk inserts for advise) that the "
          + "write amplification warning and 'sluice advise' look at (default 10).");

  // ---- Compaction (HoodieCompactionConfig) ----
  /** Schedule and run a compaction after each write. */
  public static final ConfigKey<Boolean> COMPACT_INLINE = ConfigKey.ofBoolean("hoodie.compact.inline", false,
      "MoR: after each write, schedule a compaction when the trigger fires and run it before the write returns.");
  /** Schedule (but not run) a compaction after each write. */
  public static final ConfigKey<Boolean> COMPACT_SCHEDULE_INLINE = ConfigKey.ofBoolean("hoodie.compact.schedule.inline",
      false, "MoR: after each write, schedule a compaction when the trigger fires; another process or thread runs it "
          + "(sluice compact TABLE --watch, or sluice.compact.async).");
  /** Run scheduled compactions on a background thread of the writing process. */
  public static final ConfigKey<Boolean> COMPACT_ASYNC = ConfigKey.ofBoolean("sluice.compact.async", false,
      "MoR: the writer schedules compactions after its commits and a background thread of the same process runs "
          + "them while writes go on (started by the first write, stopped by Table.close()).");
  /** When a compaction is due. */
  public static final ConfigKey<String> COMPACT_TRIGGER_STRATEGY = ConfigKey.ofString(
      "hoodie.compact.inline.trigger.strategy", "NUM_COMMITS", "When a compaction is due: NUM_COMMITS (delta commits "
          + "since the last compaction), TIME_ELAPSED (seconds since it), NUM_OR_TIME or NUM_AND_TIME.");
  /** Seconds since the last compaction after which one is due. */
  public static final ConfigKey<Integer> COMPACT_INLINE_MAX_DELTA_SECONDS = ConfigKey.ofInt(
      "hoodie.compact.inline.max.delta.seconds", 3600,
      "Seconds since the last compaction (or the first delta commit) after which TIME_ELAPSED triggers one.");
  /** Which file slices a compaction plan takes. */
  public static final ConfigKey<String> COMPACTION_STRATEGY = ConfigKey.ofString("hoodie.compaction.strategy",
      "org.apache.hudi.table.action.compact.strategy.LogFileSizeBasedCompactionStrategy",
      "Which slices a plan takes (Hudi class names): LogFileSizeBasedCompactionStrategy (largest logs first, bounded "
          + "by hoodie.compaction.target.io), LogFileNumBasedCompactionStrategy (most log files first, bounded) or "
          + "UnBoundedCompactionStrategy (every slice with log files).");
  /** IO budget of one compaction plan. */
  public static final ConfigKey<Long> COMPACTION_TARGET_IO = ConfigKey.ofLong("hoodie.compaction.target.io",
      500L * 1024, "MiB of reads plus writes one compaction plan may take (bounded strategies); the slice that "
          + "crosses it is the last one taken.");
  /** Log size below which a slice is not compacted. */
  public static final ConfigKey<Long> COMPACTION_LOGFILE_SIZE_THRESHOLD = ConfigKey.ofLong(
      "hoodie.compaction.logfile.size.threshold", 0L,
      "LogFileSizeBasedCompactionStrategy: only slices whose log files total at least this many bytes.");
  /** Log file count below which a slice is not compacted. */
  public static final ConfigKey<Long> COMPACTION_LOGFILE_NUM_THRESHOLD = ConfigKey.ofLong(
      "hoodie.compaction.logfile.num.threshold", 0L,
      "LogFileNumBasedCompactionStrategy: only slices with at least this many log files.");

  // ---- Input files (the CLI and the tools' readers) ----
  /** Longest text value an input line may hold. */
  public static final ConfigKey<Integer> INPUT_MAX_VALUE_LENGTH = ConfigKey.ofInt("sluice.input.max.value.length",
      16_777_216, "Longest text value, in characters, a JSON Lines or CSV input may hold (16 Mi); a longer one is bad"
          + " input naming its line and field, refused before it can use up memory.");
  /** Deepest JSON nesting an input line may hold. */
  public static final ConfigKey<Integer> INPUT_MAX_NESTING_DEPTH = ConfigKey.ofInt("sluice.input.max.nesting.depth",
      1000, "Deepest nesting of JSON arrays and objects in an input line (or a JSON cell of a CSV file); deeper is bad"
          + " input naming its line.");

  // ---- Options themselves ----
  /** Refuse unknown hoodie.* and sluice.* keys ({@link KnownKeys}). */
  public static final ConfigKey<Boolean> STRICT_CONFIG = ConfigKey.ofBoolean("sluice.config.strict", false,
      "true: Tables.open and Tables.create refuse options with an unknown hoodie.* or sluice.* key (naming the closest "
          + "known key); the CLI's --strict-config. false: unknown keys are ignored (the CLI warns about them).");

  /** Sync the table's definition to a catalog after each commit (module sluice-hive-sync on the class path). */
  public static final ConfigKey<Boolean> META_SYNC_ENABLE = ConfigKey.ofBoolean("hoodie.datasource.meta.sync.enable",
      false, "true: after each commit, create or update the table in the Hive Metastore (needs sluice-hive-sync; "
          + "a failed sync is logged and never fails the commit; see also 'sluice sync').");
  /** The metastore the sync talks to. */
  public static final ConfigKey<String> HIVE_SYNC_METASTORE_URIS = ConfigKey.ofString(
      "hoodie.datasource.hive_sync.metastore.uris", "thrift://localhost:9083",
      "The Hive Metastore's Thrift URI(s), comma-separated: the first that answers is used.");
  /** The database the table goes into. */
  public static final ConfigKey<String> HIVE_SYNC_DATABASE = ConfigKey.ofString("hoodie.datasource.hive_sync.database",
      "default", "The metastore database of the synced table (created when missing, see auto_create_database).");
  /** The table's name in the metastore. */
  public static final ConfigKey<String> HIVE_SYNC_TABLE = ConfigKey.ofString("hoodie.datasource.hive_sync.table", "",
      "The metastore table name; empty: hoodie.table.name. Merge-on-Read: <name>_ro and <name>_rt (and <name>).");
  /** The Hive partition columns. */
  public static final ConfigKey<String> HIVE_SYNC_PARTITION_FIELDS = ConfigKey.ofString(
      "hoodie.datasource.hive_sync.partition_fields", "",
      "The Hive partition columns, comma-separated; empty: the table's hoodie.table.partition.fields.");
  /** How partition values are read from a partition path. */
  public static final ConfigKey<String> HIVE_SYNC_PARTITION_EXTRACTOR = ConfigKey.ofString(
      "hoodie.datasource.hive_sync.partition_extractor_class", "",
      "Hudi's extractor class name: org.apache.hudi.hive.MultiPartKeysValueExtractor, SinglePartPartitionValueExtractor, "
          + "HiveStylePartitionValueExtractor or NonPartitionedExtractor; empty: chosen as Hudi does (none for no "
          + "partition fields, hive-style or single-part for one, multi-part for several).");
  /** Create the database when missing. */
  public static final ConfigKey<Boolean> HIVE_SYNC_AUTO_CREATE_DATABASE = ConfigKey.ofBoolean(
      "hoodie.datasource.hive_sync.auto_create_database", true, "Create the metastore database when it is missing.");
  /** Name the read-optimized table without the _ro suffix. */
  public static final ConfigKey<Boolean> HIVE_SYNC_SKIP_RO_SUFFIX = ConfigKey.ofBoolean(
      "hoodie.datasource.hive_sync.skip_ro_suffix", false,
      "Merge-on-Read: name the read-optimized table <name> instead of <name>_ro.");
  /** Timestamps as Hive TIMESTAMP. */
  public static final ConfigKey<Boolean> HIVE_SYNC_SUPPORT_TIMESTAMP = ConfigKey.ofBoolean(
      "hoodie.datasource.hive_sync.support_timestamp", false,
      "Avro timestamp-millis/micros columns as Hive TIMESTAMP (false: BIGINT, as Hudi does by default).");
  /** Spark data source properties. */
  public static final ConfigKey<Boolean> HIVE_SYNC_AS_DATASOURCE = ConfigKey.ofBoolean(
      "hoodie.datasource.hive_sync.sync_as_datasource", true,
      "Write Spark's data source table properties (spark.sql.sources.*) and the path/hoodie.query.as.ro.table serde "
          + "properties, so Spark SQL reads the table through Hudi.");
  /** Also sync a Merge-on-Read table's snapshot under its own name. */
  public static final ConfigKey<Boolean> META_SYNC_SNAPSHOT_WITH_TABLE_NAME = ConfigKey.ofBoolean(
      "hoodie.meta.sync.sync_snapshot_with_table_name", true,
      "Merge-on-Read: also sync the snapshot (realtime) table under the plain table name, as Hudi 0.15 does.");
  /** The sync mode: only hms. */
  public static final ConfigKey<String> HIVE_SYNC_MODE = ConfigKey.ofString("hoodie.datasource.hive_sync.mode", "hms",
      "How the sync talks to Hive: hms (the metastore's Thrift API) is the only mode Sluice has (no JDBC, no HiveQL).");

  /** All keys, for documentation and {@code --help}. */
  public static List<ConfigKey<?>> all() {
    return List.of(PARQUET_COMPRESSION, PARQUET_MAX_FILE_SIZE, PARQUET_BLOCK_SIZE, PARQUET_PAGE_SIZE,
        PARQUET_DICTIONARY, SMALL_FILE_LIMIT, RECORD_SIZE_ESTIMATE, RECORD_SIZE_THRESHOLD, INDEX_TYPE,
        BLOOM_PRUNE_BY_RANGES, BLOOM_FILTER_TYPE, BLOOM_NUM_ENTRIES, BLOOM_FPP, BLOOM_DYNAMIC_MAX_ENTRIES,
        BLOOM_UPDATE_PARTITION_PATH, SIMPLE_UPDATE_PARTITION_PATH,
        RECORD_INDEX_UPDATE_PARTITION_PATH,
        COMBINE_BEFORE_UPSERT, COMBINE_BEFORE_INSERT,
        WRITE_PARALLELISM, PAYLOAD_CLASS, MERGE_SMALL_FILE_GROUP_CANDIDATES_LIMIT, LOGFILE_MAX_SIZE,
        LOGFILE_DATA_BLOCK_FORMAT, LOG_MERGE_MAX_MEMORY, WRITE_MAX_MEMORY, SPILLABLE_MAP_PATH, FAILED_WRITES_POLICY,
        WRITE_CONCURRENCY_MODE, TABLE_CONCURRENCY_MODE, LOCK_PROVIDER,
        LOCK_FILESYSTEM_PATH, LOCK_FILESYSTEM_EXPIRE, LOCK_WAIT_TIME_MS, LOCK_RETRY_WAIT_MS, HEARTBEAT_INTERVAL_MS,
        HEARTBEAT_TOLERABLE_MISSES, METADATA_ENABLE, METADATA_COMPACT_MAX_DELTA_COMMITS, RECORD_INDEX_ENABLE,
        RECORD_INDEX_MIN_FILEGROUP_COUNT, RECORD_INDEX_MAX_FILEGROUP_COUNT, RECORD_INDEX_MAX_FILEGROUP_SIZE,
        RECORD_INDEX_GROWTH_FACTOR,
        CLEANER_POLICY, CLEANER_COMMITS_RETAINED,
        CLEANER_FILE_VERSIONS_RETAINED, CLEANER_HOURS_RETAINED, CLEAN_AUTOMATIC, CLEAN_MAX_COMMITS,
        CLEANER_INCREMENTAL_MODE, READ_PARALLELISM, INCR_FALLBACK_FULL_TABLE_SCAN, ARCHIVE_AUTOMATIC, KEEP_MIN_COMMITS,
        KEEP_MAX_COMMITS,
        COMMITS_ARCHIVAL_BATCH, TIMELINE_COMPACTION_BATCH_SIZE,
        COMPACT_INLINE_MAX_DELTA_COMMITS, HEALTH_MAX_LOG_FILES, HEALTH_MAX_DELTA_COMMITS,
        HEALTH_PENDING_COMPACTION_MAX_AGE_MINUTES, HEALTH_WRITE_AMPLIFICATION_MAX, HEALTH_MIN_REWRITTEN_FILE_GROUPS,
        HEALTH_MAX_CHANGED_RECORDS_PER_FILE_GROUP, HEALTH_ADVISE_BREAK_EVEN, HEALTH_RECENT_COMMITS,
        COMPACT_INLINE, COMPACT_SCHEDULE_INLINE, COMPACT_ASYNC,
        COMPACT_TRIGGER_STRATEGY, COMPACT_INLINE_MAX_DELTA_SECONDS, COMPACTION_STRATEGY, COMPACTION_TARGET_IO,
        COMPACTION_LOGFILE_SIZE_THRESHOLD, COMPACTION_LOGFILE_NUM_THRESHOLD, INPUT_MAX_VALUE_LENGTH,
        INPUT_MAX_NESTING_DEPTH, STRICT_CONFIG, META_SYNC_ENABLE, HIVE_SYNC_METASTORE_URIS, HIVE_SYNC_DATABASE,
        HIVE_SYNC_TABLE, HIVE_SYNC_PARTITION_FIELDS, HIVE_SYNC_PARTITION_EXTRACTOR, HIVE_SYNC_AUTO_CREATE_DATABASE,
        HIVE_SYNC_SKIP_RO_SUFFIX, HIVE_SYNC_SUPPORT_TIMESTAMP, HIVE_SYNC_AS_DATASOURCE, META_SYNC_SNAPSHOT_WITH_TABLE_NAME,
        HIVE_SYNC_MODE);
  }
}
