package dev.sluice.internal.basefile.encode;

import dev.sluice.internal.error.Errors;
import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;

/**
 * The dictionary ids of one page as a dictionary-encoded v1 data page holds them: one byte of bit width (that of
 * the dictionary's largest id; 32 for an empty dictionary, as Parquet's writer gives), then the ids RLE/bit-packed.
 */
final class DictionaryIds {
  private static final int INITIAL_SLAB = 64;
  private int[] ids = new int[1024];
  private int count;

  void add(int id) {
    if (count == ids.length) {
      ids = Arrays.copyOf(ids, count * 2);
    }
    ids[count++] = id;
  }

  int count() {
    return count;
  }

  int get(int i) {
    return ids[i];
  }

  void reset() {
    count = 0;
  }

  long allocatedSize() {
    return 4L * ids.length;
  }

  /** The encoded page values for a dictionary of {@code dictionarySize} entries. */
  BytesInput encode(int dictionarySize, int maxDictionaryBytes) {
    int bitWidth = 32 - Integer.numberOfLeadingZeros(dictionarySize - 1);
    RunLengthBitPackingHybridEncoder rle = new RunLengthBitPackingHybridEncoder(bitWidth, INITIAL_SLAB,
        Math.max(INITIAL_SLAB, maxDictionaryBytes), new HeapByteBufferAllocator());
    try {
      for (int i = 0; i < count; i++) {
        rle.writeInt(ids[i]);
      }
      // copied out: the encoder's buffers go with it
      byte[] runs = rle.toBytes().toByteArray();
      return BytesInput.concat(BytesInput.from(new byte[] {(byte) bitWidth}), BytesInput.from(runs));
    } catch (IOException e) {
      throw Errors.internal("encoding dictionary ids failed", e);
    } finally {
      rle.close();
    }
  }
}
