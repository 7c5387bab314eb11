package dev.sluice.internal.write;

import dev.sluice.api.FileWriteResult;
import dev.sluice.api.WriteToken;
import dev.sluice.internal.basefile.BaseFileWriter;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.basefile.DictionaryChoice;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.basefile.WrittenFile;
import dev.sluice.internal.mdt.write.RecordIndexChanges;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.commit.IOType;
import dev.sluice.internal.commit.Markers;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.storage.StoragePaths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Writes a new file group from inserts; past the target file size it rolls over to another new file group
 * (bulk insert relies on this to size files to the target).
 */
final class CreateHandle {
  private final WriteSetup setup;
  private final Markers markers;
  private final String instant;
  private final RecordIndexChanges recordIndex;

  CreateHandle(WriteSetup setup, Markers markers, String instant, RecordIndexChanges recordIndex) {
    this.setup = setup;
    this.markers = markers;
    this.instant = instant;
    this.recordIndex = recordIndex;
  }

  /**
   * Writes new file group {@code task.id()} (and any it rolls over to) from {@code inserts} ({@code task.inserts()}
   * records), read once, in order, as the task attempt {@code token} names.
   */
  List<FileWriteResult> write(FileGroupWrite.Create task, Iterator<WriteRecord> inserts, WriteToken token) {
    int taskIndex = token.partition();
    FileGroupId id = task.id();
    long count = task.inserts();
    String partition = id.partitionPath();
    RecordAssembler assembler = new RecordAssembler(setup.writerSchema());
    // the first records choose the columns written without a dictionary; then they are written like the rest
    List<WriteRecord> head = new ArrayList<>();
    while (head.size() < DictionaryChoice.SAMPLE && inserts.hasNext()) {
      head.add(inserts.next());
    }
    BaseFileWriterOptions options = DictionaryChoice.forNewFile(setup.fileOptions(),
        head.stream().map(WriteRecord::data).toList());
    Iterator<WriteRecord> records = new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < head.size() || inserts.hasNext();
      }

      @Override
      public WriteRecord next() {
        return next < head.size() ? head.get(next++) : inserts.next();
      }
    };
    List<FileWriteResult> results = new ArrayList<>();
    String fileId = id.fileId();
    long remaining = count;
    while (records.hasNext()) {
      long start = System.nanoTime();
      String fileName = FileNames.baseFileName(fileId, token.text(), instant);
      String relative = partition.isEmpty() ? fileName : partition + "/" + fileName;
      String path = StoragePaths.join(setup.basePath(), relative);
      markers.create(partition, fileName, IOType.CREATE);
      long written = 0;
      try (BaseFileWriter writer = BaseFileWriter.open(setup.storage(), path, setup.writerSchema(),
          options.withBloomSizedFor(remaining))) {
        while (records.hasNext()) {
          WriteRecord r = records.next();
          writer.write(assembler.row(r, instant, MetaFields.seqNo(instant, taskIndex, written), fileName));
          recordIndex.insert(r.key(), partition, fileId);
          written++;
          if (writer.estimatedBytes() >= setup.maxFileSize()) {
            break;
          }
        }
        WrittenFile done = writer.finish();
        results.add(new FileWriteResult(partition, fileId, relative, FileWriteResult.NULL_COMMIT, written, 0, 0,
            written, done.sizeBytes(), (System.nanoTime() - start) / 1_000_000));
      }
      remaining -= written;
      fileId = FileNames.fileId(FileNames.newFileIdPrefix(), 0);
    }
    return results;
  }
}
