package dev.sluice.internal.basefile.encode;

import dev.sluice.internal.error.Errors;
import java.io.IOException;
import java.util.Optional;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.statistics.geospatial.GeospatialStatistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Writes one column chunk of a row group as v1 data pages: repetition and definition levels, then the values
 * ({@link PageValues}), each page with its statistics (minimum, maximum, null count) for the footer and the column
 * index. Pages are cut by {@link ColumnChunkStore} at row ends. Size statistics are not kept (Hudi's Parquet
 * version writes none either).
 */
final class ColumnChunkEncoder implements ColumnWriter {
  private final ColumnDescriptor column;
  private final PrimitiveType type;
  private final PageWriter pages;
  private final LevelEncoder repetition;
  private final LevelEncoder definition;
  private final PageValues values;
  private int valueCount;
  private int pageRowCount;
  private long nulls;
  private long rowsWrittenSoFar;

  ColumnChunkEncoder(ColumnDescriptor column, PageWriter pages, ParquetProperties props) {
    this.column = column;
    this.type = column.getPrimitiveType();
    this.pages = pages;
    this.repetition = new LevelEncoder(column.getMaxRepetitionLevel(), props);
    this.definition = new LevelEncoder(column.getMaxDefinitionLevel(), props);
    boolean dictionary = props.isDictionaryEnabled(column);
    int maxDictionary = props.getDictionaryPageSizeThreshold();
    int pageSize = props.getPageSizeThreshold();
    this.values = switch (type.getPrimitiveTypeName()) {
      case BOOLEAN -> new BooleanValues();
      case INT32, INT64, FLOAT, DOUBLE -> new NumberValues(type, dictionary, maxDictionary, pageSize);
      case BINARY, FIXED_LEN_BYTE_ARRAY -> new BinaryValues(type, dictionary, maxDictionary, pageSize);
      default -> throw Errors.internal("no Sluice encoder for " + type.getPrimitiveTypeName() + " columns", null);
    };
  }

  private void levels(int repetitionLevel, int definitionLevel) {
    repetition.write(repetitionLevel);
    if (repetitionLevel == 0) {
      pageRowCount++;
    }
    definition.write(definitionLevel);
    valueCount++;
  }

  @Override
  public void write(int value, int repetitionLevel, int definitionLevel) {
    levels(repetitionLevel, definitionLevel);
    values.write(value);
  }

  @Override
  public void write(long value, int repetitionLevel, int definitionLevel) {
    levels(repetitionLevel, definitionLevel);
    values.write(value);
  }

  @Override
  public void write(boolean value, int repetitionLevel, int definitionLevel) {
    levels(repetitionLevel, definitionLevel);
    values.write(value);
  }

  @Override
  public void write(Binary value, int repetitionLevel, int definitionLevel) {
    levels(repetitionLevel, definitionLevel);
    values.write(value);
  }

  @Override
  public void write(float value, int repetitionLevel, int definitionLevel) {
    levels(repetitionLevel, definitionLevel);
    values.write(value);
  }

  @Override
  public void write(double value, int repetitionLevel, int definitionLevel) {
    levels(repetitionLevel, definitionLevel);
    values.write(value);
  }

  @Override
  public void writeNull(int repetitionLevel, int definitionLevel) {
    levels(repetitionLevel, definitionLevel);
    nulls++;
  }

  int valueCount() {
    return valueCount;
  }

  long rowsWrittenSoFar() {
    return rowsWrittenSoFar;
  }

  long currentPageBufferedSize() {
    return repetition.bufferedSize() + definition.bufferedSize() + values.bufferedSize();
  }

  long totalBufferedSize() {
    return currentPageBufferedSize() + pages.getMemSize();
  }

  long allocatedSize() {
    return repetition.allocatedSize() + definition.allocatedSize() + values.allocatedSize() + pages.allocatedSize();
  }

  /** Writes the buffered values as a page. */
  void writePage() {
    if (valueCount == 0) {
      throw Errors.internal("an empty page for column " + column, null);
    }
    Statistics<?> stats = Statistics.createStats(type);
    values.addMinMax(stats);
    stats.incrementNumNulls(nulls);
    BytesInput valueBytes = values.pageBytes();
    try {
      pages.writePage(BytesInput.concat(repetition.pageBytes(), definition.pageBytes(), valueBytes), valueCount,
          pageRowCount, stats,
          SizeStatistics.noopBuilder(type, column.getMaxRepetitionLevel(), column.getMaxDefinitionLevel()).build(),
          GeospatialStatistics.noopBuilder().build(), repetition.encoding(), definition.encoding(),
          values.pageEncoding());
    } catch (IOException e) {
      throw Errors.internal("writing a page of column " + column + " failed", e);
    }
    rowsWrittenSoFar += pageRowCount;
    repetition.reset();
    definition.reset();
    values.startPage();
    valueCount = 0;
    pageRowCount = 0;
    nulls = 0;
  }

  /** Writes the dictionary page, if a page used the dictionary; after the last data page of the chunk. */
  void finishChunk() {
    Optional<DictionaryPage> dictionary = values.dictionaryPage();
    if (dictionary.isPresent()) {
      try {
        pages.writeDictionaryPage(dictionary.get());
      } catch (IOException e) {
        throw Errors.internal("writing the dictionary page of column " + column + " failed", e);
      }
    }
  }

  @Override
  public void close() {
    repetition.close();
    definition.close();
  }

  @Override
  public long getBufferedSizeInMemory() {
    return totalBufferedSize();
  }
}
