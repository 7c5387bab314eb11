package dev.sluice.internal.compact;

import dev.sluice.api.WriteToken;
import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.basefile.BaseFileWriter;
import dev.sluice.internal.basefile.DictionaryChoice;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.basefile.WrittenFile;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.error.Errors;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.fsview.LogFileName;
import dev.sluice.internal.log.LogChanges;
import dev.sluice.internal.log.LogRecord;
import dev.sluice.internal.log.LogScanner;
import dev.sluice.internal.log.MergedLogRecords;
import dev.sluice.internal.log.ScanStats;
import dev.sluice.internal.commit.IOType;
import dev.sluice.internal.commit.Markers;
import dev.sluice.internal.merge.BaseFileMerge;
import dev.sluice.internal.merge.DeleteFlag;
import dev.sluice.internal.merge.KeyedMerge;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.internal.merge.StoredRows;
import dev.sluice.storage.FileInfo;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.WriteStat;
import dev.sluice.internal.util.KillPoints;
import dev.sluice.internal.write.RecordAssembler;
import java.io.IOException;
import dev.sluice.internal.util.ProgressMeter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * Compacts one file slice of a plan ({@code HoodieCompactor.compact} with the merge or create handle): the planned
 * log files merged by key (within the memory budget, spilling beyond it), then the base file streamed in file
 * order with each row kept, replaced or dropped as a snapshot read would, then the keys found only in the logs (one
 * {@link KeyedMerge}: {@link BaseFileMerge} with a base file, the log records alone without one);
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

  private SliceCompactor(Context c) {
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

  /**
   * The compactor of the slices of compaction {@code instant} (inflight): records read and written in
   * {@code userSchema} with the meta fields, log blocks up to {@code maxInstant} of {@code timeline} merged within
   * {@code memoryBudget} bytes, each new file behind a marker of the instant.
   */
  static SliceCompactor of(Storage storage, String basePath, TableConfig tc, Schema userSchema, Timeline timeline,
      String maxInstant, long memoryBudget, Path spillDirectory, BaseFileWriterOptions fileOptions, String instant) {
    Context c = new Context();
    c.storage = storage;
    c.basePath = basePath;
    c.writerSchema = MetaFields.withMetaFields(userSchema);
    c.precombine = tc.precombineField();
    c.merger = new RecordMerger(tc.mergeMode(), tc.hasMergeMode());
    c.timeline = timeline;
    c.maxInstant = maxInstant;
    c.memoryBudget = memoryBudget;
    c.spillDirectory = spillDirectory;
    c.fileOptions = fileOptions;
    c.markers = new Markers(storage, basePath, instant);
    c.instant = instant;
    return new SliceCompactor(c);
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

  /**
   * Compacts {@code op} as task attempt {@code token}; the write stat of the new base file, or empty if none. Each
   * record merged (kept, replaced, inserted or deleted) counts one in {@code meter}'s records as it goes.
   */
  Optional<WriteStat> compact(CompactionOperation op, WriteToken token, ProgressMeter meter) {
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
      String fileName = FileNames.baseFileName(op.fileId(), token.text(), instant);
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
        ProgressMeter.Tally merged = meter.tally();
        KeyedMerge.Target<LogRecord> target = new KeyedMerge.Target<>() {
          @Override
          public void kept() {
            n.written++;
            merged.add();
          }

          @Override
          public void replace(LogRecord l) {
            writer.writeReplacing(assembler.carry(l.record(), fileName));
            n.updated++;
            n.written++;
            merged.add();
          }

          @Override
          public void delete(LogRecord l) {
            n.deleted++;
            merged.add();
          }

          @Override
          public void insert(LogRecord l) {
            writer.write(assembler.carry(l.record(), fileName));
            n.written++;
            n.inserted++;
            merged.add();
          }
        };
        LogChanges changes = new LogChanges(logs, deleted);
        if (base != null) {
          BaseFileMerge.rewrite(base, writer, precombine, fileName, row -> assembler.carry(row, fileName), merger,
              changes, target);
        } else {
          try (KeyedMerge<LogRecord> merge = new KeyedMerge<>(merger, StoredRows.none(), changes, target)) {
            merge.run();
          }
        }
        done = writer.finish();
        merged.flush();
      }
      KillPoints.reach("compaction.base-file");
      long writeMillis = (System.nanoTime() - writeStart) / 1_000_000;
      ScanStats stats = logs.stats();
      boolean merged = op.dataFileName().isPresent();
      return Optional.of(WriteStat.builder()
          .fileId(op.fileId())
          .path(relative)
          .prevCommit(merged ? op.baseInstantTime() : WriteStat.NULL_COMMIT)
          .prevBaseFile(op.dataFileName().orElse(null))
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
            "Restore the file, or delete the pending compaction's files (" + instant + ".compaction.* in the "
                + "timeline folder, .hoodie or .hoodie/timeline).");
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
