package dev.sluice.internal.log;

import dev.sluice.storage.SeekableInput;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;

/**
 * A buffered, seekable view of a log file up to the length it had when opened (bytes appended later are not
 * seen). Seeks inside the buffer cost nothing, so skipping a small block's content and checking its trailing
 * reverse pointer usually needs no new read.
 */
final class BlockInput implements Closeable {
  private final SeekableInput in;
  private final long length;
  private final byte[] buf;
  private long bufStart;
  private int bufLen;
  private int pos;
  private long physical = -1;

  BlockInput(SeekableInput in, int bufferSize) throws IOException {
    this.in = in;
    this.length = in.length();
    this.buf = new byte[bufferSize];
  }

  /** The file's length. */
  long length() {
    return length;
  }

  /** The read position. */
  long position() {
    return bufStart + pos;
  }

  /** Bytes from the position to the end of the file. */
  long remaining() {
    return length - position();
  }

  /** Moves the read position; within the buffered window this reads nothing. */
  void seek(long target) {
    if (target >= bufStart && target <= bufStart + bufLen) {
      pos = (int) (target - bufStart);
    } else {
      bufStart = target;
      bufLen = 0;
      pos = 0;
    }
  }

  /** Refills the buffer starting at the position; false at the end of the file. */
  private boolean fill() throws IOException {
    long at = position();
    if (at >= length) {
      return false;
    }
    if (physical != at) {
      in.seek(at);
      physical = at;
    }
    int want = (int) Math.min(buf.length, length - at);
    int got = 0;
    while (got < want) {
      int n = in.read(buf, got, want - got);
      if (n < 0) {
        physical = -1;
        throw new EOFException("the file shrank below " + length + " bytes while being read");
      }
      got += n;
    }
    physical += got;
    bufStart = at;
    bufLen = got;
    pos = 0;
    return got > 0;
  }

  /** Reads exactly {@code n} bytes, or throws {@link EOFException} at the end of the file. */
  void readFully(byte[] dst, int off, int n) throws IOException {
    int done = 0;
    while (done < n) {
      if (pos == bufLen && !fill()) {
        throw new EOFException("end of file after " + done + " of " + n + " bytes");
      }
      int k = Math.min(n - done, bufLen - pos);
      System.arraycopy(buf, pos, dst, off + done, k);
      pos += k;
      done += k;
    }
  }

  int readInt() throws IOException {
    if (bufLen - pos < 4) {
      byte[] b = new byte[4];
      readFully(b, 0, 4);
      return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
    }
    int v = ((buf[pos] & 0xff) << 24) | ((buf[pos + 1] & 0xff) << 16) | ((buf[pos + 2] & 0xff) << 8) | (buf[pos + 3] & 0xff);
    pos += 4;
    return v;
  }

  long readLong() throws IOException {
    long hi = readInt() & 0xffffffffL;
    long lo = readInt() & 0xffffffffL;
    return (hi << 32) | lo;
  }

  /** True if the next bytes are the magic; reads them. */
  boolean readMagic() throws IOException {
    byte[] b = new byte[LogFormat.MAGIC.length];
    readFully(b, 0, b.length);
    return Arrays.equals(b, LogFormat.MAGIC);
  }

  /**
   * The position of the first magic at or after {@code from}, or the file length if there is none
   * ({@code HoodieLogFileReader.scanForNextAvailableBlockOffset}).
   */
  long findMagic(long from) throws IOException {
    int m = LogFormat.MAGIC.length;
    long at = from;
    while (true) {
      seek(at);
      if (pos == bufLen && !fill()) {
        return length;
      }
      if (pos != 0) {
        // start the window at the scan position so that it holds as much as possible
        bufStart = at;
        bufLen = 0;
        pos = 0;
        if (!fill()) {
          return length;
        }
      }
      int idx = indexOfMagic(buf, bufLen);
      if (idx >= 0) {
        return bufStart + idx;
      }
      long windowEnd = bufStart + bufLen;
      if (windowEnd >= length) {
        return length;
      }
      // a magic may straddle the window's end
      at = windowEnd - (m - 1);
    }
  }

  private static int indexOfMagic(byte[] b, int len) {
    byte[] m = LogFormat.MAGIC;
    outer:
    for (int i = 0; i + m.length <= len; i++) {
      for (int j = 0; j < m.length; j++) {
        if (b[i + j] != m[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
