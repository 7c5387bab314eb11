package dev.sluice.internal.write;

import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.index.Indexes;
import dev.sluice.api.MergeMode;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.storage.Storage;
import dev.sluice.internal.table.TableConfig;
import java.util.Locale;
import org.apache.avro.Schema;

/**
 * Everything a write needs that does not change while it runs: where the table is, its config and schema,
 * and the write options.
 *
 * @param storage the table's storage
 * @param basePath the table base path
 * @param tableConfig the table's {@code hoodie.properties}
 * @param userSchema the table schema without meta fields
 * @param writerSchema the schema of base files: the five meta fields, then the user schema's fields
 * @param config write options
 */
public record WriteSetup(Storage storage, String basePath, TableConfig tableConfig, Schema userSchema, Schema writerSchema,
    Config config) {

  /** A setup for a table and schema. */
  public static WriteSetup of(Storage storage, String basePath, TableConfig tableConfig, Schema userSchema, Config config) {
    WriteSetup setup = new WriteSetup(storage, basePath, tableConfig, userSchema, MetaFields.withMetaFields(userSchema),
        config);
    // fail before writing: a bad log block format is refused before any file is touched
    setup.parquetLogBlocks();
    return setup;
  }

  /** The table's merge rules. */
  public RecordMerger merger() {
    return new RecordMerger(MergeMode.fromPayloadClass(tableConfig.payloadClass()));
  }

  /** True if the configured index is global. */
  public boolean globalIndex() {
    return Indexes.isGlobal(config);
  }

  /** Base file writer options. */
  public BaseFileWriterOptions fileOptions() {
    return BaseFileWriterOptions.from(config);
  }

  /**
   * True if MoR log data blocks are written as Parquet ({@code hoodie.logfile.data.block.format=parquet}); false
   * for Avro, the default. {@code hfile} (Hudi's metadata-table format) and unknown values are refused.
   */
  public boolean parquetLogBlocks() {
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

  /** Target base file size. */
  public long maxFileSize() {
    return config.get(ConfigKeys.PARQUET_MAX_FILE_SIZE);
  }

  /** Threads for file group writes. */
  public int parallelism() {
    return Math.max(1, config.get(ConfigKeys.WRITE_PARALLELISM));
  }
}
