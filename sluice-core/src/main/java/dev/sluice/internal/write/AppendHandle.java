package dev.sluice.internal.write;

import dev.sluice.api.FileWriteResult;
import dev.sluice.api.WriteToken;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.mdt.write.RecordIndexChanges;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.key.FieldPath;
import dev.sluice.internal.log.AppendResult;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.DeleteRecord;
import dev.sluice.internal.log.HeaderKey;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogWriter;
import dev.sluice.internal.commit.IOType;
import dev.sluice.internal.commit.Markers;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.timeline.TimelineLayout;
import dev.sluice.storage.StoragePaths;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/**
 * Merge-on-Read append of one file group's updates and deletes to the log of its current file slice, as Hudi's
 * {@code HoodieAppendHandle} does: one Avro (with {@code hoodie.logfile.data.block.format=parquet}: Parquet) data
 * block of full rows (the five meta fields filled, the file id as
 * {@code _hoodie_file_name}) and/or one delete block (key, partition, ordering value), headers
 * {@code INSTANT_TIME} and {@code SCHEMA}, appended in one call (a batch past the write memory budget appends such a
 * pair per slice of its records, all of one instant). The base file is not read. On table version 6 the log file is
 * named after the slice's base instant and gets an {@code APPEND} marker; on versions 8 and 9 it is named after this
 * delta commit (Hudi 1.x's one log file per delta commit) and gets a {@code CREATE} marker. The blocks go to a new log version of this
 * write's own, never into an existing file ({@link LogWriter.Builder#ownFileEachSession()}), so that a rollback of this
 * write can delete them.
 */
final class AppendHandle {
  /** Hudi numbers log records with one counter per JVM, starting at 1 ({@code HoodieAppendHandle.RECORD_COUNTER}). */
  private static final AtomicLong RECORD_COUNTER = new AtomicLong(1);

  private final WriteSetup setup;
  private final Markers markers;
  private final String instant;
  private final Optional<FieldPath> orderingField;
  private final RecordIndexChanges recordIndex;
  private final TimelineLayout layout;

  AppendHandle(WriteSetup setup, Markers markers, String instant, RecordIndexChanges recordIndex) {
    this.setup = setup;
    this.markers = markers;
    this.instant = instant;
    this.recordIndex = recordIndex;
    this.layout = TimelineLayout.of(setup.tableConfig());
    this.orderingField = setup.tableConfig().precombineField()
        .filter(f -> setup.userSchema().getField(f.split("\\.")[0]) != null)
        .map(f -> FieldPath.resolve(setup.userSchema(), f, "precombine"));
  }

