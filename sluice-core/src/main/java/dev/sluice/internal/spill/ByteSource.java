package dev.sluice.internal.spill;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * A {@link DataInput} (big-endian) over a region of a byte array, repositionable so one instance serves every
 * read of a spill file. Serializers in this package recognise it and decode from {@link #array()} in place.
 */
final class ByteSource implements DataInput {
  private byte[] buf = new byte[0];
  private int pos;
  private int limit;

  /** Reads {@code [off, off + len)} of {@code bytes} from now on. */
  ByteSource reset(byte[] bytes, int off, int len) {
    buf = bytes;
    pos = off;
    limit = off + len;
    return this;
  }

  byte[] array() {
    return buf;
  }

  int position() {
    return pos;
  }

  int remaining() {
    return limit - pos;
  }

  /** Consumes {@code n} bytes that a caller decoded directly from {@link #array()}. */
  void advance(int n) throws EOFException {
    need(n);
    pos += n;
  }

  /** Reads an unsigned LEB128 varint as written by {@link ByteSink#writeVarInt}. */
  int readVarInt() throws IOException {
    int result = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int b = readUnsignedByte();
      result |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new IOException("Malformed varint in spill record");
  }

  private void need(int n) throws EOFException {
    if (n < 0 || limit - pos < n) {
      throw new EOFException("Spill record truncated: needed " + n + " bytes, " + (limit - pos) + " left");
    }
  }

  @Override
  public void readFully(byte[] b) throws IOException {
    readFully(b, 0, b.length);
  }

  @Override
  public void readFully(byte[] b, int off, int len) throws IOException {
    need(len);
    System.arraycopy(buf, pos, b, off, len);
    pos += len;
  }

  @Override
  public int skipBytes(int n) {
    int k = Math.max(0, Math.min(n, limit - pos));
    pos += k;
    return k;
  }

  @Override
  public boolean readBoolean() throws IOException {
    return readByte() != 0;
  }

  @Override
  public byte readByte() throws IOException {
    need(1);
    return buf[pos++];
  }

  @Override
  public int readUnsignedByte() throws IOException {
    return readByte() & 0xFF;
  }

  @Override
  public short readShort() throws IOException {
    need(2);
    short v = (short) (((buf[pos] & 0xFF) << 8) | (buf[pos + 1] & 0xFF));
    pos += 2;
    return v;
  }

  @Override
  public int readUnsignedShort() throws IOException {
    return readShort() & 0xFFFF;
  }

  @Override
  public char readChar() throws IOException {
    return (char) readShort();
  }

  @Override
  public int readInt() throws IOException {
    need(4);
    int v = ((buf[pos] & 0xFF) << 24) | ((buf[pos + 1] & 0xFF) << 16) | ((buf[pos + 2] & 0xFF) << 8) | (buf[pos + 3] & 0xFF);
    pos += 4;
    return v;
  }

  @Override
  public long readLong() throws IOException {
    need(8);
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (buf[pos + i] & 0xFF);
    }
    pos += 8;
    return v;
  }

  @Override
  public float readFloat() throws IOException {
    return Float.intBitsToFloat(readInt());
  }

  @Override
  public double readDouble() throws IOException {
    return Double.longBitsToDouble(readLong());
  }

  /** Reads up to a line terminator, as {@link DataInput#readLine} specifies (bytes as Latin-1 chars). */
  @Override
  public String readLine() {
    if (pos >= limit) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    while (pos < limit) {
      int c = buf[pos++] & 0xFF;
      if (c == '\n') {
        break;
      }
      if (c == '\r') {
        if (pos < limit && buf[pos] == '\n') {
          pos++;
        }
        break;
      }
      sb.append((char) c);
    }
    return sb.toString();
  }

  @Override
  public String readUTF() throws IOException {
    return DataInputStream.readUTF(this);
  }
}
