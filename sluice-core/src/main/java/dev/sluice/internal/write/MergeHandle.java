package dev.sluice.internal.write;

import dev.sluice.api.FileWriteResult;
import dev.sluice.api.WriteToken;
import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.basefile.BaseFileWriter;
import dev.sluice.internal.basefile.DictionaryChoice;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.basefile.WrittenFile;
import dev.sluice.internal.mdt.write.RecordIndexChanges;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.commit.IOType;
import dev.sluice.internal.commit.Markers;
import dev.sluice.internal.merge.BaseFileMerge;
import dev.sluice.internal.merge.KeyedMerge;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.storage.StoragePaths;
import java.util.Iterator;
import java.util.Optional;

/**
 * Copy-on-Write merge of one file group: streams the current base file in order, replaces or drops the rows
 * whose keys have incoming versions (per the merge mode: {@link BaseFileMerge}), copies the rest unchanged but for
 * the file name, then appends any update whose key the file did not hold and the inserts.
 */
final class MergeHandle {
  private final WriteSetup setup;
  private final Markers markers;
  private final String instant;
  private final RecordMerger merger;
  private final RecordIndexChanges recordIndex;
  private final OutcomeCounts counts;

  MergeHandle(WriteSetup setup, Markers markers, String instant, RecordIndexChanges recordIndex, OutcomeCounts counts) {
    this.counts = counts;
    this.setup = setup;
    this.markers = markers;
    this.instant = instant;
    this.recordIndex = recordIndex;
    this.merger = setup.merger();
  }

  /**
   * Rewrites the file group of {@code task} from its current base file, applying {@code pending}, then appending
   * {@code inserts} ({@code task.inserts()} records), into a file named by the task attempt {@code token}.
   */
  FileWriteResult write(FileGroupWrite.Merge task, PendingUpdates pending, Iterator<WriteRecord> inserts,
      WriteToken token) {
    int taskIndex = token.partition();
    long start = System.nanoTime();
    FileGroupId id = task.id();
    BaseFile current = task.current();
    String partition = id.partitionPath();
    String fileId = id.fileId();
    String fileName = FileNames.baseFileName(fileId, token.text(), instant);
    String relative = partition.isEmpty() ? fileName : partition + "/" + fileName;
    String path = StoragePaths.join(setup.basePath(), relative);
    RecordAssembler assembler = new RecordAssembler(setup.writerSchema());
    Optional<String> precombine = setup.tableConfig().precombineField();
    markers.create(partition, fileName, IOType.MERGE);
    try (BaseFileReader reader = BaseFileReader.open(setup.storage(), current.path(), current.size());
        BaseFileWriter writer = BaseFileWriter.open(setup.storage(), path, setup.writerSchema(),
            DictionaryChoice.forRewrite(setup.fileOptions(), reader, fileName)
                .withBloomSizedFor(reader.footer().rowCount() + task.inserts()))) {
      Counts n = new Counts();
      // kept rows go column to column where they can; only replacing and new rows are built as records
      BaseFileMerge.rewrite(reader, writer, precombine, fileName, row -> assembler.carry(row, fileName), merger,
          pending, new KeyedMerge.Target<>() {
            @Override
            public void kept() {
              n.written++;
            }

            @Override
            public void outvoted(WriteRecord r) {
              counts.olderThanStored.increment();
            }

            @Override
            public void unmatchedDelete(WriteRecord r) {
              counts.deletesNotFound.increment();
            }

            @Override
            public void replace(WriteRecord r) {
              writer.writeReplacing(assembler.row(r, instant, MetaFields.seqNo(instant, taskIndex, n.written), fileName));
              n.updated++;
              n.written++;
            }

            @Override
            public void delete(WriteRecord r) {
              recordIndex.delete(r.key(), partition);
              n.deleted++;
            }

            @Override
            public void insert(WriteRecord r) {
              writer.write(assembler.row(r, instant, MetaFields.seqNo(instant, taskIndex, n.written), fileName));
              recordIndex.insert(r.key(), partition, fileId);
              n.written++;
              n.inserted++;
            }
          });
      while (inserts.hasNext()) {
        WriteRecord r = inserts.next();
        writer.write(assembler.row(r, instant, MetaFields.seqNo(instant, taskIndex, n.written), fileName));
        recordIndex.insert(r.key(), partition, fileId);
        n.written++;
        n.inserted++;
      }
      WrittenFile done = writer.finish();
      return new FileWriteResult(partition, fileId, relative, current.instantTime(), n.written, n.deleted, n.updated,
          n.inserted, done.sizeBytes(), (System.nanoTime() - start) / 1_000_000, Optional.empty(), current.fileName());
    }
  }

  /** What the merge wrote, as it goes. */
  private static final class Counts {
    private long written;
    private long updated;
    private long deleted;
    private long inserted;
  }
}
