package dev.sluice.internal.hfile;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.SluiceException;
import dev.sluice.storage.SeekableInput;
import java.io.EOFException;
import java.io.IOException;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import java.util.zip.ZipException;

/**
 * Reads HFile blocks from an open input: header, checksum verification (CRC32 or CRC32C per chunk; type NULL is
 * not verified), decompression. The HFile may be embedded in a larger file (a log block's content): offsets are
 * relative to {@code base}, messages name the absolute offset. Damaged bytes are {@code BAD_TABLE} errors naming
 * the file and offset.
 */
final class BlockReader {
  private static final String FIX = "Restore the file from a backup; in a log file, 'sluice repair TABLE --apply' drops the "
      + "damaged block.";

  /** A block's type, where it lies, and its uncompressed payload. */
  record Block(BlockType type, long offset, int onDiskSizeWithHeader, byte[] payload) {
  }

  private final SeekableInput in;
  private final String path;
  private final long base;
  private final long length;
  private HFileCompression compression = HFileCompression.NONE;
  /** The last block read: lookups in key order (Hudi's pattern) hit the same data block again and again. */
  private Block last;
  /**
   * The last index block read, kept apart: with a multi-level block index every seek reads a leaf index block
   * before its data block, and one slot for both would decompress the data block again on every key.
   */
  private Block lastIndex;

  BlockReader(SeekableInput in, String path, long base, long length) {
    this.in = in;
    this.path = path;
    this.base = base;
    this.length = length;
  }

  void compression(HFileCompression c) {
    this.compression = c;
  }

  long length() {
    return length;
  }

  /** A BAD_TABLE error for damaged bytes at {@code offset} of the HFile. */
  SluiceException damaged(long offset, String problem) {
    return damaged(offset, problem, null);
  }

  SluiceException damaged(long offset, String problem, Throwable cause) {
    String where = base == 0 ? "offset " + offset : "offset " + (base + offset) + " (HFile offset " + offset + ")";
    return Errors.badTable(path, "damaged HFile at " + where + ": " + problem, FIX, cause);
  }

  /** Reads {@code len} bytes at {@code offset} of the HFile. */
  synchronized byte[] readRange(long offset, int len) {
    if (offset < 0 || len < 0 || offset + len > length) {
      throw damaged(offset, len + " bytes are needed but the HFile has " + length);
    }
    byte[] buf = new byte[len];
    try {
      in.seek(base + offset);
      in.readFully(buf, 0, len);
    } catch (EOFException e) {
      throw damaged(offset, "the file ends early (" + e.getMessage() + ")", e);
    } catch (IOException e) {
      throw Errors.storage("read the HFile block at offset " + (base + offset) + " of", path, e);
    }
    return buf;
  }

  /** Reads, verifies and decompresses the block at {@code offset} (the last one read, and the last index block, kept). */
  synchronized Block read(long offset) {
    if (last != null && last.offset() == offset) {
      return last;
    }
    if (lastIndex != null && lastIndex.offset() == offset) {
      return lastIndex;
    }
    Block b = readBlock(offset);
    if (b.type() == BlockType.LEAF_INDEX || b.type() == BlockType.INTERMEDIATE_INDEX) {
      lastIndex = b;
    } else {
      last = b;
    }
    return b;
  }

