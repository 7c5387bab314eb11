package dev.sluice.internal.write;

import dev.sluice.api.WriteOperation;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.index.IndexSettings;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The write path's options, read from {@link Config} here and nowhere else in the write package, so a bad value fails
 * before the write touches a file and the code below sees typed values. Each is a key of {@link ConfigKeys}, where
 * its Hudi name, default and meaning are.
 *
 * @param fileOptions the base file writer's options (Parquet and bloom filter keys)
 * @param parquetLogBlocks {@link ConfigKeys#LOGFILE_DATA_BLOCK_FORMAT} is parquet (false: avro)
 * @param maxFileSize {@link ConfigKeys#PARQUET_MAX_FILE_SIZE}
 * @param logFileMaxSize {@link ConfigKeys#LOGFILE_MAX_SIZE}
 * @param parallelism {@link ConfigKeys#WRITE_PARALLELISM}, at least 1
 * @param combineBeforeUpsert {@link ConfigKeys#COMBINE_BEFORE_UPSERT}
 * @param combineBeforeInsert {@link ConfigKeys#COMBINE_BEFORE_INSERT}
 * @param maxMemory {@link ConfigKeys#WRITE_MAX_MEMORY}, as configured
 * @param spillDirectory {@link ConfigKeys#SPILLABLE_MAP_PATH}
 * @param smallFileLimit {@link ConfigKeys#SMALL_FILE_LIMIT}
 * @param smallFileGroupCandidates {@link ConfigKeys#MERGE_SMALL_FILE_GROUP_CANDIDATES_LIMIT}
 * @param recordSizeEstimate {@link ConfigKeys#RECORD_SIZE_ESTIMATE}
 * @param recordSizeThreshold {@link ConfigKeys#RECORD_SIZE_THRESHOLD}
 * @param index the index options
 */
public record WriteSettings(BaseFileWriterOptions fileOptions, boolean parquetLogBlocks, long maxFileSize,
    long logFileMaxSize, int parallelism, boolean combineBeforeUpsert, boolean combineBeforeInsert, long maxMemory,
    Path spillDirectory, long smallFileLimit, int smallFileGroupCandidates, long recordSizeEstimate,
    double recordSizeThreshold, IndexSettings index) {

  /** The write options in {@code config}; refuses bad values. */
  public static WriteSettings from(Config config) {
    return new WriteSettings(BaseFileWriterOptions.from(config), parquetLogBlocks(config),
        config.get(ConfigKeys.PARQUET_MAX_FILE_SIZE), config.get(ConfigKeys.LOGFILE_MAX_SIZE),
        Math.max(1, config.get(ConfigKeys.WRITE_PARALLELISM)), config.get(ConfigKeys.COMBINE_BEFORE_UPSERT),
        config.get(ConfigKeys.COMBINE_BEFORE_INSERT), config.get(ConfigKeys.WRITE_MAX_MEMORY),
        Path.of(config.get(ConfigKeys.SPILLABLE_MAP_PATH)), config.get(ConfigKeys.SMALL_FILE_LIMIT),
        config.get(ConfigKeys.MERGE_SMALL_FILE_GROUP_CANDIDATES_LIMIT), config.get(ConfigKeys.RECORD_SIZE_ESTIMATE),
        config.get(ConfigKeys.RECORD_SIZE_THRESHOLD), IndexSettings.from(config));
  }

  /** Whether an operation combines duplicate keys of its batch: upserts and deletes by one key, the rest by another. */
  public boolean combine(WriteOperation op) {
    return op == WriteOperation.UPSERT || op == WriteOperation.DELETE ? combineBeforeUpsert : combineBeforeInsert;
  }

  /**
   * True if MoR log data blocks are written as Parquet ({@code hoodie.logfile.data.block.format=parquet}); false
   * for Avro, the default. {@code hfile} (Hudi's metadata-table format) and unknown values are refused.
   */
  private static boolean parquetLogBlocks(Config config) {
    String format = config.get(ConfigKeys.LOGFILE_DATA_BLOCK_FORMAT).trim().toLowerCase(Locale.ROOT);
    return switch (format) {
      case "", "avro" -> false;
      case "parquet" -> true;
      case "hfile" -> throw Errors.unsupported("Writing HFile log data blocks ("
          + ConfigKeys.LOGFILE_DATA_BLOCK_FORMAT.name() + "=hfile)",
          "HFile blocks are only for Hudi's metadata table; set it to avro or parquet.");
      default -> throw Errors.badConfig(ConfigKeys.LOGFILE_DATA_BLOCK_FORMAT.name(), format, "avro or parquet");
    };
  }
}
