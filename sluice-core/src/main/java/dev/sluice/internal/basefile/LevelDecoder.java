package dev.sluice.internal.basefile;

/**
 * Decodes a run of small unsigned ints from a page's bytes: Parquet's RLE/bit-packing hybrid (levels, dictionary
 * ids, v2 booleans) or the deprecated most-significant-bit-first bit packing of old v1 levels. Reused page after
 * page; {@link #next} throws when asked for more values than the bytes hold.
 */
final class LevelDecoder {
  private byte[] buf;
  private int pos;
  private int end;
  private int width;
  private boolean msbFirst;
  /** Values left in the current run. */
  private int left;
  private boolean repeated;
  private int value;
  /** Bit offset of the next packed value, from {@link #packedStart}. */
  private long bit;
  private int packedStart;
  private int mask;

  /** Starts decoding hybrid-encoded values of {@code width} bits in {@code bytes[from, to)}. */
  void rle(byte[] bytes, int from, int to, int bitWidth) {
    start(bytes, from, to, bitWidth);
    msbFirst = false;
  }

  /** Starts decoding the old MSB-first bit packing of {@code width}-bit values in {@code bytes[from, to)}. */
  void packedMsbFirst(byte[] bytes, int from, int to, int bitWidth) {
    start(bytes, from, to, bitWidth);
    msbFirst = true;
    repeated = false;
    left = Integer.MAX_VALUE;
    packedStart = from;
  }

  private void start(byte[] bytes, int from, int to, int bitWidth) {
    if (from > to || to > bytes.length || bitWidth < 0 || bitWidth > 32) {
      throw new IllegalStateException("a level or id run lies outside its page");
    }
    buf = bytes;
    pos = from;
    end = to;
    width = bitWidth;
    mask = bitWidth == 32 ? -1 : (1 << bitWidth) - 1;
    left = 0;
    bit = 0;
  }

  /** The next value. */
  int next() {
    if (left == 0) {
      header();
    }
    left--;
    if (repeated) {
      return value;
    }
    return packed();
  }

  private void header() {
    int h = 0;
    int shift = 0;
    while (true) {
      if (pos >= end) {
        throw new IllegalStateException("a level or id run ends before its values do");
      }
      int b = buf[pos++];
      h |= (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
      shift += 7;
      if (shift > 28) {
        throw new IllegalStateException("a level or id run has a malformed header");
      }
    }
    if ((h & 1) == 0) {
      repeated = true;
      left = h >>> 1;
      int bytes = (width + 7) >>> 3;
      if (pos + bytes > end) {
        throw new IllegalStateException("a level or id run ends inside its repeated value");
      }
      int v = 0;
      for (int i = 0; i < bytes; i++) {
        v |= (buf[pos++] & 0xff) << (8 * i);
      }
      value = v;
    } else {
      repeated = false;
      int groups = h >>> 1;
      left = groups * 8;
      packedStart = pos;
      bit = 0;
      // the last run may be cut short of its padding: reads past the end are caught in packed
      pos = (int) Math.min(end, pos + (long) groups * width);
    }
    if (left == 0) {
      header();
    }
  }

  /** The next bit-packed value: least significant bit first (hybrid runs) or most significant first (old levels). */
  private int packed() {
    if (width == 0) {
      return 0;
    }
    int first = packedStart + (int) (bit >>> 3);
    int shift = (int) (bit & 7);
    int bytes = (shift + width + 7) >>> 3;
    if (first + bytes > end) {
      throw new IllegalStateException("a bit-packed run ends before its values do");
    }
    long acc = 0;
    for (int i = 0; i < bytes; i++) {
      int v = buf[first + i] & 0xff;
      acc = msbFirst ? acc << 8 | v : acc | (long) v << (8 * i);
    }
    bit += width;
    return (int) (msbFirst ? acc >>> (bytes * 8 - shift - width) : acc >>> shift) & mask;
  }
}
