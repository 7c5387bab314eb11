package dev.sluice.internal.basefile;

import java.io.IOException;
import java.util.Optional;
import java.util.function.Function;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;

/**
 * The non-empty row groups of an open Parquet file, one at a time: each call to {@link #next()} releases the pages of
 * the previous group before reading the next, so a reader holds at most one row group's pages.
 */
final class RowGroups implements AutoCloseable {
  private final ParquetFileReader reader;
  private final boolean filtered;
  private PageReadStore current;

  /** Row groups of {@code reader}; with {@code filtered}, only the pages its filter (column index) admits. */
  RowGroups(ParquetFileReader reader, boolean filtered) {
    this.reader = reader;
    this.filtered = filtered;
  }

  /** The next row group that has rows, or empty after the last one. */
  Optional<PageReadStore> next() throws IOException {
    close();
    while (true) {
      PageReadStore pages = filtered ? reader.readNextFilteredRowGroup() : reader.readNextRowGroup();
      if (pages == null) {
        return Optional.empty();
      }
      if (pages.getRowCount() > 0) {
        current = pages;
        return Optional.of(pages);
      }
      pages.close();
    }
  }

  /**
   * Releases the current row group's pages and closes the file, for an iterator that owns the file; a failure to
   * close it goes through {@code errors}, the owner's naming of the file.
   */
  void closeFile(Function<Throwable, RuntimeException> errors) {
    close();
    try {
      reader.close();
    } catch (IOException e) {
      throw errors.apply(e);
    }
  }

  /** Releases the current row group's pages (not the file). */
  @Override
  public void close() {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
