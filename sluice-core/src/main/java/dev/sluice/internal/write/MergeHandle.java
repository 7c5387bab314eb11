package dev.sluice.internal.write;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.FileWriteResult;
import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.basefile.BaseFileWriter;
import dev.sluice.internal.basefile.DictionaryChoice;
import dev.sluice.internal.basefile.MergeRead;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.basefile.RowCopier;
import dev.sluice.internal.basefile.WrittenFile;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.internal.key.FieldPath;
import dev.sluice.internal.marker.IOType;
import dev.sluice.internal.marker.Markers;
import dev.sluice.internal.merge.Ordering;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.storage.StoragePaths;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Copy-on-Write merge of one file group: streams the current base file in order, replaces or drops the rows
 * whose keys have incoming versions (per the merge mode), copies the rest unchanged but for the file name,
 * then appends the inserts and any update whose key the file did not hold.
 */
final class MergeHandle {
  private final WriteSetup setup;
  private final Markers markers;
  private final String instant;
  private final RecordMerger merger;

  MergeHandle(WriteSetup setup, Markers markers, String instant) {
    this.setup = setup;
    this.markers = markers;
    this.instant = instant;
    this.merger = setup.merger();
  }

  /**
   * Incoming versions of the keys a merged file group holds, taken one by one as its base file streams by.
   */
  interface PendingUpdates {
    /** True if no version is left to take. */
    boolean isEmpty();

    /** Removes and returns the incoming version of {@code key}, if there is one. */
    Optional<WriteRecord> take(String key);

    /** The versions not taken, once the base file is done (keys the file did not hold). */
    Iterator<WriteRecord> rest();
  }

  FileWriteResult write(FileGroupWrite.Merge task, int taskIndex) {
    Map<String, WriteRecord> pending = new HashMap<>(task.updates());
    PendingUpdates updates = new PendingUpdates() {
      @Override
      public boolean isEmpty() {
        return pending.isEmpty();
      }

      @Override
      public Optional<WriteRecord> take(String key) {
        return Optional.ofNullable(pending.remove(key));
      }

      @Override
      public Iterator<WriteRecord> rest() {
        return pending.values().iterator();
      }
    };
    return write(task.id(), task.current(), updates, task.inserts().iterator(), task.inserts().size(), taskIndex);
  }

  /**
   * Rewrites file group {@code id} from {@code current}, applying {@code pending}, then appending {@code inserts}
   * ({@code insertCount} records).
   */
  FileWriteResult write(FileGroupId id, BaseFile current, PendingUpdates pending, Iterator<WriteRecord> inserts,
      long insertCount, int taskIndex) {
    long start = System.nanoTime();
    String partition = id.partitionPath();
    String fileId = id.fileId();
    String fileName = FileNames.baseFileName(fileId, taskIndex + "-0-0", instant);
    String relative = partition.isEmpty() ? fileName : partition + "/" + fileName;
    String path = StoragePaths.join(setup.basePath(), relative);
    RecordAssembler assembler = new RecordAssembler(setup.writerSchema());
    Optional<String> precombine = setup.tableConfig().precombineField();
    long written = 0;
    long updated = 0;
    long deleted = 0;
    long inserted = 0;
    markers.create(partition, fileName, IOType.MERGE);
    String oldPath = current.path();
    try (BaseFileReader reader = BaseFileReader.open(setup.storage(), oldPath, current.size());
        BaseFileWriter writer = BaseFileWriter.open(setup.storage(), path, setup.writerSchema(),
            DictionaryChoice.forRewrite(setup.fileOptions(), reader, fileName)
                .withBloomSizedFor(reader.footer().rowCount() + insertCount))) {
      Schema fileSchema = reader.footer().schema();
      // kept and updated keys are in the old file's filter already: only new keys are hashed
      reader.bloomFilter().ifPresent(b -> writer.continueBloom(b, reader.footer().rowCount()));
      MergeRead merge = MergeRead.open(reader, writer, precombine, fileName);
      FieldPath orderingField = merge.ordering().orElse(null);
      Optional<RowCopier> copier = merge.copier();
      if (copier.isPresent()) {
        // kept rows go column to column; only replaced rows are built as records
        try (RowCopier rows = copier.get()) {
          while (rows.next()) {
            WriteRecord incoming = pending.isEmpty() ? null : pending.take(rows.key()).orElse(null);
            if (incoming != null) {
              @SuppressWarnings("rawtypes")
              Comparable storedOrdering = orderingField == null ? null : Ordering.normalize(rows.ordering());
              boolean hard = incoming.delete() == WriteRecord.DeleteKind.HARD;
              if (merger.incomingWins(storedOrdering, incoming.ordering(), hard)) {
                rows.drop();
                if (incoming.isDelete()) {
                  deleted++;
                  continue;
                }
                writer.writeReplacing(assembler.row(incoming, instant, MetaFields.seqNo(instant, taskIndex, written), fileName));
                updated++;
                written++;
                continue;
              }
            }
            rows.copy();
            written++;
          }
        }
      } else {
        try (CloseableIterator<GenericRecord> rows = reader.read(fileSchema)) {
          while (rows.hasNext()) {
            GenericRecord stored = rows.next();
            String key = stored.get(2).toString();
            WriteRecord incoming = pending.isEmpty() ? null : pending.take(key).orElse(null);
            if (incoming != null) {
              @SuppressWarnings("rawtypes")
              Comparable storedOrdering = orderingField == null ? null : Ordering.normalize(orderingField.get(stored));
              boolean hard = incoming.delete() == WriteRecord.DeleteKind.HARD;
              if (merger.incomingWins(storedOrdering, incoming.ordering(), hard)) {
                if (incoming.isDelete()) {
                  deleted++;
                  continue;
                }
                writer.writeReplacing(assembler.row(incoming, instant, MetaFields.seqNo(instant, taskIndex, written), fileName));
                updated++;
                written++;
                continue;
              }
            }
            writer.writeReplacing(assembler.carry(stored, fileName));
            written++;
          }
        }
      }
      for (Iterator<WriteRecord> rest = pending.rest(); rest.hasNext();) {
        WriteRecord r = rest.next();
        if (!r.isDelete()) {
          writer.write(assembler.row(r, instant, MetaFields.seqNo(instant, taskIndex, written), fileName));
          written++;
          inserted++;
        }
      }
      while (inserts.hasNext()) {
        WriteRecord r = inserts.next();
        writer.write(assembler.row(r, instant, MetaFields.seqNo(instant, taskIndex, written), fileName));
        written++;
        inserted++;
      }
      WrittenFile done = writer.finish();
      return new FileWriteResult(partition, fileId, relative, current.instantTime(), written, deleted, updated,
          inserted, done.sizeBytes(), (System.nanoTime() - start) / 1_000_000);
    }
  }
}
