package dev.sluice.internal.mdt.write;

import dev.sluice.api.CloseableIterator;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.log.AppendResult;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.DeleteRecord;
import dev.sluice.internal.log.HeaderKey;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogReader;
import dev.sluice.internal.log.LogWriter;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.MetadataRecords;
import dev.sluice.internal.commit.RecordIndexSizing;
import dev.sluice.internal.mdt.RecordIndexFileGroups;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.table.PartitionMetadata;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.generic.GenericRecord;

/**
 * The metadata table's {@code record_index} partition in Hudi 0.15's format (version 6) and Hudi 1.x's (versions 8/9:
 * the same shards and entries, a log file of each write's own instant, as {@link MetadataTableForm} and the metadata
 * timeline's layout decide): {@code n} file groups (shards)
 * {@code record-index-0000-0} ... , a key in shard {@link MetadataPartition#fileGroupIndex}; each entry a type-5 record
 * (partition, file id, instant). This class builds it ({@link #bootstrap}) and appends one write's changes to the
 * shards they touch ({@link #append}); {@link RecordIndexCompaction} compacts it. Every step is bounded in memory:
 * keys pass through {@link RecordIndexChanges}' external sort, a log block holds at most {@link #BLOCK_RECORDS}
 * records.
 */
final class RecordIndexPartition {
  /** The partition's folder and its name in {@code hoodie.table.metadata.partitions}. */
  static final String PATH = MetadataPartition.RECORD_INDEX.path();
  /**
   * Records per HFile log block: a block is built on the heap before it is written (as Hudi builds each one); a
   * shard's change of one write larger than this goes in several blocks of the same instant.
   */
  static final int BLOCK_RECORDS = 50_000;
  /** The partition path Hudi's metadata append handle puts in a record-index delete. */
  private static final String DELETE_PARTITION = PATH;
  /**
   * File groups a new data partition gets in a partitioned record index: Hudi 1.1's default of
   * {@code hoodie.metadata.record.level.index.min.filegroup.count}, which Sluice does not read.
   */
  static final int PARTITIONED_MIN_FILE_GROUPS = 1;

  private final Storage storage;
  private final String mdtBase;
  private final String dir;
  private final TimelineStore mdt;

  RecordIndexPartition(Storage storage, TimelineStore mdt) {
    this.storage = storage;
    this.mdtBase = mdt.basePath();
    this.dir = StoragePaths.join(mdtBase, PATH);
    this.mdt = mdt;
  }

  /** The metadata table's form (the record index has the data table's version, and so the same form). */
  private MetadataTableForm form() {
    return MetadataTableForm.of(mdt.layout());
  }

  /** The partition's folder. */
  String dir() {
    return dir;
  }

  /** The shards (file id to the slice new logs go to), sorted by file id; empty if the folder has none. */
  SortedMap<String, FilesPartitionState> shards(Timeline tl) {
    try {
      if (storage.info(dir).isEmpty()) {
        return new TreeMap<>();
      }
    } catch (IOException e) {
      throw Errors.storage("check for", dir, e);
    }
    return FilesPartitionState.loadAll(storage, dir, tl);
  }

  /** Deletes the partition's folder (its files are no longer listed in the data table's config). */
  void deleteFolder() {
    try {
      storage.deleteRecursively(dir);
    } catch (IOException e) {
      throw Errors.storage("delete the metadata table partition", dir, e);
    }
  }

