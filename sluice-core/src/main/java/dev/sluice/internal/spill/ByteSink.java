package dev.sluice.internal.spill;

import java.io.DataOutput;
import java.io.OutputStream;
import java.io.UTFDataFormatException;
import java.util.Arrays;

/**
 * A growable, reusable byte buffer that is both an {@link OutputStream} and a {@link DataOutput} (big-endian,
 * like {@link java.io.DataOutputStream}), without the locking of {@link java.io.ByteArrayOutputStream}. The spill
 * code serializes every value into one of these and then copies the bytes to the spill file; serializers in
 * this package recognise it and write straight into it.
 */
final class ByteSink extends OutputStream implements DataOutput {
  private byte[] buf;
  private int size;

  ByteSink(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  /** Forgets the content, keeping the buffer. */
  void reset() {
    size = 0;
  }

  int size() {
    return size;
  }

  /** The backing array; bytes {@code [0, size())} are the content. Valid until the next write. */
  byte[] array() {
    return buf;
  }

  /** Makes room for {@code extra} more bytes. */
  void ensure(int extra) {
    int need = size + extra;
    if (need < 0) {
      throw new OutOfMemoryError("Serialized value larger than 2 GiB");
    }
    if (need > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(need, (int) Math.min(Integer.MAX_VALUE - 8, buf.length * 2L)));
    }
  }

  /** Advances the size by {@code n} bytes written directly into {@link #array()} after {@link #ensure}. */
  void skip(int n) {
    size += n;
  }

  /** Overwrites four bytes at {@code pos} (a length reserved earlier) with {@code v}, big-endian. */
  void putIntAt(int pos, int v) {
    buf[pos] = (byte) (v >>> 24);
    buf[pos + 1] = (byte) (v >>> 16);
    buf[pos + 2] = (byte) (v >>> 8);
    buf[pos + 3] = (byte) v;
  }

  /** Appends an unsigned LEB128 varint. */
  void writeVarInt(int v) {
    ensure(5);
    while ((v & ~0x7F) != 0) {
      buf[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[size++] = (byte) v;
  }

  @Override
  public void write(int b) {
    ensure(1);
    buf[size++] = (byte) b;
  }

  @Override
  public void write(byte[] b) {
    write(b, 0, b.length);
  }

  @Override
  public void write(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, size, len);
    size += len;
  }

  @Override
  public void writeBoolean(boolean v) {
    write(v ? 1 : 0);
  }

  @Override
  public void writeByte(int v) {
    write(v);
  }

  @Override
  public void writeShort(int v) {
    ensure(2);
    buf[size++] = (byte) (v >>> 8);
    buf[size++] = (byte) v;
  }

  @Override
  public void writeChar(int v) {
    writeShort(v);
  }

  @Override
  public void writeInt(int v) {
    ensure(4);
    putIntAt(size, v);
    size += 4;
  }

  @Override
  public void writeLong(long v) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      buf[size++] = (byte) (v >>> shift);
    }
  }

  @Override
  public void writeFloat(float v) {
    writeInt(Float.floatToIntBits(v));
  }

  @Override
  public void writeDouble(double v) {
    writeLong(Double.doubleToLongBits(v));
  }

  @Override
  public void writeBytes(String s) {
    int n = s.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      buf[size++] = (byte) s.charAt(i);
    }
  }

  @Override
  public void writeChars(String s) {
    int n = s.length();
    ensure(2 * n);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      buf[size++] = (byte) (c >>> 8);
      buf[size++] = (byte) c;
    }
  }

  /** Modified UTF-8 with a two-byte length, exactly as {@link java.io.DataOutputStream#writeUTF}. */
  @Override
  public void writeUTF(String s) throws UTFDataFormatException {
    int n = s.length();
    int bytes = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      bytes += c >= 0x0001 && c <= 0x007F ? 1 : c > 0x07FF ? 3 : 2;
    }
    if (bytes > 0xFFFF) {
      throw new UTFDataFormatException("String too long for writeUTF: " + bytes + " bytes");
    }
    writeShort(bytes);
    ensure(bytes);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x0001 && c <= 0x007F) {
        buf[size++] = (byte) c;
      } else if (c > 0x07FF) {
        buf[size++] = (byte) (0xE0 | ((c >> 12) & 0x0F));
        buf[size++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        buf[size++] = (byte) (0x80 | (c & 0x3F));
      } else {
        buf[size++] = (byte) (0xC0 | ((c >> 6) & 0x1F));
        buf[size++] = (byte) (0x80 | (c & 0x3F));
      }
    }
  }
}