  private Block readBlock(long offset) {
    if (offset < 0 || offset + HFileFormat.HEADER_SIZE > length) {
      throw damaged(offset, "a block offset outside the file (" + length + " bytes)");
    }
    byte[] header = readRange(offset, HFileFormat.HEADER_SIZE);
    BlockType type = BlockType.of(header, 0)
        .orElseThrow(() -> damaged(offset, "no block magic (found " + printable(header) + ")"));
    int onDiskSize = HFileFormat.getInt(header, 8);
    int uncompressedSize = HFileFormat.getInt(header, 12);
    byte checksumType = header[24];
    int bytesPerChecksum = HFileFormat.getInt(header, 25);
    int dataSizeWithHeader = HFileFormat.getInt(header, 29);
    long total = (long) HFileFormat.HEADER_SIZE + onDiskSize;
    if (onDiskSize < 0 || uncompressedSize < 0 || offset + total > length || dataSizeWithHeader < HFileFormat.HEADER_SIZE
        || dataSizeWithHeader > total || bytesPerChecksum <= 0) {
      throw damaged(offset, "impossible sizes in the " + type + " block header (on disk " + onDiskSize + ", uncompressed "
          + uncompressedSize + ", data with header " + dataSizeWithHeader + ", bytes per checksum " + bytesPerChecksum + ")");
    }
    byte[] block = new byte[(int) total];
    System.arraycopy(header, 0, block, 0, HFileFormat.HEADER_SIZE);
    byte[] rest = readRange(offset + HFileFormat.HEADER_SIZE, onDiskSize);
    System.arraycopy(rest, 0, block, HFileFormat.HEADER_SIZE, onDiskSize);
    verify(block, offset, type, checksumType, bytesPerChecksum, dataSizeWithHeader);
    int onDiskPayload = dataSizeWithHeader - HFileFormat.HEADER_SIZE;
    return new Block(type, offset, (int) total, payload(block, offset, type, onDiskPayload, uncompressedSize));
  }

  private void verify(byte[] block, long offset, BlockType type, byte checksumType, int bytesPerChecksum, int dataSize) {
    if (checksumType == HFileFormat.CHECKSUM_NULL) {
      return;
    }
    if (checksumType != HFileFormat.CHECKSUM_CRC32 && checksumType != HFileFormat.CHECKSUM_CRC32C) {
      throw damaged(offset, "unknown checksum type " + checksumType + " in the " + type + " block header");
    }
    long chunks = ((long) dataSize + bytesPerChecksum - 1) / bytesPerChecksum;
    if (dataSize + chunks * HFileFormat.CHECKSUM_SIZE > block.length) {
      throw damaged(offset, "the " + type + " block has no room for its " + chunks + " checksums");
    }
    Checksum sum = checksumType == HFileFormat.CHECKSUM_CRC32C ? new CRC32C() : new CRC32();
    for (int c = 0; c < chunks; c++) {
      int from = c * bytesPerChecksum;
      int to = (int) Math.min(dataSize, (long) from + bytesPerChecksum);
      sum.reset();
      sum.update(block, from, to - from);
      int stored = HFileFormat.getInt(block, dataSize + c * HFileFormat.CHECKSUM_SIZE);
      if (stored != (int) sum.getValue()) {
        throw damaged(offset + from, "checksum mismatch in chunk " + c + " of the " + type + " block at offset " + offset
            + " (stored " + Integer.toHexString(stored) + ", computed " + Integer.toHexString((int) sum.getValue()) + ")");
      }
    }
  }

  private byte[] payload(byte[] block, long offset, BlockType type, int onDiskPayload, int uncompressedSize) {
    if (compression == HFileCompression.NONE) {
      if (onDiskPayload != uncompressedSize) {
        throw damaged(offset, "the uncompressed " + type + " block holds " + onDiskPayload + " bytes but its header says "
            + uncompressedSize);
      }
      byte[] out = new byte[uncompressedSize];
      System.arraycopy(block, HFileFormat.HEADER_SIZE, out, 0, uncompressedSize);
      return out;
    }
    byte[] out = new byte[uncompressedSize];
    try {
      int done = GzipPayload.inflate(block, HFileFormat.HEADER_SIZE, onDiskPayload, out);
      if (done < uncompressedSize) {
        throw damaged(offset, "the gzip payload of the " + type + " block inflates to " + done + " bytes, not " + uncompressedSize);
      }
    } catch (ZipException e) {
      throw damaged(offset, "the gzip payload of the " + type + " block is damaged (" + e.getMessage() + ")", e);
    }
    return out;
  }

  private static String printable(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < HFileFormat.MAGIC_LENGTH; i++) {
      int c = b[i] & 0xff;
      sb.append(c >= 32 && c < 127 ? String.valueOf((char) c) : String.format("\\x%02x", c));
    }
    return sb.toString();
  }
}
