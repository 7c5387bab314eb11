package dev.sluice.internal.basefile.encode;

import dev.sluice.internal.error.Errors;
import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;

/**
 * The repetition or definition levels of one page, as a v1 data page holds them: RLE/bit-packed hybrid behind a
 * 4-byte length, or nothing at all (reported as {@code BIT_PACKED}, as Parquet's writer does) when the maximum level
 * is 0. The run encoding itself is Parquet's.
 */
final class LevelEncoder {
  private static final int INITIAL_SLAB = 64;
  private final RunLengthBitPackingHybridEncoder rle;

  LevelEncoder(int maxLevel, ParquetProperties props) {
    this.rle = maxLevel == 0 ? null : new RunLengthBitPackingHybridEncoder(32 - Integer.numberOfLeadingZeros(maxLevel),
        INITIAL_SLAB, props.getPageSizeThreshold(), props.getAllocator());
  }

  void write(int level) {
    if (rle == null) {
      return;
    }
    try {
      rle.writeInt(level);
    } catch (IOException e) {
      throw Errors.internal("encoding a level failed", e);
    }
  }

  long bufferedSize() {
    return rle == null ? 0 : rle.getBufferedSize();
  }

  long allocatedSize() {
    return rle == null ? 0 : rle.getAllocatedSize();
  }

  /** The page's levels; valid until {@link #reset()}. */
  BytesInput pageBytes() {
    if (rle == null) {
      return BytesInput.empty();
    }
    try {
      BytesInput runs = rle.toBytes();
      return BytesInput.concat(BytesInput.fromInt(Math.toIntExact(runs.size())), runs);
    } catch (IOException e) {
      throw Errors.internal("encoding levels failed", e);
    }
  }

  Encoding encoding() {
    return rle == null ? Encoding.BIT_PACKED : Encoding.RLE;
  }

  void reset() {
    if (rle != null) {
      rle.reset();
    }
  }

  void close() {
    if (rle != null) {
      rle.close();
    }
  }
}