  /**
   * Builds the partition at metadata instant {@code init} from the live keys of the latest file slice of every file
   * group of the data table whose timeline is {@code dt} (Hudi's {@code initializeRecordIndexPartition}): every shard
   * gets a log file with an empty delete block, the shards with keys a base HFile
   * {@code <fileId>_0-0-0_<init>.hfile}, then the deltacommit completes. The caller lists the partition in the
   * data table's config afterwards; until then no reader uses it and a bootstrap that died is redone.
   */
  void bootstrap(String dataBasePath, Timeline dt, String init, RecordIndexSizing sizing, SliceKeys keys, long budget,
      Path spillDirectory) {
    sizing.checked();
    KillPoints.reach("metadata.ri.bootstrap.start");
    deleteFolder();
    PartitionMetadata.ensure(storage, mdtBase, PATH, init);
    Instant requested = Instant.requested(init, Action.DELTACOMMIT);
    mdt.createRequested(requested, new byte[0]);
    Instant inflight = mdt.transitionToInflight(requested, new byte[0]);
    List<WriteStat> stats = new ArrayList<>();
    // the keys are sorted for the minimum shard count while they are counted; Hudi's estimate from the count can
    // only be more shards (a large table, or a small max.filegroup.size), and then they are sorted once more for it
    RecordIndexChanges collected = RecordIndexChanges.collecting(sizing.minFileGroups(), budget, spillDirectory);
    RecordIndexChanges all = collected;
    try {
      long live = 0;
      FileSystemView view = FileSystemView.of(storage, dataBasePath, dt);
      for (String partition : view.partitions()) {
        for (FileSlice slice : view.latestSlices(partition)) {
          try (CloseableIterator<String> it = keys.keys(slice, dt)) {
            while (it.hasNext()) {
              collected.insert(it.next(), partition, slice.fileId(), slice.baseInstant());
              live++;
            }
          }
        }
      }
      int shards = sizing.fileGroups(live);
      if (shards != collected.shards()) {
        all = collected.resharded(shards);
        collected.close();
      }
      for (int i = 0; i < shards; i++) {
        try (LogWriter writer = LogWriter.builder(storage, dir, MetadataPartition.RECORD_INDEX.fileId(i), init)
            .ownFileEachSession().writeToken(MetadataTableWriter.WRITE_TOKEN).open()) {
          writer.appendBlocks(List.of(MetadataTableWriter.emptyDeleteBlock(init)));
        }
      }
      KillPoints.reach("metadata.ri.bootstrap.files");
      try (CloseableIterator<RecordIndexChanges.Change> it = all.changes()) {
        RecordIndexHFile out = null;
        try {
          while (it.hasNext()) {
            RecordIndexChanges.Change c = it.next();
            String fileId = MetadataPartition.RECORD_INDEX.fileId(c.shard());
            if (out == null || !out.fileId().equals(fileId)) {
              if (out != null) {
                stats.add(out.finish(WriteStat.NULL_COMMIT, false, 0));
              }
              out = RecordIndexHFile.create(storage, dir, fileId, init);
            }
            out.append(c.key(), new RecordLocation(c.partition(), c.fileId(), c.instant()));
          }
          if (out != null) {
            stats.add(out.finish(WriteStat.NULL_COMMIT, false, 0));
            out = null;
          }
        } catch (RuntimeException e) {
          if (out != null) {
            out.abandon(e);
          }
          throw e;
        }
      }
    } finally {
      collected.close();
      all.close();
    }
    CommitMetadata md = new CommitMetadata(Map.of(PATH, stats), false,
        Map.of(CommitMetadata.SCHEMA_KEY, MetadataRecords.schema().toString()), WriteOperationType.BULK_INSERT);
    KillPoints.reach("metadata.ri.bootstrap.commit");
    mdt.complete(inflight, mdt.layout().encode(md));
  }

