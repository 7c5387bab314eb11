package dev.sluice.internal.hfile;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Constants and small codecs of the HFile v3 format shared by the reader and the writer: block header layout,
 * cell keys, Hadoop's variable-length integers and unsigned byte order.
 */
final class HFileFormat {
  /** Length of a block magic. */
  static final int MAGIC_LENGTH = 8;
  /** Block header: magic, onDiskSizeWithoutHeader, uncompressedSizeWithoutHeader, prevBlockOffset, checksum type,
   *  bytesPerChecksum, onDiskDataSizeWithHeader. */
  static final int HEADER_SIZE = MAGIC_LENGTH + 4 + 4 + 8 + 1 + 4 + 4;
  /** Bytes per checksum chunk (HBase's default {@code hbase.hstore.bytes.per.checksum}). */
  static final int BYTES_PER_CHECKSUM = 16 * 1024;
  /** Bytes of one chunk's checksum. */
  static final int CHECKSUM_SIZE = 4;
  /** Checksum types in the block header ({@code ChecksumType} codes). */
  static final byte CHECKSUM_NULL = 0;
  static final byte CHECKSUM_CRC32 = 1;
  static final byte CHECKSUM_CRC32C = 2;
  /** Size of the fixed trailer of version 3. */
  static final int TRAILER_SIZE = 4096;
  static final int MAJOR_VERSION = 3;
  static final int MINOR_VERSION = 3;
  /** Key bytes of a cell besides the row: row length (2), family length (1), timestamp (8), type (1). */
  static final int KEY_FIXED = 2 + 1 + 8 + 1;
  /** Cell type Put, which every Hudi cell has. */
  static final byte TYPE_PUT = 4;
  /** Cell type Maximum: HBase's "first on row" index keys (shortened keys) carry it. */
  static final byte TYPE_MAXIMUM = (byte) 0xFF;
  /** Offset of a non-root index entry's key after its block offset and size. */
  static final int NON_ROOT_ENTRY_OVERHEAD = 8 + 4;
  /** Bytes of the mid-key metadata that ends a multi-level root index block. */
  static final int MID_KEY_METADATA_SIZE = 8 + 4 + 4;
  /** The comparator class Hudi names in its trailers; HBase's reader loads it (hudi-hadoop-common has it). */
  static final String COMPARATOR = "org.apache.hudi.io.storage.HoodieHBaseKVComparator";
  /** Magic in front of the protobuf-encoded file info. */
  static final byte[] PBUF_MAGIC = "PBUF".getBytes(StandardCharsets.US_ASCII);

  /** File info keys written by HBase's writer (and needed by its reader). */
  static final String LAST_KEY = "hfile.LASTKEY";
  static final String AVG_KEY_LEN = "hfile.AVG_KEY_LEN";
  static final String AVG_VALUE_LEN = "hfile.AVG_VALUE_LEN";
  static final String CREATE_TIME = "hfile.CREATE_TIME_TS";
  static final String MAX_TAGS_LEN = "hfile.MAX_TAGS_LEN";
  static final String KEY_VALUE_VERSION = "KEY_VALUE_VERSION";
  static final String MAX_MEMSTORE_TS = "MAX_MEMSTORE_TS_KEY";
  static final String DATA_BLOCK_ENCODING = "DATA_BLOCK_ENCODING";

  private HFileFormat() {
  }

  /** The cell key HBase stores for {@code row}: empty family and qualifier, timestamp Long.MAX_VALUE, type Put. */
  static byte[] cellKey(byte[] row) {
    return cellKey(row, TYPE_PUT);
  }

  static byte[] cellKey(byte[] row, byte type) {
    byte[] key = new byte[row.length + KEY_FIXED];
    key[0] = (byte) (row.length >>> 8);
    key[1] = (byte) row.length;
    System.arraycopy(row, 0, key, 2, row.length);
    int p = 2 + row.length;
    key[p++] = 0;
    putLong(key, p, Long.MAX_VALUE);
    key[p + 8] = type;
    return key;
  }

