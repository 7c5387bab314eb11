package dev.sluice.internal.log;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable byte buffer that is reused from block to block, so that encoding a block allocates nothing once the
 * buffer has grown to the block size. Big-endian like {@code DataOutputStream}.
 */
final class ByteSink extends OutputStream {
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;
  private byte[] buf;
  private int count;

  ByteSink(int initialCapacity) {
    buf = new byte[Math.max(64, initialCapacity)];
  }

  /** Forgets the content, keeping the capacity. */
  void reset() {
    count = 0;
  }

  /** Bytes written. */
  int size() {
    return count;
  }

  /** The backing array; valid up to {@link #size()}. */
  byte[] array() {
    return buf;
  }

  private void ensure(int extra) {
    long need = (long) count + extra;
    if (need > buf.length) {
      if (need > MAX_ARRAY) {
        throw new IllegalStateException("log block larger than 2 GiB");
      }
      buf = Arrays.copyOf(buf, (int) Math.min(MAX_ARRAY, Math.max(need, 2L * buf.length)));
    }
  }

  @Override
  public void write(int b) {
    ensure(1);
    buf[count++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, count, len);
    count += len;
  }

  void writeInt(int v) {
    ensure(4);
    putInt(count, v);
    count += 4;
  }

  void writeLong(long v) {
    ensure(8);
    putLong(count, v);
    count += 8;
  }

  /** Overwrites 4 bytes at {@code pos} (a length written before the data it measures). */
  void putInt(int pos, int v) {
    buf[pos] = (byte) (v >>> 24);
    buf[pos + 1] = (byte) (v >>> 16);
    buf[pos + 2] = (byte) (v >>> 8);
    buf[pos + 3] = (byte) v;
  }

  /** Overwrites 8 bytes at {@code pos}. */
  void putLong(int pos, long v) {
    putInt(pos, (int) (v >>> 32));
    putInt(pos + 4, (int) v);
  }
}
