package dev.sluice.internal.mdt.write;

import dev.sluice.internal.util.ParsedSchemas;
import dev.sluice.api.CloseableIterator;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.BaseFileName;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.LogFileName;
import dev.sluice.internal.hfile.HFileCell;
import dev.sluice.internal.hfile.HFileReader;
import dev.sluice.internal.log.CommandBlock;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogBlockType;
import dev.sluice.internal.log.LogReader;
import dev.sluice.internal.mdt.FilesRecord;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.MetadataRecords;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * A metadata file group as the writer sees it (the {@code files} partition's one, or a record-index shard): its
 * latest base file (from a completed instant) and that slice's log files, and the records they merge to. The merge
 * trusts every block of a completed metadata instant that no later rollback command block undid: what Hudi's readers
 * trust once the data table's instants are complete (which is the case the writer needs: a restore's re-sync, a
 * compaction).
 */
final class FilesPartitionState {
  private static final String FILE_ID = MetadataPartition.FILES.fileId(0);

  private final String fileId;
  private final Optional<FileInfo> baseFile;
  private final String baseInstant;
  private final List<FileInfo> logFiles;

  private FilesPartitionState(String fileId, Optional<FileInfo> baseFile, String baseInstant, List<FileInfo> logFiles) {
    this.fileId = fileId;
    this.baseFile = baseFile;
    this.baseInstant = baseInstant;
    this.logFiles = logFiles;
  }

  /**
   * The slice of {@code files-0000-0} that new log files go to: the newest base file whose instant completed on the
   * metadata timeline {@code mdt}, or the newest pending compaction's instant (logs written after a compaction was
   * planned belong to its new slice); the logs with that base instant, in version order.
   */
  static FilesPartitionState load(Storage storage, String filesDir, Timeline mdt) {
    return of(list(storage, filesDir), FILE_ID, mdt);
  }

  /**
   * The slice new log files go to of every file group of a partition whose folder {@code dir} holds them (one listing),
   * by file id, sorted: the record index's shards.
   */
  static java.util.SortedMap<String, FilesPartitionState> loadAll(Storage storage, String dir, Timeline mdt) {
    List<FileInfo> entries = list(storage, dir);
    java.util.SortedMap<String, FilesPartitionState> out = new TreeMap<>();
    for (FileInfo f : entries) {
      Optional<String> id = FileNames.parseBase(f.name()).map(BaseFileName::fileId)
          .or(() -> FileNames.parseLog(f.name()).map(LogFileName::fileId));
      id.filter(i -> !out.containsKey(i)).ifPresent(i -> out.put(i, of(entries, i, mdt)));
    }
    return out;
  }

  private static List<FileInfo> list(Storage storage, String dir) {
    try {
      return storage.list(dir);
    } catch (IOException e) {
      throw Errors.storage("list the metadata table partition", dir, e);
    }
  }

  private static FilesPartitionState of(List<FileInfo> entries, String fileId, Timeline mdt) {
    Optional<FileInfo> base = Optional.empty();
    String baseTime = "";
    Timeline committed = mdt.commitsTimeline().completed();
    for (FileInfo f : entries) {
      Optional<BaseFileName> b = FileNames.parseBase(f.name()).filter(n -> n.fileId().equals(fileId));
      // a compaction archived off the metadata timeline completed (archival moves only completed instants)
      if (b.isPresent() && committed.containsOrBeforeStart(b.get().instantTime())
          && b.get().instantTime().compareTo(baseTime) > 0) {
        base = Optional.of(f);
        baseTime = b.get().instantTime();
      }
    }
    for (Instant c : mdt.filter(i -> i.action() == Action.COMPACTION && !i.isCompleted()).instants()) {
      if (c.time().compareTo(baseTime) > 0) {
        base = Optional.empty();
        baseTime = c.time();
      }
    }
    if (baseTime.isEmpty()) {
      // only the log of the initialization (a base file not written yet): the earliest log's base instant
      baseTime = entries.stream().map(f -> FileNames.parseLog(f.name())).flatMap(Optional::stream)
          .filter(l -> l.fileId().equals(fileId)).map(LogFileName::baseInstant).min(String::compareTo).orElse("");
    }
    String slice = baseTime;
    boolean byCompletion = mdt.layout().slicesByCompletionTime();
    List<FileInfo> logs = new ArrayList<>();
    for (FileInfo f : entries) {
      Optional<LogFileName> l = FileNames.parseLog(f.name());
      if (l.isPresent() && l.get().fileId().equals(fileId) && l.get().extension().equals(FileNames.LOG_EXTENSION)
          && (byCompletion ? joinsByCompletion(l.get().baseInstant(), slice, mdt)
              : l.get().baseInstant().equals(slice))) {
        logs.add(f);
      }
    }
    // version 6: one series, in version order; 1.x: a file per deltacommit, in completion order
    logs.sort(Comparator.comparing((FileInfo f) -> completedAt(FileNames.parseLog(f.name()).orElseThrow()
        .baseInstant(), mdt)).thenComparingInt(f -> FileNames.parseLog(f.name()).orElseThrow().version()));
    return new FilesPartitionState(fileId, base, slice, List.copyOf(logs));
  }