  /**
   * Appends {@code changes} to Hudi 1.1's partitioned record index: each key's entry goes to a file group of its own
   * data partition, picked by the key hash among that partition's file groups (Hudi's tagging of partitioned index
   * records); a data partition without file groups (new in this write) first gets
   * {@value #PARTITIONED_MIN_FILE_GROUPS}, as Hudi 1.1 gives it
   * {@code hoodie.metadata.record.level.index.min.filegroup.count} (default 1).
   */
  List<WriteStat> appendPartitioned(String instant, RecordIndexChanges changes,
      SortedMap<String, FilesPartitionState> shards) {
    Map<String, List<String>> byPartition = byDataPartition(shards.keySet());
    boolean added = false;
    for (String p : changes.partitions()) {
      if (!byPartition.containsKey(p)) {
        addPartitionFileGroups(p, PARTITIONED_MIN_FILE_GROUPS, instant);
        added = true;
      }
    }
    SortedMap<String, FilesPartitionState> all = added ? shards(mdt.load()) : shards;
    Map<String, List<String>> groups = added ? byDataPartition(all.keySet()) : byPartition;
    Map<String, Integer> position = new HashMap<>();
    int n = 0;
    for (String fileId : all.keySet()) {
      position.put(fileId, n++);
    }
    try (RecordIndexChanges routed = changes.rerouted(all.size(), c -> {
      List<String> own = groups.get(c.partition());
      if (own == null) {
        return -1;
      }
      return position.get(own.get(MetadataPartition.fileGroupIndex(c.key(), own.size())));
    })) {
      return append(instant, routed, all);
    }
  }

  /** The file ids of a partitioned record index by data partition, each list sorted (the file group order). */
  private static Map<String, List<String>> byDataPartition(Set<String> fileIds) {
    Map<String, List<String>> out = new HashMap<>();
    for (String id : new TreeSet<>(fileIds)) {
      out.computeIfAbsent(RecordIndexFileGroups.dataPartitionOf(id), p -> new ArrayList<>()).add(id);
    }
    return out;
  }

  /**
   * Adds {@code count} file groups for data partition {@code dataPartition} to a partitioned record index at metadata
   * instant {@code instant} (a data partition that write creates; Hudi 1.1 gives it its configured minimum): each a
   * log file of the instant with an empty delete block, so the file group exists before any key reaches it.
   */
  void addPartitionFileGroups(String dataPartition, int count, String instant) {
    for (int i = 0; i < count; i++) {
      try (LogWriter writer = LogWriter.builder(storage, dir,
          RecordIndexFileGroups.fileId(dataPartition, i), instant)
          .ownFileEachSession().writeToken(MetadataTableWriter.WRITE_TOKEN).open()) {
        writer.appendBlocks(List.of(MetadataTableWriter.emptyDeleteBlock(instant)));
      }
    }
  }

  /**
   * Appends {@code changes} of the write at {@code instant} to the shards they touch, each shard one new log file
   * (HFile data blocks of the new locations, a delete block of the deleted keys, Hudi's layout), and returns the
   * write stats. {@code changes} must be sorted for the partition's shard count.
   */
  List<WriteStat> append(String instant, RecordIndexChanges changes, SortedMap<String, FilesPartitionState> shards) {
    List<WriteStat> stats = new ArrayList<>();
    List<String> fileIds = new ArrayList<>(shards.keySet());
    try (CloseableIterator<RecordIndexChanges.Change> it = changes.changes()) {
      ShardAppend current = null;
      while (it.hasNext()) {
        RecordIndexChanges.Change c = it.next();
        String fileId = fileIds.get(c.shard());
        if (current == null || !current.state.fileId().equals(fileId)) {
          if (current != null) {
            stats.add(current.finish());
          }
          current = new ShardAppend(shards.get(fileId), instant);
        }
        current.add(c);
      }
      if (current != null) {
        stats.add(current.finish());
      }
    }
    return stats;
  }

  /** The blocks of one shard for one write: data blocks of at most {@link #BLOCK_RECORDS}, then the deletes. */
  private final class ShardAppend {
    private final FilesPartitionState state;
    private final String instant;
    private final Map<HeaderKey, String> header;
    private final List<GenericRecord> records = new ArrayList<>();
    private final List<DeleteRecord> deletes = new ArrayList<>();
    private LogWriter writer;
    private AppendResult last;
    private long written;
    private long bytes;
    private int blocks;

