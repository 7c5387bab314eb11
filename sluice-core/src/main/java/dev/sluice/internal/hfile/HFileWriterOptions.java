package dev.sluice.internal.hfile;

import java.util.Objects;

/**
 * How an {@link HFileWriter} lays out a file.
 *
 * @param compression block compression
 * @param blockSize upper bound of a data block's uncompressed payload in bytes; a block is closed before a cell
 *     would take it past the bound (a single larger cell gets a block of its own). Kept at 128 KiB or less:
 *     Hudi's native reader (0.15 to 1.1) ignores cells in the last {@code 4 * chunks} bytes of a block, and a
 *     block of at most 128 KiB has at most 9 checksum chunks, i.e. 36 bytes, less than any metadata-table cell
 * @param indexBlockSize size at which a level of the data index is written out as a block and a new level starts
 *     ({@code hfile.index.block.max.size}, 128 KiB in HBase)
 * @param minIndexEntries the least number of entries an intermediate index block or a multi-level root gets
 *     ({@code hfile.index.block.min.entries}, 16 in HBase)
 */
public record HFileWriterOptions(HFileCompression compression, int blockSize, int indexBlockSize, int minIndexEntries) {
  /** The largest data block Sluice writes by default. */
  public static final int MAX_BLOCK_SIZE = 128 * 1024;

  public HFileWriterOptions {
    Objects.requireNonNull(compression, "compression");
    if (blockSize <= 0 || indexBlockSize <= 0 || minIndexEntries < 2) {
      throw new IllegalArgumentException("block size " + blockSize + ", index block size " + indexBlockSize
          + " and minimum index entries " + minIndexEntries + " must be positive (entries at least 2)");
    }
  }

  /** GZ (the metadata table's default), 128 KiB data blocks, HBase's index settings. */
  public static HFileWriterOptions defaults() {
    return new HFileWriterOptions(HFileCompression.GZ, MAX_BLOCK_SIZE, 128 * 1024, 16);
  }

  public HFileWriterOptions withCompression(HFileCompression c) {
    return new HFileWriterOptions(c, blockSize, indexBlockSize, minIndexEntries);
  }

  public HFileWriterOptions withBlockSize(int bytes) {
    return new HFileWriterOptions(compression, bytes, indexBlockSize, minIndexEntries);
  }

  /** Index settings; small values force a multi-level index in tests. */
  public HFileWriterOptions withIndex(int indexBlockBytes, int minEntries) {
    return new HFileWriterOptions(compression, blockSize, indexBlockBytes, minEntries);
  }
}
