package dev.sluice.internal.basefile;

import dev.sluice.api.ComputingIterator;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Function;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.RecordMaterializer;

/**
 * Reads Avro records row group by row group from an open Parquet reader (row groups already pruned by the reader's
 * filter). Records the filter rejects are skipped.
 */
final class RecordIterator extends ComputingIterator<GenericRecord> {
  private final MessageColumnIO columnIO;
  private final RecordMaterializer<GenericRecord> materializer;
  private final FilterCompat.Filter filter;
  private final Function<Throwable, RuntimeException> errors;
  private final Function<GenericRecord, GenericRecord> finish;
  private final RowGroups groups;
  private RecordReader<GenericRecord> records;
  private long leftInGroup;
  private boolean done;

  RecordIterator(ParquetFileReader reader, MessageColumnIO columnIO, RecordMaterializer<GenericRecord> materializer,
      FilterCompat.Filter filter, Function<GenericRecord, GenericRecord> finish,
      Function<Throwable, RuntimeException> errors) {
    this.groups = new RowGroups(reader, true);
    this.columnIO = columnIO;
    this.materializer = materializer;
    this.filter = filter;
    this.finish = finish;
    this.errors = errors;
  }

  @Override
  protected GenericRecord computeNext() {
    if (done) {
      return end();
    }
    try {
      while (true) {
        if (leftInGroup == 0 && !nextRowGroup()) {
          close();
          return end();
        }
        GenericRecord r = records.read();
        leftInGroup--;
        GenericRecord out = r != null && !records.shouldSkipCurrentRecord() ? finish.apply(r) : null;
        if (out != null) {
          return out;
        }
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw errors.apply(e);
    }
  }

  private boolean nextRowGroup() throws IOException {
    Optional<PageReadStore> pages = groups.next();
    if (pages.isEmpty()) {
      return false;
    }
    leftInGroup = pages.get().getRowCount();
    records = columnIO.getRecordReader(pages.get(), materializer, filter);
    return true;
  }

  @Override
  public void close() {
    if (done) {
      return;
    }
    done = true;
    groups.closeFile(errors);
  }
}
