package dev.sluice.internal.repair;

import dev.sluice.api.SluiceException;
import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.BaseFileName;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.LogFileName;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.timeline.WriteOperationType;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.PositionOutputStream;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.Schema;

/**
 * The commit metadata of a completed commit or delta commit whose file is damaged (or empty although the instant wrote
 * files), rebuilt from what the instant left on storage: a write stat per base file named with its time (records from
 * the Parquet footer) and per log file holding its blocks (records and deleted keys counted by decoding them), the
 * writer schema from those files, operation {@code unknown} ({@code compact} for a compaction), encoded as the
 * table's timeline layout encodes commit metadata (JSON on version 6, Avro on 8/9). Readers need only the
 * completed instant to see the files; the metadata is what incremental queries, cleaning, archival and health figures
 * read, and a rebuilt one lets them work again.
 */
final class CommitRebuild {
  /** Extra-metadata key recording that the metadata was rebuilt (Hudi ignores unknown keys). */
  static final String REBUILT_KEY = "sluice.repair.rebuilt";

  private final Storage storage;
  private final String instantPath;
  private final byte[] content;
  private final CommitMetadata metadata;
  private final int baseFiles;
  private final int logFiles;

  private CommitRebuild(Storage storage, String instantPath, byte[] content, CommitMetadata metadata, int baseFiles,
      int logFiles) {
    this.storage = storage;
    this.instantPath = instantPath;
    this.content = content;
    this.metadata = metadata;
    this.baseFiles = baseFiles;
    this.logFiles = logFiles;
  }

  /** The data files (full paths) the instant at {@code time} wrote: its base files and log files with its blocks. */
  static List<String> filesOf(String time, RepairPlanner.Listing listing, Map<String, LogFileCheck> logs) {
    List<String> out = new ArrayList<>();
    for (FileInfo f : listing.baseFiles()) {
      if (FileNames.parseBase(f.name()).map(BaseFileName::instantTime).filter(time::equals).isPresent()) {
        out.add(f.path());
      }
    }
    for (LogFileCheck c : logs.values()) {
      if (c.sound().stream().anyMatch(b -> b.instant().filter(time::equals).isPresent() && !b.command())) {
        out.add(c.path());
      }
    }
    return out;
  }