  /**
   * Appends {@code updates} of {@code task}'s file group to the log of its slice: a data block and/or a delete block
   * per {@code maxBlockBytes} of records (by {@code size}), each pair appended in one call; one result per log file
   * written (more than one only if the log rolls over to a new file).
   */
  List<FileWriteResult> write(FileGroupWrite.Append task, Iterator<WriteRecord> updates, WriteToken token,
      long maxBlockBytes, ToLongFunction<WriteRecord> size) {
    int taskIndex = token.partition();
    FileGroupId id = task.id();
    FileSlice slice = task.slice();
    long start = System.nanoTime();
    String partition = id.partitionPath();
    String fileId = id.fileId();
    RecordAssembler assembler = new RecordAssembler(setup.writerSchema());
    // the delete block shares the data block's header, as Hudi's append handle writes it
    Map<HeaderKey, String> header = new EnumMap<>(HeaderKey.class);
    header.put(HeaderKey.INSTANT_TIME, instant);
    header.put(HeaderKey.SCHEMA, setup.writerSchema().toString());
    String partitionDir = StoragePaths.join(setup.basePath(), partition);
    Optional<BaseFileWriterOptions> parquet = setup.parquetLogBlocks() ? Optional.of(setup.fileOptions()) : Optional.empty();
    List<Appended> appended = new ArrayList<>();
    // on one machine one token for every writer (the Java client's): two writers that pick the same version then
    // pick the same name, and the exclusive create lets one of them have it. A cluster's task attempts name their
    // own files (Hudi's Spark writer), so a retried attempt never reuses the name of a file the lost one created
    // version 6: the slice's log, named by its base instant, behind APPEND markers; versions 8/9: a log file of this
    // delta commit's own name, behind a CREATE marker (a rollback deletes it)
    String logInstant = layout.logFileInstant(slice.baseInstant(), instant);
    boolean ownName = !logInstant.equals(slice.baseInstant());
    IOType markerType = layout.slicesByCompletionTime() ? IOType.CREATE : IOType.APPEND;
    try (LogWriter writer = LogWriter.builder(setup.storage(), partitionDir, fileId, logInstant)
        .ownFileEachSession()
        .writeToken(token.local() ? FileNames.DEFAULT_WRITE_TOKEN : token.text())
        .maxFileSize(setup.settings().logFileMaxSize())
        .latestLogFile(ownName ? Optional.empty() : slice.latestLogFile())
        .beforeOpen(path -> markers.create(partition, StoragePaths.name(path), markerType))
        .open()) {
      while (updates.hasNext()) {
        List<GenericRecord> rows = new ArrayList<>();
        List<DeleteRecord> deletes = new ArrayList<>();
        long bytes = 0;
        while (updates.hasNext() && bytes < maxBlockBytes) {
          WriteRecord r = updates.next();
          bytes += size.applyAsLong(r);
          if (r.isDelete()) {
            deletes.add(new DeleteRecord(r.key(), r.partitionPath(), deleteOrdering(r)));
            // as Hudi's write statuses: a delete appended to the log leaves the index (its ordering is not weighed)
            recordIndex.delete(r.key(), partition);
          } else {
            String seqNo = MetaFields.seqNo(instant, taskIndex, RECORD_COUNTER.getAndIncrement());
            rows.add(assembler.row(r, instant, seqNo, fileId));
          }
        }
        List<LogBlock> blocks = new ArrayList<>(2);
        if (!rows.isEmpty()) {
          blocks.add(parquet.isPresent() ? DataBlock.parquet(header, setup.writerSchema(), rows, parquet.get())
              : new DataBlock(header, setup.writerSchema(), rows));
        }
        if (!deletes.isEmpty()) {
          blocks.add(new DeleteBlock(header, deletes));
        }
        appended.add(new Appended(writer.appendBlocks(blocks), rows.size(), deletes.size(), blocks.size()));
      }
    }
    List<String> logFiles = new ArrayList<>();
    if (!layout.slicesByCompletionTime()) {
      // version 6: the stat names the slice's log files; 8/9 (HoodieAppendHandle for table version 8+): only its own
      slice.logFiles().forEach(l -> logFiles.add(l.fileName()));
    }
    List<FileWriteResult> out = new ArrayList<>();
    int i = 0;
    while (i < appended.size()) {
      Appended first = appended.get(i);
      LogFile file = first.result().file();
      long rows = 0;
      long deletes = 0;
      long appendedBytes = 0;
      int blocks = 0;
      long fileSize = file.size();
      for (; i < appended.size() && appended.get(i).result().file().fileName().equals(file.fileName()); i++) {
        Appended a = appended.get(i);
        rows += a.rows();
        deletes += a.deletes();
        appendedBytes += a.result().size();
        blocks += a.blocks();
        fileSize = a.result().file().size();
      }
      if (!logFiles.contains(file.fileName())) {
        logFiles.add(file.fileName());
      }
      String relative = partition.isEmpty() ? file.fileName() : partition + "/" + file.fileName();
      // versions 8/9: the delta commit's own instant as prevCommit and no base file, as Hudi 1.x's append handle
      String baseFile = layout.slicesByCompletionTime() ? "" : slice.baseFile().map(b -> b.fileName()).orElse("");
      String prevCommit = layout.slicesByCompletionTime() ? instant : slice.baseInstant();
      FileWriteResult.LogAppend append = new FileWriteResult.LogAppend(first.result().version(), first.result().offset(),
          baseFile, List.copyOf(logFiles), fileSize, blocks);
      out.add(new FileWriteResult(partition, fileId, relative, prevCommit, rows, deletes, rows, 0, appendedBytes,
          (System.nanoTime() - start) / 1_000_000, Optional.of(append)));
    }
    return out;
  }

  /** One append call: where it went and what it held. */
  private record Appended(AppendResult result, long rows, long deletes, int blocks) {
  }

  /**
   * The ordering value a delete carries: {@code Integer 0} for the delete operation (Hudi's delete API), the
   * record's precombine value for {@code _hoodie_is_deleted = true}, with dates and decimals as Hudi's
   * {@code getNestedFieldVal} hands them over ({@code LocalDate}, {@code BigDecimal}).
   */
  private Object deleteOrdering(WriteRecord r) {
    if (r.delete() == WriteRecord.DeleteKind.HARD || r.data() == null || orderingField.isEmpty()) {
      return DeleteRecord.NATURAL_ORDERING;
    }
    Object raw = orderingField.get().get(r.data());
    if (raw == null) {
      return null;
    }
    Schema s = FieldPath.nonNull(orderingField.get().schema());
    LogicalType logical = s.getLogicalType();
    if (logical instanceof LogicalTypes.Date && raw instanceof Integer days) {
      return LocalDate.ofEpochDay(days);
    }
    if (logical instanceof LogicalTypes.Decimal d) {
      if (raw instanceof ByteBuffer bb) {
        byte[] bytes = new byte[bb.remaining()];
        bb.duplicate().get(bytes);
        return new BigDecimal(new BigInteger(bytes), d.getScale());
      }
      if (raw instanceof GenericFixed f) {
        return new BigDecimal(new BigInteger(f.bytes()), d.getScale());
      }
    }
    if (raw instanceof CharSequence cs) {
      return cs.toString();
    }
    return raw;
  }
}
