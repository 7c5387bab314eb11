package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.bitpacking.BitPackingValuesWriter;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.api.Test;

class LevelDecoderTest {

  /** Values of at most {@code width} bits, with long runs of one value now and then (so both run kinds occur). */
  private static int[] values(List<Integer> seeds, int width) {
    int mask = width == 32 ? -1 : (1 << width) - 1;
    int[] out = new int[seeds.size() * 3];
    int n = 0;
    for (int s : seeds) {
      int repeat = (s & 7) == 0 ? 3 : 1;
      for (int r = 0; r < repeat; r++) {
        out[n++] = s & mask;
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  @Property(tries = 300, seed = "20261203")
  void decodesWhatParquetsHybridEncoderWrote(@ForAll @Size(max = 3000) List<Integer> seeds,
      @ForAll @IntRange(min = 0, max = 32) int width) throws IOException {
    int[] v = values(seeds, width);
    RunLengthBitPackingHybridEncoder enc = new RunLengthBitPackingHybridEncoder(width, 64, 1 << 20,
        new HeapByteBufferAllocator());
    for (int x : v) {
      enc.writeInt(x);
    }
    byte[] bytes = enc.toBytes().toByteArray();
    byte[] padded = new byte[bytes.length + 5];
    System.arraycopy(bytes, 0, padded, 3, bytes.length);
    LevelDecoder d = new LevelDecoder();
    d.rle(padded, 3, 3 + bytes.length, width);
    for (int i = 0; i < v.length; i++) {
      assertEquals(v[i], d.next(), "value " + i);
    }
  }

  /** Levels are at most a few bits wide; Parquet's writer of this packing goes up to 8. */
  @Property(tries = 200, seed = "20261203")
  void decodesTheOldMostSignificantBitFirstPacking(@ForAll @Size(max = 2000) List<Integer> seeds,
      @ForAll @IntRange(min = 1, max = 8) int width) throws IOException {
    int[] v = values(seeds, width);
    BitPackingValuesWriter w = new BitPackingValuesWriter((1 << width) - 1, 64, 1 << 20, new HeapByteBufferAllocator());
    for (int x : v) {
      w.writeInteger(x);
    }
    byte[] bytes = w.getBytes().toByteArray();
    LevelDecoder d = new LevelDecoder();
    d.packedMsbFirst(bytes, 0, bytes.length, width);
    for (int i = 0; i < v.length; i++) {
      assertEquals(v[i], d.next(), "value " + i);
    }
  }

  @Test
  void aRunCutShortIsAnErrorNotGarbage() throws IOException {
    RunLengthBitPackingHybridEncoder enc = new RunLengthBitPackingHybridEncoder(7, 64, 1 << 20,
        new HeapByteBufferAllocator());
    for (int i = 0; i < 100; i++) {
      enc.writeInt(i);
    }
    byte[] bytes = enc.toBytes().toByteArray();
    LevelDecoder d = new LevelDecoder();
    d.rle(bytes, 0, bytes.length / 2, 7);
    assertThrows(IllegalStateException.class, () -> {
      for (int i = 0; i < 100; i++) {
        d.next();
      }
    });
  }
}
