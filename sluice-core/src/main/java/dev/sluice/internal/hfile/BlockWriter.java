package dev.sluice.internal.hfile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.zip.CRC32C;
import java.util.zip.GZIPOutputStream;

/**
 * Frames payloads as HFile blocks and writes them ({@code HFileBlock.Writer}): the 33-byte header, the payload
 * compressed with the file's codec, and a CRC32C per 16 KiB chunk of header plus on-disk payload. Keeps the
 * position and, per block type, the offset of the previous block of that type (HBase's {@code seekBefore} walks
 * back through data blocks with it).
 */
final class BlockWriter {
  /** Where a block went: its offset, its whole on-disk size and its uncompressed payload size. */
  record Written(long offset, int onDiskSizeWithHeader, int uncompressedSize) {
  }

  private final OutputStream out;
  private final HFileCompression compression;
  private final long[] previousOffset = new long[BlockType.values().length];
  private final CRC32C crc = new CRC32C();
  private long position;
  private long totalUncompressedBytes;

  BlockWriter(OutputStream out, HFileCompression compression) {
    this.out = out;
    this.compression = compression;
    Arrays.fill(previousOffset, -1);
  }

  long position() {
    return position;
  }

  /** Uncompressed bytes of all blocks written, headers included (the trailer's total_uncompressed_bytes). */
  long totalUncompressedBytes() {
    return totalUncompressedBytes;
  }

  /** Writes one block of {@code type} holding {@code payload[0, length)}. */
  Written write(BlockType type, byte[] payload, int length) throws IOException {
    byte[] onDiskPayload;
    int onDiskLength;
    if (compression == HFileCompression.GZ) {
      ByteArrayOutputStream gz = new ByteArrayOutputStream(Math.max(64, length / 2));
      try (GZIPOutputStream zip = new GZIPOutputStream(gz)) {
        zip.write(payload, 0, length);
      }
      onDiskPayload = gz.toByteArray();
      onDiskLength = onDiskPayload.length;
    } else {
      onDiskPayload = payload;
      onDiskLength = length;
    }
    int dataSizeWithHeader = HFileFormat.HEADER_SIZE + onDiskLength;
    int chunks = (dataSizeWithHeader + HFileFormat.BYTES_PER_CHECKSUM - 1) / HFileFormat.BYTES_PER_CHECKSUM;
    int checksumBytes = chunks * HFileFormat.CHECKSUM_SIZE;
    byte[] block = new byte[dataSizeWithHeader + checksumBytes];
    System.arraycopy(type.magic(), 0, block, 0, HFileFormat.MAGIC_LENGTH);
    HFileFormat.putInt(block, 8, onDiskLength + checksumBytes);
    HFileFormat.putInt(block, 12, length);
    HFileFormat.putLong(block, 16, previousOffset[type.ordinal()]);
    block[24] = HFileFormat.CHECKSUM_CRC32C;
    HFileFormat.putInt(block, 25, HFileFormat.BYTES_PER_CHECKSUM);
    HFileFormat.putInt(block, 29, dataSizeWithHeader);
    System.arraycopy(onDiskPayload, 0, block, HFileFormat.HEADER_SIZE, onDiskLength);
    for (int c = 0; c < chunks; c++) {
      int from = c * HFileFormat.BYTES_PER_CHECKSUM;
      int to = Math.min(dataSizeWithHeader, from + HFileFormat.BYTES_PER_CHECKSUM);
      crc.reset();
      crc.update(block, from, to - from);
      HFileFormat.putInt(block, dataSizeWithHeader + c * HFileFormat.CHECKSUM_SIZE, (int) crc.getValue());
    }
    long offset = position;
    out.write(block);
    position += block.length;
    previousOffset[type.ordinal()] = offset;
    totalUncompressedBytes += HFileFormat.HEADER_SIZE + length;
    return new Written(offset, block.length, length);
  }

  /** Writes bytes that are not a block (the trailer). */
  void writeRaw(byte[] bytes) throws IOException {
    out.write(bytes);
    position += bytes.length;
  }
}
