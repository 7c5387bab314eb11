package dev.sluice.internal.compact;

import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.basefile.BaseFileWriter;
import dev.sluice.internal.basefile.DictionaryChoice;
import dev.sluice.internal.basefile.MergeRead;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.basefile.RowCopier;
import dev.sluice.internal.basefile.WrittenFile;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.fsview.LogFileName;
import dev.sluice.internal.key.FieldPath;
import dev.sluice.internal.log.LogRecord;
import dev.sluice.internal.log.LogScanner;
import dev.sluice.internal.log.MergedLogRecords;
import dev.sluice.internal.log.ScanStats;
import dev.sluice.internal.marker.IOType;
import dev.sluice.internal.marker.Markers;
import dev.sluice.internal.merge.DeleteFlag;
import dev.sluice.internal.merge.Ordering;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.api.CloseableIterator;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.internal.write.RecordAssembler;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Compacts one file slice of a plan ({@code HoodieCompactor.compact} with the merge or create handle): the planned
 * log files merged by key (within the memory budget, spilling beyond it), then the base file streamed in file
 * order with each row kept, replaced or dropped as a snapshot read would, then the keys found only in the logs;
 * written to {@code <fileId>_<token>_<compactionInstant>.parquet} with meta fields preserved but the file name.
 * A log-only slice whose logs hold no valid record yields no file, as in Hudi.
 */
final class SliceCompactor {
  private final Storage storage;
  private final String basePath;
  private final Schema writerSchema;
  /** Log records are read in {@link #writerSchema}. */
  private final DeleteFlag deleted;
  private final Optional<String> precombine;
  private final RecordMerger merger;
  private final Timeline timeline;
  private final String maxInstant;
  private final long memoryBudget;
  private final Path spillDirectory;
  private final BaseFileWriterOptions fileOptions;
  private final Markers markers;
  private final String instant;

  SliceCompactor(Context c) {
    this.storage = c.storage;
    this.basePath = c.basePath;
    this.writerSchema = c.writerSchema;
    this.deleted = DeleteFlag.of(c.writerSchema);
    this.precombine = c.precombine;
    this.merger = c.merger;
    this.timeline = c.timeline;
    this.maxInstant = c.maxInstant;
    this.memoryBudget = c.memoryBudget;
    this.spillDirectory = c.spillDirectory;
    this.fileOptions = c.fileOptions;
    this.markers = c.markers;
    this.instant = c.instant;
  }

  /** What a compaction of one plan shares across its slices. */
  static final class Context {
    Storage storage;
    String basePath;
    Schema writerSchema;
    Optional<String> precombine;
    RecordMerger merger;
    Timeline timeline;
    String maxInstant;
    long memoryBudget;
    Path spillDirectory;
    BaseFileWriterOptions fileOptions;
    Markers markers;
    String instant;
  }

  /** Compacts {@code op} as task {@code taskIndex}; the write stat of the new base file, or empty if none. */
  Optional<WriteStat> compact(CompactionOperation op, int taskIndex) {
    long scanStart = System.nanoTime();
    String dir = StoragePaths.join(basePath, op.partitionPath());
    Optional<String> ordering = precombine.filter(f -> writerSchema.getField(f) != null);
    try (MergedLogRecords logs = LogScanner.builder(storage)
        .logFiles(logFiles(dir, op))
        .timeline(timeline)
        .latestInstant(maxInstant)
        .readerSchema(writerSchema)
        .precombineField(ordering)
        .merger(merger)
        .spillBeyond(memoryBudget, spillDirectory)
        .build()
        .scan()) {
      long scanMillis = (System.nanoTime() - scanStart) / 1_000_000;
      long mergedKeys = logs.size();
      if (op.dataFileName().isEmpty() && mergedKeys == 0) {
        return Optional.empty();
      }
      long writeStart = System.nanoTime();
      String fileName = FileNames.baseFileName(op.fileId(), taskIndex + "-0-0", instant);
      String relative = op.partitionPath().isEmpty() ? fileName : op.partitionPath() + "/" + fileName;
      Counts n = new Counts();
      markers.create(op.partitionPath(), fileName, op.dataFileName().isPresent() ? IOType.MERGE : IOType.CREATE);
      WrittenFile done;
      // the base file opens first: its footer says which columns the new file writes without a dictionary
      try (BaseFileReader base = op.dataFileName().isPresent()
              ? BaseFileReader.open(storage, StoragePaths.join(dir, op.dataFileName().get())) : null;
          BaseFileWriter writer = BaseFileWriter.open(storage, StoragePaths.join(basePath, relative), writerSchema,
              outputOptions(base, fileName, mergedKeys))) {
        RecordAssembler assembler = new RecordAssembler(writerSchema);
        if (base != null) {
          mergeBase(base, logs, assembler, writer, fileName, n);
        }
        try (CloseableIterator<LogRecord> rest = logs.all()) {
          while (rest.hasNext()) {
            LogRecord r = rest.next();
            if (!r.isDelete() && !deleted.isSet(r.record())) {
              writer.write(assembler.carry(r.record(), fileName));
              n.written++;
              n.inserted++;
            }
          }
        }
        done = writer.finish();
      }
      KillPoints.reach("compaction.base-file");
      long writeMillis = (System.nanoTime() - writeStart) / 1_000_000;
      ScanStats stats = logs.stats();
      boolean merged = op.dataFileName().isPresent();
      return Optional.of(WriteStat.builder()
          .fileId(op.fileId())
          .path(relative)
          .prevCommit(merged ? op.baseInstantTime() : WriteStat.NULL_COMMIT)
          .numWrites(n.written)
          .numDeletes(n.deleted)
          .numUpdateWrites(n.updated)
          .numInserts(n.inserted)
          .totalWriteBytes(done.sizeBytes())
          .partitionPath(op.partitionPath())
          .totalLogRecords(stats.records())
          .totalLogFilesCompacted(stats.logFiles())
          .totalLogSizeCompacted((long) op.metric(CompactionOperation.TOTAL_LOG_FILES_SIZE))
          .totalUpdatedRecordsCompacted(mergedKeys)
          .totalLogBlocks(stats.blocks())
          .totalCorruptLogBlock(stats.corruptBlocks())
          .totalRollbackBlocks(stats.rolledBackBlocks())
          .fileSizeInBytes(done.sizeBytes())
          .runtimeStats(new WriteStat.RuntimeStats(scanMillis, merged ? writeMillis : 0, merged ? 0 : writeMillis))
          .build());
    }
  }

