package dev.sluice.internal.basefile;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * The page codecs of base files: Snappy (Sluice's default) and uncompressed pages directly, every other codec
 * through Parquet's own factory, made on first use.
 *
 * <p>Why not Parquet's factory for all: it makes each codec through Hadoop ({@code ReflectionUtils} over a Hadoop
 * {@code Configuration}, which parses {@code core-default.xml} and starts the JVM's management beans), once per
 * process. A command-line process paid that on its first page, cold: about 0.15 s of CPU before a query's or an
 * upsert's first row. Snappy pages are raw Snappy blocks (the Parquet format's SNAPPY, as Parquet's own Snappy codec
 * and Hudi write them) and snappy-java, which Parquet uses for them too, reads and writes those without Hadoop.
 *
 * <p>One factory per reader or writer, as Parquet's: {@link #release()} releases the delegate if one was made.
 */
final class PageCodecs implements CompressionCodecFactory {
  private final ParquetConfiguration conf;
  private final int pageSize;
  private CodecFactory parquet;

  /**
   * @param conf the configuration Parquet's factory gets for the other codecs
   * @param pageSize the page size Parquet's factory sizes its buffers by (0 for a reader)
   */
  PageCodecs(ParquetConfiguration conf, int pageSize) {
    this.conf = conf;
    this.pageSize = pageSize;
  }

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    switch (codec) {
      case SNAPPY:
        return SNAPPY_COMPRESSOR;
      case UNCOMPRESSED:
        return UNCOMPRESSED_COMPRESSOR;
      default:
        return parquet().getCompressor(codec);
    }
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    switch (codec) {
      case SNAPPY:
        return SNAPPY_DECOMPRESSOR;
      case UNCOMPRESSED:
        return UNCOMPRESSED_DECOMPRESSOR;
      default:
        return parquet().getDecompressor(codec);
    }
  }

  @Override
  public void release() {
    if (parquet != null) {
      parquet.release();
      parquet = null;
    }
  }

  private CodecFactory parquet() {
    if (parquet == null) {
      parquet = new CodecFactory(conf, pageSize);
    }
    return parquet;
  }

  /** A heap view of {@code bytes}: its own array where it has one, else a copy. */
  static ByteBuffer heap(BytesInput bytes) throws IOException {
    ByteBuffer b = bytes.toByteBuffer();
    if (b.hasArray()) {
      return b;
    }
    // a direct buffer: copied out of the buffer itself (reading the BytesInput again may find a stream consumed)
    byte[] copy = new byte[b.remaining()];
    b.duplicate().get(copy);
    return ByteBuffer.wrap(copy);
  }

  /** Stateless: compresses into a new array each time, so a page's bytes stay valid after the next call. */
  private static final BytesInputCompressor SNAPPY_COMPRESSOR = new BytesInputCompressor() {
    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
      ByteBuffer in = heap(bytes);
      int length = in.remaining();
      if (length == 0) {
        // Parquet's Snappy codec writes nothing for an empty page, not an empty Snappy block
        return BytesInput.empty();
      }
      byte[] out = new byte[Snappy.maxCompressedLength(length)];
      int n = Snappy.compress(in.array(), in.arrayOffset() + in.position(), length, out, 0);
      return BytesInput.from(out, 0, n);
    }

    @Override
    public CompressionCodecName getCodecName() {
      return CompressionCodecName.SNAPPY;
    }

    @Override
    public void release() {
      // holds nothing
    }
  };

  private static final BytesInputDecompressor SNAPPY_DECOMPRESSOR = new BytesInputDecompressor() {
    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      ByteBuffer in = heap(bytes);
      byte[] out = new byte[uncompressedSize];
      uncompress(in.array(), in.arrayOffset() + in.position(), in.remaining(), out, 0, uncompressedSize);
      return BytesInput.from(out);
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
        throws IOException {
      ByteBuffer in = input.slice();
      in.limit(compressedSize);
      byte[] src;
      int srcOff;
      if (in.hasArray()) {
        src = in.array();
        srcOff = in.arrayOffset();
      } else {
        src = new byte[compressedSize];
        in.get(src);
        srcOff = 0;
      }
      if (output.hasArray()) {
        uncompress(src, srcOff, compressedSize, output.array(), output.arrayOffset() + output.position(),
            uncompressedSize);
        output.position(output.position() + uncompressedSize);
      } else {
        byte[] out = new byte[uncompressedSize];
        uncompress(src, srcOff, compressedSize, out, 0, uncompressedSize);
        output.put(out);
      }
    }

    @Override
    public void release() {
      // holds nothing
    }
  };

  /** Snappy's raw block into {@code out}; a page whose content does not give the size its header says is damaged. */
  private static void uncompress(byte[] in, int off, int len, byte[] out, int outOff, int expected)
      throws IOException {
    if (len == 0 && expected == 0) {
      // an empty page, as Parquet's Snappy codec writes it: no bytes at all
      return;
    }
    // the block's own length header must agree with the page header: the output is sized by the page header
    int length = Snappy.uncompressedLength(in, off, len);
    if (length != expected) {
      throw new IOException("a Snappy page holds " + length + " bytes, not the " + expected + " its header says");
    }
    int n = Snappy.uncompress(in, off, len, out, outOff);
    if (n != expected) {
      throw new IOException("a Snappy page gave " + n + " bytes, not the " + expected + " its header says");
    }
  }

  private static final BytesInputCompressor UNCOMPRESSED_COMPRESSOR = new BytesInputCompressor() {
    @Override
    public BytesInput compress(BytesInput bytes) {
      return bytes;
    }

    @Override
    public CompressionCodecName getCodecName() {
      return CompressionCodecName.UNCOMPRESSED;
    }

    @Override
    public void release() {
      // holds nothing
    }
  };

  private static final BytesInputDecompressor UNCOMPRESSED_DECOMPRESSOR = new BytesInputDecompressor() {
    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) {
      return bytes;
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize) {
      ByteBuffer in = input.slice();
      in.limit(compressedSize);
      output.put(in);
    }

    @Override
    public void release() {
      // holds nothing
    }
  };
}
