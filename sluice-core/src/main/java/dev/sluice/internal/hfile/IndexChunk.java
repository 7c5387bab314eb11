package dev.sluice.internal.hfile;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Entries of one block index level being built ({@code HFileBlockIndex.BlockIndexChunk}): per child block its
 * first key, offset and on-disk size, and for the mid-key the running count of data blocks below. Serialized in
 * the root format (key length as Hadoop VInt) or the non-root format (entry count, secondary index of entry
 * offsets, entries without key lengths).
 */
final class IndexChunk {
  private final List<byte[]> keys = new ArrayList<>();
  private final List<Long> offsets = new ArrayList<>();
  private final List<Integer> sizes = new ArrayList<>();
  /** Data blocks at and before each entry, for the mid-key metadata of a multi-level root. */
  private final List<Long> dataBlocksThrough = new ArrayList<>();
  private int rootSize;
  private int nonRootEntriesSize;

  void add(byte[] key, long offset, int onDiskSize, long dataBlocksSoFar) {
    keys.add(key);
    offsets.add(offset);
    sizes.add(onDiskSize);
    dataBlocksThrough.add(dataBlocksSoFar);
    rootSize += HFileFormat.NON_ROOT_ENTRY_OVERHEAD + HFileFormat.vlongSize(key.length) + key.length;
    nonRootEntriesSize += HFileFormat.NON_ROOT_ENTRY_OVERHEAD + key.length;
  }

  void add(byte[] key, long offset, int onDiskSize) {
    add(key, offset, onDiskSize, -1);
  }

  int size() {
    return keys.size();
  }

  byte[] key(int i) {
    return keys.get(i);
  }

  long offset(int i) {
    return offsets.get(i);
  }

  int onDiskSize(int i) {
    return sizes.get(i);
  }

  /** Bytes of the root serialization. */
  int rootSize() {
    return rootSize;
  }

  /** Bytes of the non-root serialization. */
  int nonRootSize() {
    return nonRootEntriesSize + 4 * (keys.size() + 2);
  }

  void clear() {
    keys.clear();
    offsets.clear();
    sizes.clear();
    dataBlocksThrough.clear();
    rootSize = 0;
    nonRootEntriesSize = 0;
  }

  /** Root format: per entry int64 offset, int32 on-disk size, VInt key length, key. */
  void writeRoot(ByteArrayOutputStream out) {
    byte[] fixed = new byte[HFileFormat.NON_ROOT_ENTRY_OVERHEAD];
    for (int i = 0; i < keys.size(); i++) {
      HFileFormat.putLong(fixed, 0, offsets.get(i));
      HFileFormat.putInt(fixed, 8, sizes.get(i));
      out.write(fixed, 0, fixed.length);
      HFileFormat.writeVLong(out, keys.get(i).length);
      out.writeBytes(keys.get(i));
    }
  }

  /** Non-root format: int32 count, int32 offsets of each entry (and of the end) after them, then the entries. */
  void writeNonRoot(ByteArrayOutputStream out) {
    byte[] four = new byte[4];
    HFileFormat.putInt(four, 0, keys.size());
    out.write(four, 0, 4);
    int at = 0;
    for (byte[] key : keys) {
      HFileFormat.putInt(four, 0, at);
      out.write(four, 0, 4);
      at += HFileFormat.NON_ROOT_ENTRY_OVERHEAD + key.length;
    }
    HFileFormat.putInt(four, 0, at);
    out.write(four, 0, 4);
    byte[] fixed = new byte[HFileFormat.NON_ROOT_ENTRY_OVERHEAD];
    for (int i = 0; i < keys.size(); i++) {
      HFileFormat.putLong(fixed, 0, offsets.get(i));
      HFileFormat.putInt(fixed, 8, sizes.get(i));
      out.write(fixed, 0, fixed.length);
      out.writeBytes(keys.get(i));
    }
  }

  /**
   * The 16 bytes that end a multi-level root ({@code getMidKeyMetadata}), computed on the chunk of leaf entries:
   * the leaf block holding the middle data block (offset, on-disk size) and that block's position in the leaf.
   */
  byte[] midKeyMetadata() {
    long total = dataBlocksThrough.get(keys.size() - 1);
    long mid = (total - 1) / 2;
    int entry = 0;
    while (dataBlocksThrough.get(entry) <= mid) {
      entry++;
    }
    long before = entry > 0 ? dataBlocksThrough.get(entry - 1) : 0;
    byte[] out = new byte[HFileFormat.MID_KEY_METADATA_SIZE];
    HFileFormat.putLong(out, 0, offsets.get(entry));
    HFileFormat.putInt(out, 8, sizes.get(entry));
    HFileFormat.putInt(out, 12, (int) (mid - before));
    return out;
  }
}
