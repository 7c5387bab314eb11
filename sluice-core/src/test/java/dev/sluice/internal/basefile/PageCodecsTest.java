package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;

/** Base files' page codecs: Snappy and plain pages without Hadoop, byte for byte as Parquet's own codecs. */
class PageCodecsTest {
  private static final int PAGE = 1 << 20;

  /** Pages of several shapes: empty, tiny, repetitive text, random bytes, larger than Snappy's 64 KiB blocks. */
  private static byte[][] pages() {
    Random r = new Random(20261206L);
    byte[] random = new byte[300_000];
    r.nextBytes(random);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      text.append("key-").append(i % 97).append(",city-").append(i % 7).append(';');
    }
    return new byte[][] {new byte[0], {42}, text.toString().getBytes(StandardCharsets.US_ASCII), random};
  }

  @Test
  void snappyPagesAreParquetsOwnBytesBothWays() throws IOException {
    CompressionCodecFactory parquet = new CodecFactory(new PlainParquetConfiguration(), PAGE);
    PageCodecs ours = new PageCodecs(new PlainParquetConfiguration(), PAGE);
    try {
      for (byte[] page : pages()) {
        byte[] byUs = ours.getCompressor(CompressionCodecName.SNAPPY).compress(BytesInput.from(page)).toByteArray();
        byte[] byParquet = parquet.getCompressor(CompressionCodecName.SNAPPY).compress(BytesInput.from(page))
            .toByteArray();
        assertArrayEquals(byParquet, byUs, "the same raw Snappy block for a page of " + page.length + " bytes");
        // each reads the other's, and a page inside a larger array (an offset) reads the same
        byte[] padded = new byte[byParquet.length + 10];
        System.arraycopy(byParquet, 0, padded, 7, byParquet.length);
        assertArrayEquals(page, ours.getDecompressor(CompressionCodecName.SNAPPY)
            .decompress(BytesInput.from(padded, 7, byParquet.length), page.length).toByteArray());
        assertArrayEquals(page, parquet.getDecompressor(CompressionCodecName.SNAPPY)
            .decompress(BytesInput.from(byUs), page.length).toByteArray());
      }
    } finally {
      ours.release();
      parquet.release();
    }
  }

  @Test
  void buffersHeapOrDirectDecompressInPlace() throws IOException {
    PageCodecs ours = new PageCodecs(new PlainParquetConfiguration(), PAGE);
    byte[] page = pages()[2];
    byte[] compressed = ours.getCompressor(CompressionCodecName.SNAPPY).compress(BytesInput.from(page)).toByteArray();
    for (boolean direct : new boolean[] {false, true}) {
      ByteBuffer in = direct ? ByteBuffer.allocateDirect(compressed.length + 3) : ByteBuffer.allocate(compressed.length + 3);
      in.put(new byte[3]).put(compressed).flip().position(3);
      ByteBuffer out = direct ? ByteBuffer.allocateDirect(page.length + 5) : ByteBuffer.allocate(page.length + 5);
      out.position(5);
      ours.getDecompressor(CompressionCodecName.SNAPPY).decompress(in, compressed.length, out, page.length);
      assertEquals(5 + page.length, out.position(), "the output advanced by the page");
      byte[] got = new byte[page.length];
      out.position(5);
      out.get(got);
      assertArrayEquals(page, got, direct ? "direct buffers" : "heap buffers");
    }
  }

  @Test
  void uncompressedPagesPassAndOtherCodecsAreParquets() throws IOException {
    PageCodecs ours = new PageCodecs(new PlainParquetConfiguration(), PAGE);
    CompressionCodecFactory parquet = new CodecFactory(new PlainParquetConfiguration(), PAGE);
    try {
      byte[] page = pages()[2];
      assertArrayEquals(page, ours.getCompressor(CompressionCodecName.UNCOMPRESSED).compress(BytesInput.from(page))
          .toByteArray());
      assertArrayEquals(page, ours.getDecompressor(CompressionCodecName.UNCOMPRESSED)
          .decompress(BytesInput.from(page), page.length).toByteArray());
      for (CompressionCodecName codec : new CompressionCodecName[] {CompressionCodecName.GZIP,
          CompressionCodecName.ZSTD}) {
        byte[] byUs = ours.getCompressor(codec).compress(BytesInput.from(page)).toByteArray();
        assertEquals(codec, ours.getCompressor(codec).getCodecName());
        assertArrayEquals(page, parquet.getDecompressor(codec).decompress(BytesInput.from(byUs), page.length)
            .toByteArray(), codec + " pages read by Parquet's own codec");
      }
    } finally {
      ours.release();
      parquet.release();
    }
  }

  @Test
  void aSnappyPageOfAnotherSizeThanItsHeaderSaysIsRefused() throws IOException {
    PageCodecs ours = new PageCodecs(new PlainParquetConfiguration(), PAGE);
    byte[] page = pages()[2];
    byte[] compressed = ours.getCompressor(CompressionCodecName.SNAPPY).compress(BytesInput.from(page)).toByteArray();
    IOException e = assertThrows(IOException.class, () -> ours.getDecompressor(CompressionCodecName.SNAPPY)
        .decompress(BytesInput.from(compressed), page.length + 1));
    assertTrue(e.getMessage().contains("holds " + page.length + " bytes, not the " + (page.length + 1)),
        e.getMessage());
  }
}
