package dev.sluice.internal.basefile.encode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;

/** A growable little-endian byte buffer: one page's plain values, or a dictionary's entries. */
final class PageBuffer {
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] bytes;
  private int size;

  PageBuffer(int initialCapacity) {
    this.bytes = new byte[Math.max(64, initialCapacity)];
  }

  /** The backing array; valid up to {@link #size()}, and replaced when the buffer grows. */
  byte[] array() {
    return bytes;
  }

  int size() {
    return size;
  }

  int capacity() {
    return bytes.length;
  }

  void reset() {
    size = 0;
  }

  private void ensure(int more) {
    if (more > bytes.length - size) {
      long want = Math.max((long) bytes.length * 2, (long) size + more);
      bytes = Arrays.copyOf(bytes, (int) Math.min(want, Integer.MAX_VALUE - 16));
    }
  }

  void writeByte(int b) {
    ensure(1);
    bytes[size++] = (byte) b;
  }

  void writeInt(int v) {
    ensure(4);
    INT.set(bytes, size, v);
    size += 4;
  }

  void writeLong(long v) {
    ensure(8);
    LONG.set(bytes, size, v);
    size += 8;
  }

  void write(byte[] src, int offset, int length) {
    ensure(length);
    System.arraycopy(src, offset, bytes, size, length);
    size += length;
  }

  static long readLong(byte[] a, int offset) {
    return (long) LONG.get(a, offset);
  }

  /** A copy of the bytes: the page writer may hold on to what it is given, and this buffer is reused. */
  BytesInput copy() {
    return BytesInput.from(Arrays.copyOf(bytes, size));
  }
}