  /**
   * How the compacted file is written: with the base file's dictionary choices when there is one, and a bloom
   * filter sized for at most its rows plus the merged log keys.
   */
  private BaseFileWriterOptions outputOptions(BaseFileReader base, String fileName, long mergedKeys) {
    if (base == null) {
      return fileOptions.withBloomSizedFor(mergedKeys);
    }
    return DictionaryChoice.forRewrite(fileOptions, base, fileName).withBloomSizedFor(base.footer().rowCount() + mergedKeys);
  }

  /**
   * Base rows in file order: kept, replaced by their key's merged log record, or dropped by a delete. Kept rows
   * (most of them: a slice's logs touch a fraction of its keys) are copied column to column when the file's layout
   * allows it ({@link RowCopier}); only replacing rows are written as records.
   */
  private void mergeBase(BaseFileReader reader, MergedLogRecords logs, RecordAssembler assembler, BaseFileWriter writer,
      String fileName, Counts n) {
    Schema fileSchema = reader.footer().schema();
    // base keys (kept or replaced by their log record) are in the base file's filter already
    reader.bloomFilter().ifPresent(b -> writer.continueBloom(b, reader.footer().rowCount()));
    MergeRead merge = MergeRead.open(reader, writer, precombine, fileName);
    FieldPath orderingField = merge.ordering().orElse(null);
    Optional<RowCopier> copier = merge.copier();
    if (copier.isPresent()) {
      try (RowCopier rows = copier.get()) {
        while (rows.next()) {
          Optional<LogRecord> log = logs.size() == 0 ? Optional.empty() : logs.remove(rows.key());
          if (log.isPresent() && replace(log.get(), orderingField == null ? null : rows.ordering(), assembler,
              writer, fileName, n)) {
            rows.drop();
            continue;
          }
          rows.copy();
          n.written++;
        }
      }
      return;
    }
    Schema.Field keyField = fileSchema.getField(MetaFields.RECORD_KEY);
    try (CloseableIterator<GenericRecord> rows = reader.read(fileSchema)) {
      while (rows.hasNext()) {
        GenericRecord row = rows.next();
        Object key = keyField == null ? null : row.get(keyField.pos());
        Optional<LogRecord> log = logs.size() == 0 ? Optional.empty() : logs.removeKeyOf(key);
        if (log.isPresent() && replace(log.get(), orderingField == null ? null : orderingField.get(row), assembler,
            writer, fileName, n)) {
          continue;
        }
        writer.writeReplacing(assembler.carry(row, fileName));
        n.written++;
      }
    }
  }

  /**
   * Applies a base row's merged log state: true if the log wins (its record written, or the row deleted), false if
   * the base row stays. {@code baseOrdering} is the row's raw ordering value, null without one.
   */
  @SuppressWarnings("rawtypes")
  private boolean replace(LogRecord l, Object baseOrdering, RecordAssembler assembler, BaseFileWriter writer,
      String fileName, Counts n) {
    Comparable ordering = baseOrdering == null ? null : Ordering.normalize(baseOrdering);
    if (!merger.incomingWins(ordering, l.ordering(), l.hardDelete())) {
      return false;
    }
    if (l.isDelete() || deleted.isSet(l.record())) {
      n.deleted++;
    } else {
      writer.writeReplacing(assembler.carry(l.record(), fileName));
      n.updated++;
      n.written++;
    }
    return true;
  }

  /** The plan's log files of the slice; a missing one is an error (the plan cannot be carried out as written). */
  private List<LogFile> logFiles(String dir, CompactionOperation op) {
    List<LogFile> out = new ArrayList<>();
    for (String name : op.deltaFileNames()) {
      String path = StoragePaths.join(dir, name);
      LogFileName parsed = FileNames.parseLog(name).orElseThrow(() -> Errors.badTable(path,
          "the compaction plan names a file that is not a log file", "Roll back the pending compaction."));
      Optional<FileInfo> info;
      try {
        info = storage.info(path);
      } catch (IOException e) {
        throw Errors.storage("check", path, e);
      }
      if (info.isEmpty()) {
        throw Errors.badTable(path, "a log file the compaction plan " + instant + " reads does not exist",
            "Restore the file, or delete the pending compaction's files (.hoodie/" + instant + ".compaction.*).");
      }
      out.add(new LogFile(path, name, parsed.fileId(), parsed.baseInstant(), parsed.version(),
          parsed.writeToken().orElse(""), info.get().length()));
    }
    return out;
  }


  private static final class Counts {
    private long written;
    private long updated;
    private long deleted;
    private long inserted;
  }
}