  /**
   * Versions 8/9: whether the log file of deltacommit {@code deltaCommit} is in the slice based at {@code slice}, the
   * latest: its deltacommit completed at or after the slice's base instant (Hudi 1.x's slicing by completion time),
   * or it is the slice's own initializing log; a pending deltacommit's log is in no slice yet.
   */
  private static boolean joinsByCompletion(String deltaCommit, String slice, Timeline mdt) {
    if (deltaCommit.equals(slice)) {
      return true;
    }
    if (!mdt.isCompleted(deltaCommit)) {
      return mdt.isBeforeStart(deltaCommit) && deltaCommit.compareTo(slice) >= 0;
    }
    return completedAt(deltaCommit, mdt).compareTo(slice) >= 0;
  }

  private static String completedAt(String instant, Timeline mdt) {
    return mdt.completionTime(instant).orElse(instant);
  }

  /** The file group's id. */
  String fileId() {
    return fileId;
  }

  /** The base file, if the slice has one. */
  Optional<FileInfo> baseFile() {
    return baseFile;
  }

  /** The slice's log files in version order. */
  List<FileInfo> logFiles() {
    return logFiles;
  }

  /** The slice's base instant (empty if the partition has no file group yet). */
  String baseInstant() {
    return baseInstant;
  }

  /** The base file's name, or {@code ""}. */
  String baseFileName() {
    return baseFile.map(FileInfo::name).orElse("");
  }

  /** The slice's log file names in version order. */
  List<String> logFileNames() {
    return logFiles.stream().map(FileInfo::name).toList();
  }

  /**
   * Key to record, the base file's merged with every trusted log block (completed on {@code mdt}, not rolled back)
   * oldest first with {@link FilesRecord#merge}.
   */
  Map<String, FilesRecord> merged(Storage storage, Timeline mdt) {
    Map<String, FilesRecord> out = new TreeMap<>();
    baseFile.ifPresent(f -> readBase(storage, f).forEach(r -> out.merge(r.key(), r, FilesRecord::merge)));
    List<Map.Entry<DataBlock, String>> blocks = new ArrayList<>();
    for (Map.Entry<LogBlock, String> e : trustedBlocks(storage, mdt)) {
      if (e.getKey() instanceof DataBlock d) {
        blocks.add(Map.entry(d, e.getValue()));
      }
    }
    for (Map.Entry<DataBlock, String> e : blocks) {
      DataBlock d = e.getKey();
      try (CloseableIterator<GenericRecord> it = d.records(MetadataRecords.storedSchema())) {
        while (it.hasNext()) {
          GenericRecord r = it.next();
          int type = MetadataRecords.type(r);
          if (type == FilesRecord.PARTITION_LIST || type == FilesRecord.FILE_LIST) {
            FilesRecord fr = MetadataRecords.files(r, "the metadata log block of instant " + e.getValue());
            out.merge(fr.key(), fr, FilesRecord::merge);
          }
        }
      }
    }
    return out;
  }

  /**
   * The slice's log blocks a writer trusts, in log order with their instants: HFile data blocks and delete blocks of
   * instants completed on {@code mdt}; a rollback command block drops the blocks of its target written before it.
   */
  List<Map.Entry<LogBlock, String>> trustedBlocks(Storage storage, Timeline mdt) {
    List<Map.Entry<LogBlock, String>> blocks = new ArrayList<>();
    // blocks of deltacommits archived off the metadata timeline count (as for Hudi's log scanner): archival moves
    // only completed instants
    Timeline completed = mdt.commitsTimeline().completed();
    for (FileInfo f : logFiles) {
      try (LogReader reader = LogReader.open(storage, f.path())) {
        while (reader.hasNext()) {
          LogBlock b = reader.next();
          String instant = b.instantTime().orElse("");
          if (b instanceof CommandBlock c && c.isRollback() && mdt.containsOrBeforeStart(instant)) {
            String target = c.targetInstant().orElse("");
            blocks.removeIf(e -> e.getValue().equals(target));
          } else if ((b instanceof DataBlock d && d.type() == LogBlockType.HFILE_DATA_BLOCK
              || b instanceof DeleteBlock) && completed.containsOrBeforeStart(instant)) {
            blocks.add(Map.entry(b, instant));
          }
        }
      }
    }
    return blocks;
  }

  private static List<FilesRecord> readBase(Storage storage, FileInfo f) {
    List<FilesRecord> out = new ArrayList<>();
    try (HFileReader hfile = HFileReader.open(storage, f.path(), f.length())) {
      Schema writer = ParsedSchemas.parse(new String(hfile.fileInfo("schema").orElseThrow(() -> Errors.badTable(
          f.path(), "the HFile has no 'schema' file info", "Rebuild the metadata table (sluice metadata delete)."))
          , StandardCharsets.UTF_8));
      GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(writer, MetadataRecords.storedSchema());
      BinaryDecoder decoder = null;
      try (CloseableIterator<HFileCell> cells = hfile.scan()) {
        while (cells.hasNext()) {
          HFileCell c = cells.next();
          decoder = DecoderFactory.get().binaryDecoder(c.value(), decoder);
          GenericRecord r = reader.read(null, decoder);
          r.put(MetadataRecords.KEY, c.keyString());
          int type = MetadataRecords.type(r);
          if (type == FilesRecord.PARTITION_LIST || type == FilesRecord.FILE_LIST) {
            out.add(MetadataRecords.files(r, f.path()));
          }
        }
      } catch (IOException e) {
        throw Errors.badTable(f.path(), "a record of the metadata table's base file does not decode: " + e.getMessage(),
            "Rebuild the metadata table (sluice metadata delete).", e);
      }
    }
    return out;
  }
}
