package dev.sluice.internal.basefile.encode;

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
 * pages are dictionary-encoded until {@link DictionaryRule} ends it for the chunk. Page statistics compare with
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
  private final PageBuffer plain;
  private final DictionaryRule rule;
  private long[] entries = new long[64];
  private int[] seenOnPage = new int[64];
  private int dictionarySize;
  private int[] table = new int[128];
  private boolean hasValue;
  private long min;
  private long max;

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
    this.rule = new DictionaryRule(dictionary, maxDictionaryBytes);
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
    rule.addRaw(width);
    if (rule.on()) {
      int id = idOf(bits);
      if (seenOnPage[id] != rule.page()) {
        seenOnPage[id] = rule.page();
        observe(bits);
      }
      if (rule.add(id)) {
        fallBack();
      }
    } else {
      writePlain(bits);
      observe(bits);
    }
  }

  private void writePlain(long bits) {
    writePlain(plain, bits);
  }

  private void writePlain(PageBuffer out, long bits) {
    if (width == 4) {
      out.writeInt((int) bits);
    } else {
      out.writeLong(bits);
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
    rule.addEntry(width);
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

  private void fallBack() {
    rule.fallBack(id -> writePlain(entries[id]));
  }

  @Override
  public long bufferedSize() {
    return rule.rawBytes();
  }

  @Override
  public long allocatedSize() {
    return plain.capacity() + rule.allocatedSize() + 12L * entries.length + 4L * table.length;
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
    return rule.pageBytes(dictionarySize, plain, this::fallBack);
  }

  @Override
  public Encoding pageEncoding() {
    return rule.pageEncoding();
  }

  @Override
  public void startPage() {
    rule.startPage();
    plain.reset();
    hasValue = false;
  }

  @Override
  public Optional<DictionaryPage> dictionaryPage() {
    int size = rule.lastUsedSize();
    if (size == 0) {
      return Optional.empty();
    }
    PageBuffer out = new PageBuffer(size * width);
    for (int id = 0; id < size; id++) {
      writePlain(out, entries[id]);
    }
    return Optional.of(new DictionaryPage(out.copy(), size, Encoding.PLAIN_DICTIONARY));
  }
}
