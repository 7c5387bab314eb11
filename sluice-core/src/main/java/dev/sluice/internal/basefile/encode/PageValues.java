package dev.sluice.internal.basefile.encode;

import dev.sluice.internal.error.Errors;
import java.util.Optional;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;

/**
 * The values of one column chunk, page by page: buffers the current page's values (dictionary ids or plain
 * bytes), keeps the page's minimum and maximum, and at the chunk's end gives the dictionary page if any page used
 * it. One implementation per kind of physical type; the typed writes of other kinds are errors.
 */
interface PageValues {
  default void write(int value) {
    throw wrongType("an int");
  }

  default void write(long value) {
    throw wrongType("a long");
  }

  default void write(float value) {
    throw wrongType("a float");
  }

  default void write(double value) {
    throw wrongType("a double");
  }

  default void write(boolean value) {
    throw wrongType("a boolean");
  }

  default void write(Binary value) {
    throw wrongType("a binary");
  }

  private RuntimeException wrongType(String what) {
    return Errors.internal(what + " value written to a column of another type (" + getClass().getSimpleName() + ")",
        null);
  }

  /** Bytes the page's values take plain-encoded: pages are cut on this, whatever the encoding (as Parquet does). */
  long bufferedSize();

  /** Bytes held, for memory accounting. */
  long allocatedSize();

  /** Adds the page's minimum and maximum value (if it has a non-null value) to {@code stats}. */
  void addMinMax(Statistics<?> stats);

  /** Ends the page's values: their bytes, valid until {@link #startPage()}. */
  BytesInput pageBytes();

  /** The encoding of the bytes {@link #pageBytes()} last returned. */
  Encoding pageEncoding();

  /** Starts the next page of the chunk. */
  void startPage();

  /** The chunk's dictionary, if a page was written with it. */
  Optional<DictionaryPage> dictionaryPage();
}
