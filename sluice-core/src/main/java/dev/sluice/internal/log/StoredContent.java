package dev.sluice.internal.log;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.SluiceException;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Where a block's content lies on storage, so that it is read only when asked for (Hudi's lazy block reading).
 * Each {@link #open()} opens its own stream, so contents can be read after the log reader has moved on or closed.
 *
 * @param storage storage holding the file
 * @param path the log file
 * @param blockOffset position of the block's magic (for messages)
 * @param offset position of the content's first byte
 * @param length content bytes
 */
record StoredContent(Storage storage, String path, long blockOffset, long offset, long length) {
  private static final int BUFFER = 256 * 1024;

  /** A buffered stream over exactly the content bytes. */
  InputStream open() throws IOException {
    SeekableInput in = storage.openRead(path);
    try {
      in.seek(offset);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
    return new Range(in, length);
  }

  /** Converts a failure while reading the content into the user-facing error. */
  SluiceException failure(IOException e) {
    if (e instanceof EOFException || e instanceof DamagedContentException) {
      return Errors.badTable(path, "the log block at offset " + blockOffset + " has damaged content (" + e.getMessage() + ")",
          LogFormat.DAMAGED_FIX, e);
    }
    return Errors.storage("read the log block at offset " + blockOffset + " of", path, e);
  }

  /** A damaged-content error for a decoding failure that is not an IOException (Avro's runtime exceptions). */
  SluiceException damaged(RuntimeException e) {
    return failure(new DamagedContentException(String.valueOf(e.getMessage()), e));
  }

  /** Reads at most {@code limit} bytes from a seekable input, through a buffer; EOF before the limit is an error. */
  private static final class Range extends InputStream {
    private final SeekableInput in;
    private final byte[] buf;
    private long left;
    private int pos;
    private int len;

    Range(SeekableInput in, long limit) {
      this.in = in;
      this.left = limit;
      this.buf = new byte[(int) Math.max(16, Math.min(BUFFER, limit))];
    }

    private boolean fill() throws IOException {
      if (left == 0) {
        return false;
      }
      int want = (int) Math.min(buf.length, left);
      int n = in.read(buf, 0, want);
      if (n < 0) {
        throw new EOFException(left + " bytes of the block content are missing");
      }
      left -= n;
      pos = 0;
      len = n;
      return true;
    }

    @Override
    public int read() throws IOException {
      if (pos == len && !fill()) {
        return -1;
      }
      return buf[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int n) throws IOException {
      if (n == 0) {
        return 0;
      }
      if (pos == len && !fill()) {
        return -1;
      }
      int k = Math.min(n, len - pos);
      System.arraycopy(buf, pos, b, off, k);
      pos += k;
      return k;
    }

    @Override
    public int available() {
      return len - pos;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  /** Reads exactly {@code n} bytes into {@code b}. */
  static void readFully(InputStream in, byte[] b, int n) throws IOException {
    int done = 0;
    while (done < n) {
      int k = in.read(b, done, n - done);
      if (k < 0) {
        throw new EOFException("content ends " + (n - done) + " bytes early");
      }
      done += k;
    }
  }

  /** Reads a big-endian int. */
  static int readInt(InputStream in, byte[] scratch) throws IOException {
    readFully(in, scratch, 4);
    return ((scratch[0] & 0xff) << 24) | ((scratch[1] & 0xff) << 16) | ((scratch[2] & 0xff) << 8) | (scratch[3] & 0xff);
  }
}
