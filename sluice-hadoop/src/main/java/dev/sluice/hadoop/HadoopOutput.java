package dev.sluice.hadoop;

import dev.sluice.storage.PositionOutputStream;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * A Hadoop output stream seen as a {@link PositionOutputStream}. {@link #sync()} is {@code hsync} where the
 * stream supports it (HDFS); object-store streams cannot sync, their data becomes durable in {@link #close()}
 * (the upload), so there sync only flushes.
 */
final class HadoopOutput extends PositionOutputStream {
  private final FSDataOutputStream out;
  private boolean closed;

  HadoopOutput(FSDataOutputStream out) {
    this.out = out;
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  /** The position in the file: for an appended file this counts from the file's length before the append. */
  @Override
  public long position() {
    return out.getPos();
  }

  @Override
  public void sync() throws IOException {
    syncStream(out);
  }

  /** {@code hsync} if the stream can, else a plain flush. */
  static void syncStream(FSDataOutputStream out) throws IOException {
    if (out.hasCapability(StreamCapabilities.HSYNC)) {
      out.hsync();
    } else {
      out.flush();
    }
  }

  /** Syncs, then closes: the contract promises durable data once close returns. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (FSDataOutputStream o = out) {
      syncStream(o);
    }
  }
}
