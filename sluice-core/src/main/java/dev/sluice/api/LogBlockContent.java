package dev.sluice.api;

import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.DeleteRecord;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogDump;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/** A log block read by {@link TableInspection#readLog}: its summary and, on request, its records. */
public final class LogBlockContent {
  private final LogBlock block;
  private final LogBlockInfo info;

  LogBlockContent(LogBlock block) {
    this.block = block;
    this.info = Infos.block(LogDump.summarize(block));
  }

  /** The block's type, instant, header, record count, offset and size. */
  public LogBlockInfo info() {
    return info;
  }

  /** The rows of a data block in its writer schema (empty for other blocks); close the iterator. */
  public CloseableIterator<GenericRecord> records() {
    if (block instanceof DataBlock data) {
      return data.records(data.writerSchema());
    }
    return CloseableIterator.empty();
  }

  /** The keys of a delete block (empty for other blocks); close the iterator. */
  public CloseableIterator<DeletedKey> deletedKeys() {
    if (block instanceof DeleteBlock deletes) {
      return deletes.records().map(LogBlockContent::key);
    }
    return CloseableIterator.empty();
  }

  private static DeletedKey key(DeleteRecord d) {
    return new DeletedKey(d.recordKey(), d.partitionPath(), Optional.ofNullable(d.orderingValue()));
  }
}
