package dev.sluice.internal.hfile;

import java.util.function.LongSupplier;

/**
 * Where the parts of one cell of a data block's payload lie, parsed without copying: int32 key length, int32 value
 * length, the key (int16 row length, row, family, qualifier, timestamp, type), the value, then [int16 tags length,
 * tags] and [mvcc VLong] when the file has them. Lookups compare rows in place and copy only the cells they return.
 *
 * @param rowStart payload offset of the row
 * @param rowLength row bytes
 * @param valueStart payload offset of the value
 * @param valueLength value bytes
 * @param end payload offset just past the cell
 */
record CellBounds(int rowStart, int rowLength, int valueStart, int valueLength, int end) {
  /**
   * The cell at {@code pos} of {@code p}; a malformed cell is a damaged-file error naming the block
   * ({@code blockOffset}) and the payload offset.
   */
  static CellBounds at(byte[] p, int pos, boolean tags, boolean mvcc, LongSupplier blockOffset, BlockReader blocks) {
    try {
      int keyLength = HFileFormat.getInt(p, pos);
      int valueLength = HFileFormat.getInt(p, pos + 4);
      int keyStart = pos + 8;
      if (keyLength < HFileFormat.KEY_FIXED || valueLength < 0 || (long) keyStart + keyLength + valueLength > p.length) {
        throw new IndexOutOfBoundsException("key length " + keyLength + ", value length " + valueLength);
      }
      int rowLength = HFileFormat.getShort(p, keyStart);
      if (rowLength + HFileFormat.KEY_FIXED > keyLength) {
        throw new IndexOutOfBoundsException("row length " + rowLength + " in a key of " + keyLength + " bytes");
      }
      int valueStart = keyStart + keyLength;
      int end = valueStart + valueLength;
      if (tags) {
        end += 2 + HFileFormat.getShort(p, end);
      }
      if (mvcc) {
        end += HFileFormat.readVLong(p, end, p.length).size();
      }
      if (end > p.length) {
        throw new IndexOutOfBoundsException("cell ends at " + end);
      }
      return new CellBounds(keyStart + 2, rowLength, valueStart, valueLength, end);
    } catch (IndexOutOfBoundsException e) {
      throw blocks.damaged(blockOffset.getAsLong(), "the data block's cell at payload offset " + pos
          + " is malformed (" + e.getMessage() + ")", e);
    }
  }
}