  static CommitRebuild of(Storage storage, TimelineStore store, Timeline tl, Instant instant,
      RepairPlanner.Listing listing, Map<String, LogFileCheck> logs) {
    String time = instant.time();
    Map<String, List<WriteStat>> byPartition = new TreeMap<>();
    Optional<Schema> schema = Optional.empty();
    int bases = 0;
    for (FileInfo f : listing.baseFiles()) {
      BaseFileName name = FileNames.parseBase(f.name()).orElseThrow();
      if (!name.instantTime().equals(time)) {
        continue;
      }
      String partition = listing.folderOf(f);
      long rows = 0;
      try (BaseFileReader r = BaseFileReader.open(storage, f.path(), f.length())) {
        rows = r.footer().rowCount();
        schema = schema.or(() -> Optional.of(r.footer().schema()));
      } catch (SluiceException e) {
        // a base file whose footer does not read still belongs to the instant: listed, its count unknown (0)
        rows = 0;
      }
      byPartition.computeIfAbsent(partition, p -> new ArrayList<>()).add(WriteStat.builder()
          .fileId(name.fileId()).path(relative(partition, f.name())).prevCommit(WriteStat.NULL_COMMIT)
          .numWrites(rows).numInserts(rows).totalWriteBytes(f.length()).partitionPath(partition)
          .fileSizeInBytes(f.length()).build());
      bases++;
    }
    int logCount = 0;
    for (FileInfo f : listing.logFiles()) {
      LogFileCheck c = logs.get(f.path());
      List<LogFileCheck.Block> mine = c == null ? List.of() : c.sound().stream()
          .filter(b -> !b.command() && b.instant().filter(time::equals).isPresent()).toList();
      if (mine.isEmpty()) {
        continue;
      }
      LogFileName name = RepairPlanner.Listing.logName(f);
      String partition = listing.folderOf(f);
      long records = 0;
      long deletes = 0;
      long bytes = 0;
      for (LogFileCheck.Block b : mine) {
        if (b.deletes()) {
          deletes += b.records();
        } else {
          records += b.records();
        }
        bytes += b.size();
        if (schema.isEmpty()) {
          schema = b.writerSchema();
        }
      }
      String sliceBase = sliceBase(store.layout(), tl, instant, name, listing);
      String base = listing.baseFiles().stream().map(FileInfo::name)
          .filter(n -> FileNames.parseBase(n).filter(x -> x.fileId().equals(name.fileId())
              && x.instantTime().equals(sliceBase)).isPresent()).findFirst().orElse("");
      byPartition.computeIfAbsent(partition, p -> new ArrayList<>()).add(WriteStat.builder()
          .fileId(name.fileId()).path(relative(partition, f.name())).prevCommit(sliceBase)
          .numWrites(records).numUpdateWrites(records).numDeletes(deletes).totalWriteBytes(bytes).partitionPath(partition)
          .fileSizeInBytes(f.length()).delta(true).logVersion(name.version()).logOffset(mine.get(0).offset())
          .baseFile(base).logFiles(List.of(f.name())).build());
      logCount++;
    }
    boolean compaction = tl.isCompaction(time);
    Map<String, String> extra = new LinkedHashMap<>();
    schema.map(CommitRebuild::withoutMetaFields).ifPresent(s -> extra.put(CommitMetadata.SCHEMA_KEY, s.toString()));
    extra.put(REBUILT_KEY, "rebuilt by sluice repair from the files the instant wrote");
    CommitMetadata md = new CommitMetadata(byPartition, compaction, extra,
        compaction ? WriteOperationType.COMPACT : WriteOperationType.UNKNOWN);
    return new CommitRebuild(storage, store.pathOf(instant), store.layout().encode(md,
        new TimelineLayout.InstantFile(instant, tl.completionTime(instant))), md, bases, logCount);
  }

  /**
   * The base instant of the file slice a log file of {@code instant} belongs to: the one in its name on layout 1; on
   * layout 2, where a log is named after its own delta commit, the latest base file of its file group whose instant
   * is not after the delta commit's completion time (as the file-system view forms slices), else the log's own
   * instant (a slice with no base file is named after its first log).
   */
  private static String sliceBase(TimelineLayout layout, Timeline tl, Instant instant, LogFileName name,
      RepairPlanner.Listing listing) {
    if (!layout.slicesByCompletionTime()) {
      return name.baseInstant();
    }
    String until = tl.completionTime(instant).orElse(instant.time());
    return listing.baseFiles().stream().map(f -> FileNames.parseBase(f.name()).orElseThrow())
        .filter(b -> b.fileId().equals(name.fileId()) && b.instantTime().compareTo(until) <= 0)
        .map(BaseFileName::instantTime).max(String::compareTo).orElse(name.baseInstant());
  }

  /** What the rebuilt metadata lists, for the report. */
  String summary() {
    return baseFiles + " base file(s), " + logFiles + " log file(s), " + metadata.totalRecordsWritten() + " records";
  }

  CommitMetadata metadata() {
    return metadata;
  }

  /** Keeps the damaged file, writes the rebuilt one beside it and swaps it in (in one step where the storage can). */
  void write(RepairBackup backup) {
    backup.keep(instantPath);
    String work = backup.workPath(instantPath);
    try {
      try (PositionOutputStream out = storage.create(work, true)) {
        out.write(content);
      }
      KillPoints.reach("repair.instant.rebuilt");
      storage.replace(work, instantPath);
      KillPoints.reach("repair.instant.replaced");
    } catch (IOException e) {
      throw Errors.storage("replace the damaged commit metadata", instantPath, e);
    }
  }

  private static String relative(String partition, String name) {
    return partition.isEmpty() ? name : partition + "/" + name;
  }

  private static Schema withoutMetaFields(Schema s) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : s.getFields()) {
      if (!MetaFields.isMetaField(f.name())) {
        fields.add(new Schema.Field(f, f.schema()));
      }
    }
    return Schema.createRecord(s.getName(), s.getDoc(), s.getNamespace(), false, fields);
  }
}
