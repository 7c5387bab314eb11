package dev.sluice.internal.write;

import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.commit.CommitSettings;
import dev.sluice.internal.index.IndexedTable;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.storage.Storage;
import dev.sluice.internal.table.TableConfig;
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
 * @param settings the write options, read and checked once
 * @param commit the commit options ({@code WriteTransaction}: concurrency, lock, heartbeat)
 */
public record WriteSetup(Storage storage, String basePath, TableConfig tableConfig, Schema userSchema, Schema writerSchema,
    WriteSettings settings, CommitSettings commit) {

  /** A setup for a table and schema with write options read and checked before any file is touched. */
  public static WriteSetup of(Storage storage, String basePath, TableConfig tableConfig, Schema userSchema,
      WriteSettings settings, CommitSettings commit) {
    return new WriteSetup(storage, basePath, tableConfig, userSchema, MetaFields.withMetaFields(userSchema), settings,
        commit);
  }

  /** This setup with the table's configuration as re-read after a change to it (the metadata table built). */
  public WriteSetup withTableConfig(TableConfig changed) {
    return new WriteSetup(storage, basePath, changed, userSchema, writerSchema, settings, commit);
  }

  /** The table's merge rules. */
  public RecordMerger merger() {
    return new RecordMerger(tableConfig.mergeMode(), tableConfig.hasMergeMode());
  }

  /** The table as the index sees it (the record index reads the metadata table when the writer keeps it). */
  public IndexedTable indexedTable() {
    return new IndexedTable(basePath, tableConfig, commit.metadataEnabled());
  }

  /** True if the configured index is global. */
  public boolean globalIndex() {
    return settings.index().global();
  }

  /** Base file writer options. */
  public BaseFileWriterOptions fileOptions() {
    return settings.fileOptions();
  }

  /** True if MoR log data blocks are written as Parquet; see {@link WriteSettings#parquetLogBlocks}. */
  public boolean parquetLogBlocks() {
    return settings.parquetLogBlocks();
  }

  /** Target base file size. */
  public long maxFileSize() {
    return settings.maxFileSize();
  }

  /** Threads for file group writes. */
  public int parallelism() {
    return settings.parallelism();
  }
}
