package dev.sluice.storage;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/** An input stream that can seek; the storage-neutral counterpart of Hadoop's FSDataInputStream. */
public abstract class SeekableInput extends InputStream {
  /** The current read position. */
  public abstract long getPos() throws IOException;

  /** Moves the read position to {@code pos}. */
  public abstract void seek(long pos) throws IOException;

  /** The file's length in bytes. */
  public abstract long length() throws IOException;

  /** Reads exactly {@code len} bytes into {@code buf}, or throws {@link EOFException}. */
  public void readFully(byte[] buf, int off, int len) throws IOException {
    int done = 0;
    while (done < len) {
      int n = read(buf, off + done, len - done);
      if (n < 0) {
        throw new EOFException("Reached end of file after " + done + " of " + len + " bytes");
      }
      done += n;
    }
  }
}
