package dev.sluice.internal.mdt.write;

import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.log.AppendResult;
import dev.sluice.internal.log.LogWriter;
import dev.sluice.internal.mdt.FileEntry;
import dev.sluice.internal.mdt.FilesRecord;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.MetadataRecords;
import dev.sluice.internal.table.PartitionMetadata;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.table.TableLayout;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Creates the metadata table with its {@code files} partition from a listing, as Hudi 0.15's
 * {@code initializeFromFilesystem} does: {@code .hoodie/metadata} with its {@code hoodie.properties}, the
 * partition's {@code .hoodie_partition_metadata}, the initializing deltacommit {@code <latest completed instant or
 * 00000000000000>010} (requested and inflight empty) whose file group gets a log file with an empty delete block and
 * a base HFile holding the partition list and one file list per partition, the deltacommit completed, then
 * {@code hoodie.table.metadata.partitions=files} in the data table's config. Until that last step no reader uses the
 * new table, and a bootstrap that died is redone from scratch.
 */
final class Bootstrap {
  private final Storage storage;
  private final String basePath;
  private final String mdtBase;
  private final TimelineStore mdt;
  private final MetadataTableForm form;

  Bootstrap(Storage storage, String basePath, TimelineStore mdt, MetadataTableForm form) {
    this.storage = storage;
    this.basePath = basePath;
    this.mdtBase = mdt.basePath();
    this.mdt = mdt;
    this.form = form;
  }

  /** Builds the metadata table of the data table whose timeline is {@code dt} (no pending instant). */
  void run(Timeline dt) {
    String init = form.init(dt, 0);
    String upTo = form.listedUpTo(dt);
    TableConfig data = TableConfigStore.read(storage, basePath);
    KillPoints.reach("metadata.bootstrap.start");
    TableLayout.initialize(storage, mdtBase, form.properties(data));
    String files = MetadataPartition.FILES.path();
    PartitionMetadata.ensure(storage, mdtBase, files, init);
    Instant requested = Instant.requested(init, Action.DELTACOMMIT);
    mdt.createRequested(requested, new byte[0]);
    Instant inflight = mdt.transitionToInflight(requested, new byte[0]);
    // only files of instants up to the initialization: later ones are mirrored by their own deltacommits
    Map<String, Map<String, Long>> listing = DataFiles.list(storage, basePath, t -> t.compareTo(upTo) <= 0);
    List<FilesRecord> records = records(listing);
    String filesDir = StoragePaths.join(mdtBase, files);
    try (LogWriter writer = LogWriter.builder(storage, filesDir, MetadataTableWriter.FILE_ID, init)
        .ownFileEachSession().writeToken(MetadataTableWriter.WRITE_TOKEN).open()) {
      AppendResult res = writer.appendBlocks(List.of(MetadataTableWriter.emptyDeleteBlock(init)));
      if (res.version() != FileNames.FIRST_LOG_VERSION) {
        throw Errors.internal("the new metadata table's first log file is version " + res.version(), null);
      }
    }
    String baseName = MetadataTableWriter.FILE_ID + "_" + MetadataTableWriter.WRITE_TOKEN + "_" + init + ".hfile";
    String basePathOfFile = StoragePaths.join(filesDir, baseName);
    BaseHFile.write(storage, basePathOfFile, records);
    long size = BaseHFile.size(storage, basePathOfFile);
    WriteStat stat = WriteStat.builder().fileId(MetadataTableWriter.FILE_ID).path(files + "/" + baseName)
        .prevCommit(WriteStat.NULL_COMMIT).partitionPath(files).numWrites(records.size()).numInserts(records.size())
        .totalWriteBytes(size).fileSizeInBytes(size).build();
    CommitMetadata md = new CommitMetadata(Map.of(files, List.of(stat)), false,
        Map.of(CommitMetadata.SCHEMA_KEY, MetadataRecords.schema().toString()), WriteOperationType.BULK_INSERT);
    KillPoints.reach("metadata.bootstrap.commit");
    mdt.complete(inflight, mdt.layout().encode(md));
    KillPoints.reach("metadata.bootstrap.list");
    TableConfigStore.update(storage, basePath, c -> c.with(TableConfig.METADATA_PARTITIONS, files)
        .with(TableConfig.METADATA_PARTITIONS_INFLIGHT, ""));
  }

  /**
   * The version-6 metadata table's {@code hoodie.properties} (Hudi 0.15's {@code initializeMetaClient}); the checksum
   * is added on write.
   */
  static TableConfig config(String dataTableName) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(TableConfig.PAYLOAD_CLASS, "org.apache.hudi.metadata.HoodieMetadataPayload");
    p.put(TableConfig.TYPE, "MERGE_ON_READ");
    p.put(TableConfig.ARCHIVELOG_FOLDER, TableLayout.ARCHIVED_FOLDER);
    p.put(TableConfig.TIMELINE_LAYOUT_VERSION, "1");
    p.put(TableConfig.DROP_PARTITION_COLUMNS, "false");
    p.put(TableConfig.RECORDKEY_FIELDS, MetadataRecords.KEY);
    p.put(TableConfig.NAME, dataTableName + "_metadata");
    p.put(TableConfig.RECORD_MERGER_STRATEGY, TableConfig.DEFAULT_MERGER_STRATEGY);
    p.put(TableConfig.POPULATE_META_FIELDS, "false");
    p.put(TableConfig.KEY_GENERATOR_CLASS, "org.apache.hudi.metadata.HoodieTableMetadataKeyGenerator");
    p.put(TableConfig.BASE_FILE_FORMAT, "HFILE");
    p.put(TableConfig.VERSION, Integer.toString(TableConfig.CURRENT_TABLE_VERSION));
    return TableConfig.of(p);
  }

  /** The partition list and one file list per partition of {@code listing}. */
  static List<FilesRecord> records(Map<String, Map<String, Long>> listing) {
    Map<String, FileEntry> partitions = new TreeMap<>();
    List<FilesRecord> out = new ArrayList<>();
    listing.forEach((partition, files) -> {
      partitions.put(FilesRecord.partitionId(partition), FileEntry.PARTITION);
      Map<String, FileEntry> entries = new TreeMap<>();
      files.forEach((name, size) -> entries.put(name, FileEntry.file(size)));
      out.add(FilesRecord.fileList(partition, entries));
    });
    out.add(FilesRecord.partitionList(partitions));
    return out;
  }
}
