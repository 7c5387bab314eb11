package dev.sluice.internal.hfile;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The fixed 4096-byte trailer of an HFile v3 ({@code FixedFileTrailer}): magic {@code TRABLK"$}, a
 * length-delimited {@code TrailerProto}, zero padding, and the version in the last four bytes (minor version in
 * the first of them, major version in the other three).
 *
 * @param fileInfoOffset offset of the file info block
 * @param loadOnOpenOffset offset of the data root index, the first block of the load-on-open section
 * @param uncompressedDataIndexSize uncompressed bytes of all data index blocks
 * @param totalUncompressedBytes uncompressed bytes of all blocks, headers included
 * @param dataIndexCount entries of the data root index
 * @param metaIndexCount entries of the meta index (the meta blocks)
 * @param entryCount cells in the file
 * @param dataIndexLevels levels of the data index (1: the root points at data blocks)
 * @param firstDataBlockOffset offset of the first data block, -1 without one
 * @param lastDataBlockOffset offset of the start of the last data block, -1 without one
 * @param comparator the cell comparator's class name
 * @param codec the compression codec id ({@link HFileCompression#id()})
 * @param majorVersion format major version (3)
 * @param minorVersion format minor version
 */
record Trailer(long fileInfoOffset, long loadOnOpenOffset, long uncompressedDataIndexSize, long totalUncompressedBytes,
    int dataIndexCount, int metaIndexCount, long entryCount, int dataIndexLevels, long firstDataBlockOffset,
    long lastDataBlockOffset, String comparator, int codec, int majorVersion, int minorVersion) {

  /** The 4096 trailer bytes. */
  byte[] encode() {
    ByteArrayOutputStream proto = new ByteArrayOutputStream();
    Proto.writeVarintField(proto, 1, fileInfoOffset);
    Proto.writeVarintField(proto, 2, loadOnOpenOffset);
    Proto.writeVarintField(proto, 3, uncompressedDataIndexSize);
    Proto.writeVarintField(proto, 4, totalUncompressedBytes);
    Proto.writeVarintField(proto, 5, dataIndexCount);
    Proto.writeVarintField(proto, 6, metaIndexCount);
    Proto.writeVarintField(proto, 7, entryCount);
    Proto.writeVarintField(proto, 8, dataIndexLevels);
    Proto.writeVarintField(proto, 9, firstDataBlockOffset);
    Proto.writeVarintField(proto, 10, lastDataBlockOffset);
    Proto.writeBytesField(proto, 11, comparator.getBytes(StandardCharsets.UTF_8));
    Proto.writeVarintField(proto, 12, codec);
    // no field 13 (encryption_key): HBase's reader would try to decrypt
    ByteArrayOutputStream out = new ByteArrayOutputStream(HFileFormat.TRAILER_SIZE);
    out.writeBytes(BlockType.TRAILER.magic());
    Proto.writeVarint(out, proto.size());
    out.writeBytes(proto.toByteArray());
    byte[] bytes = new byte[HFileFormat.TRAILER_SIZE];
    if (out.size() > bytes.length - 4) {
      throw new IllegalStateException("trailer of " + out.size() + " bytes does not fit in " + bytes.length);
    }
    System.arraycopy(out.toByteArray(), 0, bytes, 0, out.size());
    HFileFormat.putInt(bytes, bytes.length - 4, (minorVersion << 24) | (majorVersion & 0x00ffffff));
    return bytes;
  }

  /** Parses the last 4096 bytes of a file; throws {@link Proto.Malformed} when they are not a v3 trailer. */
  static Trailer parse(byte[] bytes) {
    if (bytes.length != HFileFormat.TRAILER_SIZE || !BlockType.TRAILER.matches(bytes, 0)) {
      throw new Proto.Malformed("the last " + HFileFormat.TRAILER_SIZE + " bytes do not start with the trailer magic TRABLK\"$");
    }
    int version = HFileFormat.getInt(bytes, bytes.length - 4);
    int major = version & 0x00ffffff;
    int minor = version >>> 24;
    if (major != HFileFormat.MAJOR_VERSION) {
      throw new Proto.Malformed("HFile major version " + major + "; only version 3 is read");
    }
    Proto.Reader head = new Proto.Reader(bytes, HFileFormat.MAGIC_LENGTH, bytes.length - 4);
    long len = head.readVarint();
    int start = head.position();
    if (len < 0 || len > bytes.length - 4 - start) {
      throw new Proto.Malformed("trailer message length " + len + " exceeds the trailer");
    }
    long[] v = new long[13];
    v[8] = -1;
    v[9] = -1;
    String comparator = "";
    Proto.Reader r = new Proto.Reader(bytes, start, start + (int) len);
    while (r.next()) {
      int f = r.field();
      if (f == 11 && r.wireType() == Proto.LENGTH_DELIMITED) {
        comparator = new String(bytes, r.valueOffset(), r.valueLength(), StandardCharsets.UTF_8);
      } else if (f == 13) {
        throw new Proto.Malformed("the file is encrypted (trailer field encryption_key); encrypted HFiles are not read");
      } else if (f >= 1 && f <= 12 && r.wireType() == Proto.VARINT) {
        v[f - 1] = r.varint();
      }
    }
    return new Trailer(v[0], v[1], v[2], v[3], (int) v[4], (int) v[5], v[6], (int) v[7], v[8], v[9], comparator,
        (int) v[11], major, minor);
  }
}