    ShardAppend(FilesPartitionState state, String instant) {
      this.state = state;
      this.instant = instant;
      this.header = Map.of(HeaderKey.INSTANT_TIME, instant, HeaderKey.SCHEMA, MetadataRecords.storedSchema().toString());
    }

    void add(RecordIndexChanges.Change c) {
      if (c.isDelete()) {
        deletes.add(new DeleteRecord(c.key(), DELETE_PARTITION, DeleteRecord.NATURAL_ORDERING));
        if (deletes.size() >= BLOCK_RECORDS) {
          write(new DeleteBlock(header, List.copyOf(deletes)), deletes.size());
          deletes.clear();
        }
        return;
      }
      String at = c.instant().isEmpty() ? instant : c.instant();
      records.add(MetadataRecords.toAvro(c.key(), new RecordLocation(c.partition(), c.fileId(), at.substring(0,
          Math.min(17, at.length())))));
      if (records.size() >= BLOCK_RECORDS) {
        flushRecords();
      }
    }

    private void flushRecords() {
      write(DataBlock.hfile(header, MetadataRecords.storedSchema(), List.copyOf(records), MetadataRecords.KEY),
          records.size());
      records.clear();
    }

    private void write(LogBlock block, int count) {
      if (writer == null) {
        if (state.baseInstant().isEmpty()) {
          throw Errors.badTable(dir, "the record index's file group " + state.fileId() + " has no file slice",
              "Drop the record index (hoodie.metadata.record.index.enable=false for one write); the next write with it"
                  + " on rebuilds it.");
        }
        KillPoints.reach("metadata.ri.log.before");
        // version 6: the slice's next log version; 1.x: a log file of the deltacommit's own
        writer = LogWriter.builder(storage, dir, state.fileId(), mdt.layout().logFileInstant(state.baseInstant(),
            instant)).ownFileEachSession().writeToken(MetadataTableWriter.WRITE_TOKEN).open();
      }
      last = writer.appendBlocks(List.of(block));
      written += count;
      bytes += last.size();
      blocks++;
    }

    WriteStat finish() {
      try {
        if (!records.isEmpty()) {
          flushRecords();
        }
        if (!deletes.isEmpty()) {
          write(new DeleteBlock(header, List.copyOf(deletes)), deletes.size());
          deletes.clear();
        }
      } finally {
        if (writer != null) {
          writer.close();
        }
      }
      List<String> logs = form().statLogFiles(state.logFileNames(), last.file().fileName());
      return WriteStat.builder().fileId(state.fileId()).path(PATH + "/" + last.file().fileName())
          .prevCommit(mdt.layout().logFileInstant(state.baseInstant(), instant)).partitionPath(PATH)
          .numWrites(written).numUpdateWrites(written)
          .totalWriteBytes(bytes).fileSizeInBytes(last.file().size()).totalLogRecords(written)
          .totalLogBlocks(blocks).delta(true).logVersion(last.version()).logOffset(last.offset())
          .baseFile(state.baseFileName()).logFiles(logs).build();
    }
  }

  /**
   * The shards of {@code shards} whose current slice has a data or delete block of {@code instant} (log headers
   * read; block contents are not).
   */
  Map<String, FilesPartitionState> shardsWithBlocksOf(String instant, SortedMap<String, FilesPartitionState> shards) {
    Map<String, FilesPartitionState> out = new TreeMap<>();
    for (FilesPartitionState shard : shards.values()) {
      boolean found = false;
      for (FileInfo f : shard.logFiles()) {
        try (LogReader reader = LogReader.open(storage, f.path())) {
          while (!found && reader.hasNext()) {
            LogBlock b = reader.next();
            found = (b instanceof DataBlock || b instanceof DeleteBlock) && b.instantTime().orElse("").equals(instant);
          }
        }
        if (found) {
          out.put(shard.fileId(), shard);
          break;
        }
      }
    }
    return out;
  }
}
