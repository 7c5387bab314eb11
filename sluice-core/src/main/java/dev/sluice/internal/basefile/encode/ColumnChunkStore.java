package dev.sluice.internal.basefile.encode;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.PageWriteStore;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Sluice's column writers for one row group, in place of Parquet's {@code ColumnWriteStoreV1}: the same v1 pages,
 * encodings and statistics, cut by the same rule (at a row end, when a page's plain size comes within a tenth of
 * the page size, or it holds the page row or value limit; checked at row counts estimated from the fill rate), but
 * encoded without Parquet's per-value writer layers. Parquet's profile of a Copy-on-Write merge had half its time
 * in those: per-value min/max comparisons with a copy per new extreme, hashing every value into the dictionary
 * through two wrappers, size statistics. Here a dictionary page compares each distinct value once, and plain
 * minimums and maximums are positions in the page.
 */
public final class ColumnChunkStore implements ColumnWriteStore {
  private static final double THRESHOLD_TOLERANCE_RATIO = 0.1;

  private final ParquetProperties props;
  private final ColumnChunkEncoder[] encoders;
  private final Map<ColumnDescriptor, ColumnChunkEncoder> byColumn = new HashMap<>();
  private final long thresholdTolerance;
  private long rowCount;
  private long rowCountForNextSizeCheck;
  private boolean flushed;

  /** Column writers for every leaf of {@code schema}, writing pages to {@code pages}. */
  public ColumnChunkStore(MessageType schema, PageWriteStore pages, ParquetProperties props) {
    this.props = props;
    List<ColumnDescriptor> columns = schema.getColumns();
    this.encoders = new ColumnChunkEncoder[columns.size()];
    for (int i = 0; i < encoders.length; i++) {
      ColumnDescriptor c = columns.get(i);
      encoders[i] = new ColumnChunkEncoder(c, pages.getPageWriter(c), props);
      byColumn.put(c, encoders[i]);
    }
    this.thresholdTolerance = (long) (props.getPageSizeThreshold() * THRESHOLD_TOLERANCE_RATIO);
    this.rowCountForNextSizeCheck = Math.min(props.getMinRowCountForPageSizeCheck(), props.getPageRowCountLimit());
  }

  /** True if every leaf of {@code schema} has a physical type these writers encode (all but the legacy INT96). */
  public static boolean supports(MessageType schema) {
    for (ColumnDescriptor c : schema.getColumns()) {
      if (c.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT96) {
        return false;
      }
    }
    return true;
  }

  @Override
  public ColumnWriter getColumnWriter(ColumnDescriptor path) {
    return byColumn.get(path);
  }

  @Override
  public void endRecord() {
    ++rowCount;
    if (rowCount >= rowCountForNextSizeCheck) {
      sizeCheck();
    }
  }

  private void sizeCheck() {
    long minRowsToWait = Long.MAX_VALUE;
    int pageRowLimit = props.getPageRowCountLimit();
    long nextRowCountCheck = rowCount + pageRowLimit;
    for (ColumnChunkEncoder e : encoders) {
      long used = e.currentPageBufferedSize();
      long rows = rowCount - e.rowsWrittenSoFar();
      long remaining = props.getPageSizeThreshold() - used;
      if (remaining <= thresholdTolerance || rows >= pageRowLimit
          || e.valueCount() >= props.getPageValueCountThreshold()) {
        e.writePage();
        remaining = props.getPageSizeThreshold();
      } else {
        nextRowCountCheck = Math.min(nextRowCountCheck, e.rowsWrittenSoFar() + pageRowLimit);
      }
      long rowsToFill = used == 0 ? props.getMaxRowCountForPageSizeCheck() : rows * remaining / used;
      minRowsToWait = Math.min(minRowsToWait, rowsToFill);
    }
    if (minRowsToWait == Long.MAX_VALUE) {
      minRowsToWait = props.getMinRowCountForPageSizeCheck();
    }
    long step = props.estimateNextSizeCheck()
        ? Math.min(Math.max(minRowsToWait / 2, props.getMinRowCountForPageSizeCheck()),
            props.getMaxRowCountForPageSizeCheck())
        : props.getMinRowCountForPageSizeCheck();
    rowCountForNextSizeCheck = Math.min(rowCount + step, nextRowCountCheck);
  }

  @Override
  public boolean isColumnFlushNeeded() {
    return rowCount + 1 >= rowCountForNextSizeCheck;
  }

  /** Writes every column's last page and its dictionary; a second call does nothing. */
  @Override
  public void flush() {
    if (flushed) {
      return;
    }
    flushed = true;
    for (ColumnChunkEncoder e : encoders) {
      if (rowCount - e.rowsWrittenSoFar() > 0) {
        e.writePage();
      }
      e.finishChunk();
    }
  }

  @Override
  public long getAllocatedSize() {
    long total = 0;
    for (ColumnChunkEncoder e : encoders) {
      total += e.allocatedSize();
    }
    return total;
  }

  @Override
  public long getBufferedSize() {
    long total = 0;
    for (ColumnChunkEncoder e : encoders) {
      total += e.totalBufferedSize();
    }
    return total;
  }

  @Override
  public String memUsageString() {
    return "Sluice column store: " + encoders.length + " columns, " + getBufferedSize() + " bytes buffered";
  }

  @Override
  public void close() {
    flush();
    for (ColumnChunkEncoder e : encoders) {
      e.close();
    }
  }
}
