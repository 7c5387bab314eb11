package dev.sluice.basefile.encode;

import java.util.Arrays;
import java.util.Optional;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.schema.PrimitiveComparator;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * INT32, INT64, FLOAT and DOUBLE values, held as their bits in a {@code long} (floats and doubles as
 * {@code floatToIntBits}/{@code doubleToLongBits}, which is what plain encoding writes). With the dictionary on,
 * pages are dictionary-encoded until the dictionary outgrows its page size, or the first page shows that it does
 * not pay; then the chunk goes on plain, Parquet's rule ({@code FallbackValuesWriter}). Page statistics compare with
 * the column type's own comparator; with the dictionary, each distinct value is compared once per page.
 */
final class NumberValues implements PageValues {
  private static final int INT32 = 0;
  private static final int INT64 = 1;
  private static final int FLOAT = 2;
  private static final int DOUBLE = 3;

  private final int kind;
  private final int width;
  private final PrimitiveComparator<?> comparator;
  private final int maxDictionaryBytes;
  private final PageBuffer plain;
  private final DictionaryIds pageIds = new DictionaryIds();
  private boolean dictionaryMode;
  private boolean firstPage = true;
  private long[] entries = new long[64];
  private int[] seenOnPage = new int[64];
  private int dictionarySize;
  private int lastUsedDictionarySize;
  private long dictionaryBytes;
  private int[] table = new int[128];
  private int page = 1;
  private long rawBytes;
  private boolean hasValue;
  private long min;
  private long max;
  private Encoding encoding = Encoding.PLAIN;

  NumberValues(PrimitiveType type, boolean dictionary, int maxDictionaryBytes, int pageSize) {
    PrimitiveTypeName name = type.getPrimitiveTypeName();
    this.kind = switch (name) {
      case INT32 -> INT32;
      case INT64 -> INT64;
      case FLOAT -> FLOAT;
      case DOUBLE -> DOUBLE;
      default -> throw new IllegalArgumentException("not a number column: " + name);
    };
    this.width = kind == INT32 || kind == FLOAT ? 4 : 8;
    this.comparator = type.comparator();
    this.dictionaryMode = dictionary;
    this.maxDictionaryBytes = maxDictionaryBytes;
    this.plain = new PageBuffer(Math.min(pageSize, 64 * 1024));
  }

  @Override
  public void write(int value) {
    add(value);
  }

  @Override
  public void write(long value) {
    add(value);
  }

  @Override
  public void write(float value) {
    add(Float.floatToIntBits(value));
  }

  @Override
  public void write(double value) {
    add(Double.doubleToLongBits(value));
  }

  private void add(long bits) {
    rawBytes += width;
    if (dictionaryMode) {
      int id = idOf(bits);
      if (seenOnPage[id] != page) {
        seenOnPage[id] = page;
        observe(bits);
      }
      pageIds.add(id);
      if (dictionaryBytes > maxDictionaryBytes) {
        fallBack();
      }
    } else {
      writePlain(bits);
      observe(bits);
    }
  }

  private void writePlain(long bits) {
    if (width == 4) {
      plain.writeInt((int) bits);
    } else {
      plain.writeLong(bits);
    }
  }

  private void observe(long bits) {
    if (!hasValue) {
      min = bits;
      max = bits;
      hasValue = true;
    } else if (compare(bits, min) < 0) {
      min = bits;
    } else if (compare(bits, max) > 0) {
      max = bits;
    }
  }

  private int compare(long a, long b) {
    return switch (kind) {
      case INT32 -> comparator.compare((int) a, (int) b);
      case INT64 -> comparator.compare(a, b);
      case FLOAT -> comparator.compare(Float.intBitsToFloat((int) a), Float.intBitsToFloat((int) b));
      default -> comparator.compare(Double.longBitsToDouble(a), Double.longBitsToDouble(b));
    };
  }

  private static int slot(long bits, int mask) {
    long x = bits * 0x9E3779B97F4A7C15L;
    return (int) (x ^ (x >>> 29)) & mask;
  }

  private int idOf(long bits) {
    int mask = table.length - 1;
    int s = slot(bits, mask);
    while (true) {
      int e = table[s];
      if (e == 0) {
        break;
      }
      if (entries[e - 1] == bits) {
        return e - 1;
      }
      s = (s + 1) & mask;
    }
    int id = dictionarySize++;
    if (id == entries.length) {
      entries = Arrays.copyOf(entries, id * 2);
      seenOnPage = Arrays.copyOf(seenOnPage, id * 2);
    }
    entries[id] = bits;
    seenOnPage[id] = 0;
    table[s] = id + 1;
    dictionaryBytes += width;
    if (dictionarySize * 2 > table.length) {
      rehash();
    }
    return id;
  }

  private void rehash() {
    int[] bigger = new int[table.length * 2];
    int mask = bigger.length - 1;
    for (int id = 0; id < dictionarySize; id++) {
      int s = slot(entries[id], mask);
      while (bigger[s] != 0) {
        s = (s + 1) & mask;
      }
      bigger[s] = id + 1;
    }
    table = bigger;
  }

  /** From here on the chunk is plain: this page's values are re-encoded, earlier pages keep their dictionary. */
  private void fallBack() {
    dictionaryMode = false;
    for (int i = 0; i < pageIds.count(); i++) {
      writePlain(entries[pageIds.get(i)]);
    }
    pageIds.reset();
    if (lastUsedDictionarySize == 0) {
      dictionarySize = 0;
      dictionaryBytes = 0;
    }
  }

  @Override
  public long bufferedSize() {
    return rawBytes;
  }

  @Override
  public long allocatedSize() {
    return plain.capacity() + pageIds.allocatedSize() + 12L * entries.length + 4L * table.length;
  }

  @Override
  public void addMinMax(Statistics<?> stats) {
    if (!hasValue) {
      return;
    }
    for (long bits : new long[] {min, max}) {
      switch (kind) {
        case INT32 -> stats.updateStats((int) bits);
        case INT64 -> stats.updateStats(bits);
        case FLOAT -> stats.updateStats(Float.intBitsToFloat((int) bits));
        default -> stats.updateStats(Double.longBitsToDouble(bits));
      }
    }
  }

  @Override
  public BytesInput pageBytes() {
    if (dictionaryMode) {
      BytesInput ids = pageIds.encode(dictionarySize, maxDictionaryBytes);
      if (!firstPage || ids.size() + dictionaryBytes < rawBytes) {
        lastUsedDictionarySize = dictionarySize;
        encoding = Encoding.PLAIN_DICTIONARY;
        return ids;
      }
      // the first page decides: a dictionary that does not beat plain is dropped
      fallBack();
    }
    encoding = Encoding.PLAIN;
    return plain.copy();
  }

  @Override
  public Encoding pageEncoding() {
    return encoding;
  }

  @Override
  public void startPage() {
    firstPage = false;
    page++;
    pageIds.reset();
    plain.reset();
    rawBytes = 0;
    hasValue = false;
  }

  @Override
  public Optional<DictionaryPage> dictionaryPage() {
    if (lastUsedDictionarySize == 0) {
      return Optional.empty();
    }
    PageBuffer out = new PageBuffer(lastUsedDictionarySize * width);
    for (int id = 0; id < lastUsedDictionarySize; id++) {
      writeTo(out, entries[id]);
    }
    return Optional.of(new DictionaryPage(out.copy(), lastUsedDictionarySize, Encoding.PLAIN_DICTIONARY));
  }

  private void writeTo(PageBuffer out, long bits) {
    if (width == 4) {
      out.writeInt((int) bits);
    } else {
      out.writeLong(bits);
    }
  }
}
