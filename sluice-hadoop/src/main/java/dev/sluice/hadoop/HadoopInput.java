package dev.sluice.hadoop;

import dev.sluice.storage.SeekableInput;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** A Hadoop input stream seen as a {@link SeekableInput}; like any stream, not for use by several threads. */
final class HadoopInput extends SeekableInput {
  private final FSDataInputStream in;
  private final FileSystem fs;
  private final Path path;
  private long length = -1;

  HadoopInput(FSDataInputStream in, FileSystem fs, Path path) {
    this.in = in;
    this.fs = fs;
    this.path = path;
  }

  @Override
  public int read() throws IOException {
    return in.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return in.read(b, off, len);
  }

  @Override
  public void readFully(byte[] buf, int off, int len) throws IOException {
    in.readFully(buf, off, len);
  }

  @Override
  public long skip(long n) throws IOException {
    return in.skip(n);
  }

  @Override
  public int available() throws IOException {
    return in.available();
  }

  @Override
  public long getPos() throws IOException {
    return in.getPos();
  }

  @Override
  public void seek(long pos) throws IOException {
    in.seek(pos);
  }

  /** The length from one file status call, made on first use: readers that never ask pay no extra round trip. */
  @Override
  public long length() throws IOException {
    if (length < 0) {
      length = fs.getFileStatus(path).getLen();
    }
    return length;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
