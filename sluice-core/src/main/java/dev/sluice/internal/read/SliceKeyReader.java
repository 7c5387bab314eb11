package dev.sluice.internal.read;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.MergeMode;
import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.basefile.MetaFields;
import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.mdt.write.SliceKeys;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.internal.schema.TableSchema;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.storage.Storage;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * The live keys of a data-table file slice for the record index's bootstrap ({@link SliceKeys}): a slice without
 * logs gives its base file's key column; a Merge-on-Read slice with logs is merged as a snapshot query merges it
 * ({@link MergedSliceReader}, reading only the key, partition, precombine and delete-flag columns), so keys deleted
 * in the logs are gone and keys only the logs hold are there.
 */
public final class SliceKeyReader implements SliceKeys {
  private final Storage storage;
  private final String basePath;
  private final long memoryBudget;
  private final Path spillDirectory;

  /** Reads slices of the table at {@code basePath}, merging logs within {@code memoryBudget} bytes; no I/O. */
  public SliceKeyReader(Storage storage, String basePath, long memoryBudget, Path spillDirectory) {
    this.storage = storage;
    this.basePath = basePath;
    this.memoryBudget = memoryBudget;
    this.spillDirectory = spillDirectory;
  }

  @Override
  public CloseableIterator<String> keys(FileSlice slice, Timeline dataTimeline) {
    if (slice.logFiles().isEmpty()) {
      if (slice.baseFile().isEmpty()) {
        return CloseableIterator.empty();
      }
      BaseFile f = slice.baseFile().get();
      BaseFileReader reader = BaseFileReader.open(storage, f.path(), f.size());
      CloseableIterator<String> keys = reader.recordKeys();
      return closingBoth(keys, reader);
    }
    TableConfig tc = TableConfigStore.read(storage, basePath);
    Schema full = MetaFields.withMetaFields(TableSchema.resolve(storage, basePath, dataTimeline, tc));
    SnapshotPlanner planner = new SnapshotPlanner(storage, basePath, tc, full, dataTimeline);
    Schema mergeSchema = planner.mergeSchema(full, Set.of(MetaFields.RECORD_KEY));
    String queryInstant = dataTimeline.writeTimeline().completedAndPendingCompactions().lastInstant()
        .map(i -> i.time()).orElse("");
    LogMerge merge = new LogMerge(dataTimeline, queryInstant, tc.precombineField(),
        new RecordMerger(MergeMode.fromPayloadClass(tc.payloadClass())), memoryBudget, spillDirectory,
        Optional.empty());
    CloseableIterator<GenericRecord> rows = new MergedSliceReader(storage, mergeSchema, merge, skipped -> { })
        .open(slice);
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return rows.hasNext();
      }

      @Override
      public String next() {
        if (!rows.hasNext()) {
          throw new NoSuchElementException();
        }
        return rows.next().get(MetaFields.RECORD_KEY).toString();
      }

      @Override
      public void close() {
        rows.close();
      }
    };
  }

  private static CloseableIterator<String> closingBoth(CloseableIterator<String> keys, BaseFileReader reader) {
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return keys.hasNext();
      }

      @Override
      public String next() {
        return keys.next();
      }

      @Override
      public void close() {
        try {
          keys.close();
        } finally {
          reader.close();
        }
      }
    };
  }
}
