package dev.sluice.internal.hfile;

import java.io.ByteArrayOutputStream;

/**
 * The few protobuf wire-format pieces the HFile trailer and file info use (varint and length-delimited fields),
 * written by hand so that Sluice needs no protobuf library. Unknown fields are skipped on reading, as protobuf
 * does.
 */
final class Proto {
  static final int VARINT = 0;
  static final int FIXED64 = 1;
  static final int LENGTH_DELIMITED = 2;
  static final int FIXED32 = 5;

  private Proto() {
  }

  /** Appends a protobuf varint (negative values as their 64-bit two's complement: 10 bytes). */
  static void writeVarint(ByteArrayOutputStream out, long v) {
    long u = v;
    while ((u & ~0x7FL) != 0) {
      out.write((int) ((u & 0x7F) | 0x80));
      u >>>= 7;
    }
    out.write((int) u);
  }

  static void writeVarintField(ByteArrayOutputStream out, int field, long v) {
    writeVarint(out, ((long) field << 3) | VARINT);
    writeVarint(out, v);
  }

  static void writeBytesField(ByteArrayOutputStream out, int field, byte[] v) {
    writeVarint(out, ((long) field << 3) | LENGTH_DELIMITED);
    writeVarint(out, v.length);
    out.write(v, 0, v.length);
  }

  /** Reads protobuf fields one at a time from {@code buf[pos, end)}; malformed input throws {@link Malformed}. */
  static final class Reader {
    private final byte[] buf;
    private final int end;
    private int pos;
    private int field;
    private int wireType;
    private long varint;
    private int valueOffset;
    private int valueLength;

    Reader(byte[] buf, int pos, int end) {
      this.buf = buf;
      this.pos = pos;
      this.end = end;
    }

    /** Moves to the next field; false at the end. */
    boolean next() {
      if (pos >= end) {
        return false;
      }
      long tag = readVarint();
      field = (int) (tag >>> 3);
      wireType = (int) (tag & 7);
      switch (wireType) {
        case VARINT -> varint = readVarint();
        case FIXED64 -> skip(8);
        case FIXED32 -> skip(4);
        case LENGTH_DELIMITED -> {
          long len = readVarint();
          if (len < 0 || len > end - pos) {
            throw new Malformed("a field of " + len + " bytes runs past the end of the message");
          }
          valueOffset = pos;
          valueLength = (int) len;
          pos += (int) len;
        }
        default -> throw new Malformed("unknown wire type " + wireType + " of field " + field);
      }
      return true;
    }

    int field() {
      return field;
    }

    int wireType() {
      return wireType;
    }

    long varint() {
      return varint;
    }

    int valueOffset() {
      return valueOffset;
    }

    int valueLength() {
      return valueLength;
    }

    byte[] bytes() {
      byte[] out = new byte[valueLength];
      System.arraycopy(buf, valueOffset, out, 0, valueLength);
      return out;
    }

    private void skip(int n) {
      if (n > end - pos) {
        throw new Malformed("a fixed field runs past the end of the message");
      }
      pos += n;
    }

    /** Reads a varint at the current position. */
    long readVarint() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= end) {
          throw new Malformed("a varint runs past the end of the message");
        }
        byte b = buf[pos++];
        v |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          return v;
        }
      }
      throw new Malformed("a varint is longer than 10 bytes");
    }

    int position() {
      return pos;
    }
  }

  /** Bytes that are not the protobuf message they should be. */
  static final class Malformed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message);
    }
  }
}
