package dev.sluice.internal.basefile.encode;

import java.util.Optional;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.statistics.Statistics;

/** BOOLEAN values: plain, one bit each, least significant bit first, the last byte zero-padded. */
final class BooleanValues implements PageValues {
  private final PageBuffer packed = new PageBuffer(1024);
  private int current;
  private int bits;
  private boolean seenFalse;
  private boolean seenTrue;

  @Override
  public void write(boolean value) {
    if (value) {
      current |= 1 << bits;
      seenTrue = true;
    } else {
      seenFalse = true;
    }
    if (++bits == 8) {
      packed.writeByte(current);
      current = 0;
      bits = 0;
    }
  }

  @Override
  public long bufferedSize() {
    // the partial byte counts, as in Parquet's bit-packing writer: page and row group cuts depend on it
    return packed.size() + (bits > 0 ? 1 : 0);
  }

  @Override
  public long allocatedSize() {
    return packed.capacity();
  }

  @Override
  public void addMinMax(Statistics<?> stats) {
    if (seenFalse) {
      stats.updateStats(false);
    }
    if (seenTrue) {
      stats.updateStats(true);
    }
  }

  @Override
  public BytesInput pageBytes() {
    if (bits > 0) {
      packed.writeByte(current);
      current = 0;
      bits = 0;
    }
    return packed.copy();
  }

  @Override
  public Encoding pageEncoding() {
    return Encoding.PLAIN;
  }

  @Override
  public void startPage() {
    packed.reset();
    current = 0;
    bits = 0;
    seenFalse = false;
    seenTrue = false;
  }

  @Override
  public Optional<DictionaryPage> dictionaryPage() {
    return Optional.empty();
  }
}