  /**
   * The row of an index key: {@code [int16 length][row]...}. Full cell keys and the bare {@code [length][row]}
   * keys of Hudi 1.1's writer both start this way. Returns null if the bytes cannot hold a row.
   */
  static byte[] rowOf(byte[] key) {
    if (key.length < 2) {
      return null;
    }
    int len = ((key[0] & 0xff) << 8) | (key[1] & 0xff);
    return 2 + len > key.length ? null : Arrays.copyOfRange(key, 2, 2 + len);
  }

  /** Unsigned lexicographic order of byte strings (HBase's {@code Bytes.compareTo}). */
  static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /** Unsigned order of {@code a} against {@code b[off, off + len)}. */
  static int compare(byte[] a, byte[] b, int off, int len) {
    return Arrays.compareUnsigned(a, 0, a.length, b, off, off + len);
  }

  static int getInt(byte[] b, int p) {
    return ((b[p] & 0xff) << 24) | ((b[p + 1] & 0xff) << 16) | ((b[p + 2] & 0xff) << 8) | (b[p + 3] & 0xff);
  }

  static long getLong(byte[] b, int p) {
    return ((long) getInt(b, p) << 32) | (getInt(b, p + 4) & 0xffffffffL);
  }

  static int getShort(byte[] b, int p) {
    return ((b[p] & 0xff) << 8) | (b[p + 1] & 0xff);
  }

  static void putInt(byte[] b, int p, int v) {
    b[p] = (byte) (v >>> 24);
    b[p + 1] = (byte) (v >>> 16);
    b[p + 2] = (byte) (v >>> 8);
    b[p + 3] = (byte) v;
  }

  static void putLong(byte[] b, int p, long v) {
    putInt(b, p, (int) (v >>> 32));
    putInt(b, p + 4, (int) v);
  }

  static byte[] intBytes(int v) {
    byte[] b = new byte[4];
    putInt(b, 0, v);
    return b;
  }

  static byte[] longBytes(long v) {
    byte[] b = new byte[8];
    putLong(b, 0, v);
    return b;
  }

  /** Bytes Hadoop's {@code WritableUtils.writeVLong} uses for {@code v}. */
  static int vlongSize(long v) {
    if (v >= -112 && v <= 127) {
      return 1;
    }
    long u = v < 0 ? ~v : v;
    int bytes = (Long.SIZE - Long.numberOfLeadingZeros(u) + 7) / 8;
    return 1 + bytes;
  }

  /**
   * Hadoop's variable-length long ({@code WritableUtils.writeVLong}): -112..127 in one byte, else a length byte
   * (-113..-120 positive, -121..-128 negative, stored as the complement) and the big-endian value bytes. Index key
   * lengths use it; it is not the protobuf varint (they agree only below 128).
   */
  static void writeVLong(ByteArrayOutputStream out, long v) {
    if (v >= -112 && v <= 127) {
      out.write((int) v);
      return;
    }
    int len = -112;
    long u = v;
    if (u < 0) {
      u = ~u;
      len = -120;
    }
    for (long tmp = u; tmp != 0; tmp >>= 8) {
      len--;
    }
    out.write(len);
    int bytes = len < -120 ? -(len + 120) : -(len + 112);
    for (int i = bytes; i > 0; i--) {
      out.write((int) (u >>> ((i - 1) * 8)));
    }
  }

  /** A decoded Hadoop variable-length long and the bytes it took. */
  record VLong(long value, int size) {
  }

  /** Reads a Hadoop variable-length long at {@code p}; throws IndexOutOfBoundsException if it runs past the end. */
  static VLong readVLong(byte[] b, int p, int end) {
    if (p >= end) {
      throw new IndexOutOfBoundsException("variable-length integer at " + p + " runs past " + end);
    }
    byte first = b[p];
    if (first >= -112) {
      return new VLong(first, 1);
    }
    boolean negative = first < -120;
    int bytes = negative ? -120 - first : -112 - first;
    if (p + 1 + bytes > end) {
      throw new IndexOutOfBoundsException("variable-length integer at " + p + " runs past " + end);
    }
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v = (v << 8) | (b[p + 1 + i] & 0xff);
    }
    return new VLong(negative ? ~v : v, 1 + bytes);
  }
}
