package dev.sluice.internal.basefile;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveComparator;

/**
 * The point-lookup read of one row by record key. The key column of each row group whose key statistics admit the
 * key is scanned for it with Sluice's column reader (values compared as bytes, a dictionary entry once); then only
 * the pages that hold that row are read from each requested column (Parquet's offset index names them), and the
 * row is assembled from them. A filtered record read would decode every column of the whole row group instead.
 */
final class KeyedRowRead {
  private KeyedRowRead() {
  }

  /**
   * True if this read serves a file of {@code rowGroups}: every chunk of {@code keyColumn} has only encodings
   * Sluice's column reader decodes, and every column chunk has an offset index (Parquet writes one since 1.11).
   */
  static boolean serves(List<BlockMetaData> rowGroups, ColumnDescriptor keyColumn) {
    if (!CopyColumnReader.readsAll(keyColumn, rowGroups)) {
      return false;
    }
    for (BlockMetaData g : rowGroups) {
      for (ColumnChunkMetaData c : g.getColumns()) {
        if (c.getOffsetIndexReference() == null) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The row whose key column ({@code keySchema}'s one column) holds {@code key}, read in {@code requested} by
   * {@code assembler}; the first such row if several do.
   */
  static Optional<GenericRecord> find(ParquetFileReader reader, MessageType keySchema, MessageType requested,
      RowAssembler assembler, String createdBy, String key) throws IOException {
    Binary want = Binary.fromString(key);
    ColumnDescriptor column = keySchema.getColumns().get(0);
    List<BlockMetaData> groups = reader.getRowGroups();
    for (int g = 0; g < groups.size(); g++) {
      if (!mayHold(groups.get(g), column, want)) {
        continue;
      }
      long row;
      reader.setRequestedSchema(keySchema);
      try (PageReadStore keys = reader.readRowGroup(g)) {
        row = rowOf(CopyColumnReader.open(column, keys.getPageReader(column)), keys.getRowCount(),
            column.getMaxDefinitionLevel(), want);
      }
      if (row >= 0) {
        long rows = groups.get(g).getRowCount();
        reader.setRequestedSchema(requested);
        RowRanges only = RowRanges.create(rows, IntStream.of(0).iterator(), new OneRow(row, rows));
        try (PageReadStore pages = reader.readFilteredRowGroup(g, only)) {
          return Optional.of(assembler.readOne(pages, createdBy));
        }
      }
    }
    return Optional.empty();
  }

  /** False if the row group's key statistics rule {@code want} out. */
  private static boolean mayHold(BlockMetaData group, ColumnDescriptor column, Binary want) {
    for (ColumnChunkMetaData c : group.getColumns()) {
      if (c.getPath().toDotString().equals(String.join(".", column.getPath()))) {
        Statistics<?> s = c.getStatistics();
        if (s == null || s.isEmpty() || !s.hasNonNullValue()) {
          return true;
        }
        PrimitiveComparator<Binary> order = PrimitiveComparator.UNSIGNED_LEXICOGRAPHICAL_BINARY_COMPARATOR;
        return order.compare(want, (Binary) s.genericGetMin()) >= 0 && order.compare(want, (Binary) s.genericGetMax()) <= 0;
      }
    }
    return true;
  }

  /** The index of the first of {@code rows} values equal to {@code want}, or -1. */
  private static long rowOf(CopyColumnReader r, long rows, int maxDef, Binary want) {
    int wantedId = -2;
    for (long i = 0; i < rows; i++) {
      if (r.getCurrentDefinitionLevel() == maxDef) {
        int id = r.takeDictionaryId();
        if (id < 0) {
          if (r.getBinary().equals(want)) {
            return i;
          }
        } else {
          if (wantedId == -2) {
            wantedId = dictionaryIdOf(r, want);
          }
          if (id == wantedId) {
            return i;
          }
        }
      }
      r.consume();
    }
    return -1;
  }

  private static int dictionaryIdOf(CopyColumnReader r, Binary want) {
    for (int id = 0; id < r.dictionarySize(); id++) {
      if (r.dictionaryBinary(id).equals(want)) {
        return id;
      }
    }
    return -1;
  }

  /** An offset index of pages made up so that page 0 is exactly row {@code row}: the ranges to read. */
  private record OneRow(long row, long rows) implements OffsetIndex {
    @Override
    public int getPageCount() {
      return row + 1 < rows ? 2 : 1;
    }

    @Override
    public long getFirstRowIndex(int page) {
      return page == 0 ? row : row + 1;
    }

    @Override
    public long getOffset(int page) {
      throw new UnsupportedOperationException("a row range, not a file's offset index");
    }

    @Override
    public int getCompressedPageSize(int page) {
      throw new UnsupportedOperationException("a row range, not a file's offset index");
    }
  }
}
