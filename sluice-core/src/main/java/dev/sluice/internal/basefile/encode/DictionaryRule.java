package dev.sluice.internal.basefile.encode;

import java.util.Optional;
import java.util.function.IntConsumer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;

/**
 * When a column chunk stops using its dictionary, Parquet's rule ({@code FallbackValuesWriter}), shared by every
 * dictionary-encoded value type: pages are dictionary-encoded until the dictionary's plain size passes its page size
 * limit, or until the first page shows the dictionary does not beat plain encoding; from then on the chunk is plain,
 * and the pages already written keep the dictionary (written at the chunk's end). Pages are cut on the values'
 * plain size whatever the encoding. Holds the current page's dictionary ids; the value types hold the entries.
 */
final class DictionaryRule {
  private final int maxDictionaryBytes;
  private final DictionaryIds pageIds = new DictionaryIds();
  private boolean on;
  private boolean firstPage = true;
  private int lastUsedSize;
  private long dictionaryBytes;
  private long rawBytes;
  private int page = 1;
  private Encoding encoding = Encoding.PLAIN;

  DictionaryRule(boolean dictionary, int maxDictionaryBytes) {
    this.on = dictionary;
    this.maxDictionaryBytes = maxDictionaryBytes;
  }

  /** True while the chunk is dictionary-encoded. */
  boolean on() {
    return on;
  }

  /** A number that differs for every page of the chunk (to mark entries seen on the current page). */
  int page() {
    return page;
  }

  /** Counts a value of the page by the bytes it takes plain-encoded. */
  void addRaw(int bytes) {
    rawBytes += bytes;
  }

  /** The page's values' plain size. */
  long rawBytes() {
    return rawBytes;
  }

  /** Counts a new dictionary entry by the bytes it takes in the dictionary page. */
  void addEntry(int bytes) {
    dictionaryBytes += bytes;
  }

  long dictionaryBytes() {
    return dictionaryBytes;
  }

  /** Adds a value's id to the page; true if the dictionary has outgrown its limit (the caller falls back). */
  boolean add(int id) {
    pageIds.add(id);
    return dictionaryBytes > maxDictionaryBytes;
  }

  /** Ends dictionary encoding for the rest of the chunk; {@code replay} gets this page's ids to re-encode plain. */
  void fallBack(IntConsumer replay) {
    on = false;
    for (int i = 0; i < pageIds.count(); i++) {
      replay.accept(pageIds.get(i));
    }
    pageIds.reset();
  }

  /**
   * The page's ids, encoded for a dictionary of {@code dictionarySize} entries; empty if this is the first page and
   * the dictionary does not pay (the caller then falls back and writes the page plain).
   */
  Optional<BytesInput> pageIds(int dictionarySize) {
    BytesInput ids = pageIds.encode(dictionarySize, maxDictionaryBytes);
    if (firstPage && ids.size() + dictionaryBytes >= rawBytes) {
      return Optional.empty();
    }
    lastUsedSize = dictionarySize;
    return Optional.of(ids);
  }

  /**
   * Ends the page: its dictionary ids while the chunk is dictionary-encoded and the dictionary pays, else its plain
   * bytes, after {@code fallBack} (the value type's, which re-encodes the page's values into {@code plain}) when the
   * chunk was dictionary-encoded up to here. Valid until the next page starts.
   */
  BytesInput pageBytes(int dictionarySize, PageBuffer plain, Runnable fallBack) {
    if (on) {
      Optional<BytesInput> ids = pageIds(dictionarySize);
      if (ids.isPresent()) {
        encoding = Encoding.PLAIN_DICTIONARY;
        return ids.get();
      }
      fallBack.run();
    }
    encoding = Encoding.PLAIN;
    return plain.copy();
  }

  /** The encoding of the bytes {@link #pageBytes} last returned. */
  Encoding pageEncoding() {
    return encoding;
  }

  /** Entries the written pages use: the dictionary page's size, 0 if no page used the dictionary. */
  int lastUsedSize() {
    return lastUsedSize;
  }

  void startPage() {
    firstPage = false;
    page++;
    pageIds.reset();
    rawBytes = 0;
  }

  long allocatedSize() {
    return pageIds.allocatedSize();
  }
}
