package dev.sluice.internal.basefile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} held in memory: the Parquet file of a MoR log block is encoded here and then copied
 * into the block's content, since the block's framing needs the content length before the content.
 */
public final class MemoryOutputFile implements OutputFile {
  private final Bytes bytes = new Bytes();
  private final String name;

  /** An empty file; {@code name} is what Parquet reports as its path. */
  public MemoryOutputFile(String name) {
    this.name = name;
  }

  /** Bytes written so far. */
  public int size() {
    return bytes.size();
  }

  /** Copies the bytes written so far to {@code out}. */
  public void writeTo(OutputStream out) throws IOException {
    bytes.writeTo(out);
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) {
    return stream();
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) {
    bytes.reset();
    return stream();
  }

  private PositionOutputStream stream() {
    return new PositionOutputStream() {
      @Override
      public long getPos() {
        return bytes.size();
      }

      @Override
      public void write(int b) {
        bytes.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        bytes.write(b, off, len);
      }
    };
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }

  @Override
  public String getPath() {
    return name;
  }

  /** A byte buffer whose contents can be written out without a copy. */
  private static final class Bytes extends ByteArrayOutputStream {
    Bytes() {
      super(64 * 1024);
    }
  }
}
