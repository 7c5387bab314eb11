package dev.sluice.internal.hfile;

import dev.sluice.internal.error.Errors;
import dev.sluice.storage.Storage;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Writes an HFile v3 of sorted key/value cells as HBase 2.4 writes them for Hudi, so that HBase's reader (Hudi
 * 0.15's default) and Hudi's native reader both read every cell. Each cell: row = the UTF-8 key, empty family and
 * qualifier, timestamp {@code Long.MAX_VALUE}, type Put, the value bytes, one mvcc byte 0.
 *
 * <p>What the file holds: data blocks closed at {@link HFileWriterOptions#blockSize()}; the data index as HBase
 * builds it (one root level while it is small; leaf blocks written among the data blocks once a level reaches
 * {@link HFileWriterOptions#indexBlockSize()}, then intermediate levels until the root fits), whose keys are the
 * full cell keys of each block's real first cell (not HBase's shortened keys: Hudi 0.15's native reader
 * mishandles lookups between a shortened key and the block's first key, HUDI-9325); meta blocks in name order;
 * file info with the keys both readers need ({@code hfile.AVG_KEY_LEN}, {@code hfile.AVG_VALUE_LEN},
 * {@code hfile.LASTKEY}, {@code KEY_VALUE_VERSION}=1, {@code MAX_MEMSTORE_TS_KEY}=0, {@code hfile.CREATE_TIME_TS})
 * and the caller's entries; a CRC32C per 16 KiB chunk of every block; a trailer naming Hudi's comparator, version
 * 3.3. Blocks are built in memory and written whole; nothing is written before the first block is complete.
 *
 * <p>Create with {@link #create(Storage, String, HFileWriterOptions)} or {@link #to(OutputStream, String,
 * HFileWriterOptions)}, {@link #append} in strictly ascending unsigned byte order of the keys, then
 * {@link #close()}, which writes the rest of the file and closes the stream.
 */
public final class HFileWriter implements Closeable {
  private final String label;
  private final HFileWriterOptions options;
  private final OutputStream out;
  private final BlockWriter blocks;
  private final Map<String, byte[]> fileInfo = new TreeMap<>(HFileWriter::compareUtf8);
  private final Map<String, byte[]> metaBlocks = new TreeMap<>(HFileWriter::compareUtf8);
  /** The data index level being filled: one entry per data block since the last leaf block. */
  private final IndexChunk leafChunk = new IndexChunk();
  /** Entries of the level above: one per leaf block written (or, if no leaf was written, the root itself). */
  private IndexChunk rootChunk = new IndexChunk();
  private boolean multiLevel;
  private long uncompressedIndexBytes;
  private byte[] block = new byte[4096];
  private int blockLength;
  private byte[] blockFirstKey;
  private byte[] lastRow;
  private long entries;
  private long dataBlocks;
  private long totalKeyBytes;
  private long totalValueBytes;
  private long firstDataBlockOffset = -1;
  private long lastDataBlockOffset = -1;
  private boolean closed;

  private HFileWriter(OutputStream out, String label, HFileWriterOptions options) {
    this.out = out;
    this.label = label;
    this.options = options;
    this.blocks = new BlockWriter(out, options.compression());
  }

  /** Creates the file at {@code path} (failing if it exists) and returns a writer for it. */
  public static HFileWriter create(Storage storage, String path, HFileWriterOptions options) {
    Objects.requireNonNull(options, "options");
    try {
      return new HFileWriter(storage.create(path, false), path, options);
    } catch (IOException e) {
      throw Errors.storage("create the HFile", path, e);
    }
  }

  /**
   * A writer into {@code out} (e.g. a log block's buffer); {@code label} names the file in messages. Closing the
   * writer closes {@code out}.
   */
  public static HFileWriter to(OutputStream out, String label, HFileWriterOptions options) {
    return new HFileWriter(Objects.requireNonNull(out, "out"), label, Objects.requireNonNull(options, "options"));
  }

  /** Adds a cell with key {@code key} (UTF-8). */
  public void append(String key, byte[] value) {
    append(key.getBytes(StandardCharsets.UTF_8), value);
  }

  /**
   * Adds a cell. Keys must be strictly ascending in unsigned byte order (which differs from Java's String order
   * for characters above U+E000 against surrogate pairs); a key at most 32767 bytes long.
   */
  public void append(byte[] key, byte[] value) {
    checkOpen();
    Objects.requireNonNull(value, "value");
    if (key.length > Short.MAX_VALUE) {
      throw Errors.badInput(label, "record key", "a key of " + key.length + " bytes is too long for an HFile row",
          "at most " + Short.MAX_VALUE + " bytes");
    }
    if (lastRow != null && HFileFormat.compare(lastRow, key) >= 0) {
      throw Errors.badInput(label, "record key", "key '" + new String(key, StandardCharsets.UTF_8) + "' "
          + (Arrays.equals(lastRow, key) ? "repeats the previous key" : "is not after the previous key '"
          + new String(lastRow, StandardCharsets.UTF_8) + "'"), "keys in strictly ascending unsigned UTF-8 byte order");
    }
    int keyLength = key.length + HFileFormat.KEY_FIXED;
    long cellSize = 8L + keyLength + value.length + 1;
    if (blockLength > 0 && blockLength + cellSize > options.blockSize()) {
      finishBlock();
    }
    if (blockLength + cellSize > Integer.MAX_VALUE - 64) {
      throw Errors.badInput(label, "value", "a value of " + value.length + " bytes is too large for an HFile block",
          "values under 2 GiB");
    }
    ensure((int) cellSize);
    byte[] cellKey = HFileFormat.cellKey(key);
    HFileFormat.putInt(block, blockLength, keyLength);
    HFileFormat.putInt(block, blockLength + 4, value.length);
    System.arraycopy(cellKey, 0, block, blockLength + 8, keyLength);
    System.arraycopy(value, 0, block, blockLength + 8 + keyLength, value.length);
    // mvcc (memstore timestamp) 0 as a Hadoop VLong: file info says KEY_VALUE_VERSION 1, so readers expect it
    block[blockLength + 8 + keyLength + value.length] = 0;
    blockLength += (int) cellSize;
    if (blockFirstKey == null) {
      blockFirstKey = cellKey;
    }
    lastRow = key.clone();
    entries++;
    totalKeyBytes += keyLength;
    totalValueBytes += value.length;
  }

  /** Adds a file info entry (e.g. Hudi's {@code schema}); the format's own entries cannot be replaced. */
  public void fileInfo(String key, byte[] value) {
    checkOpen();
    fileInfo.put(key, value.clone());
  }

  /** Adds a meta block (e.g. Hudi's {@code bloomFilter}); written at close in name order. */
  public void metaBlock(String name, byte[] content) {
    checkOpen();
    metaBlocks.put(name, content.clone());
  }

  /** Cells appended so far. */
  public long entryCount() {
    return entries;
  }

  /** Writes the rest of the file and closes the stream. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try (OutputStream o = out) {
      finish();
    } catch (IOException e) {
      throw Errors.storage("write the HFile", label, e);
    }
  }

  private void finish() throws IOException {
    if (blockLength > 0) {
      finishBlockIo();
    }
    if (leafChunk.size() > 0) {
      if (multiLevel) {
        writeLeaf();
      } else {
        // no leaf block was needed: the entries gathered so far are the whole (single-level) index
        rootChunk = copyOf(leafChunk);
      }
    }
    IndexChunk metaIndex = new IndexChunk();
    for (Map.Entry<String, byte[]> m : metaBlocks.entrySet()) {
      BlockWriter.Written w = blocks.write(BlockType.META, m.getValue(), m.getValue().length);
      metaIndex.add(m.getKey().getBytes(StandardCharsets.UTF_8), w.offset(), w.onDiskSizeWithHeader());
    }
    int levels = 1;
    byte[] midKey = null;
    if (multiLevel) {
      levels = 2;
      midKey = rootChunk.midKeyMetadata();
      while (rootChunk.rootSize() > options.indexBlockSize() && rootChunk.size() > options.minIndexEntries() && levels < 16) {
        rootChunk = writeIntermediateLevel(rootChunk);
        levels++;
      }
    }
    ByteArrayOutputStream root = new ByteArrayOutputStream();
    rootChunk.writeRoot(root);
    if (midKey != null) {
      root.writeBytes(midKey);
    }
    BlockWriter.Written rootBlock = writeIndexBlock(BlockType.ROOT_INDEX, root);
    ByteArrayOutputStream meta = new ByteArrayOutputStream();
    metaIndex.writeRoot(meta);
    blocks.write(BlockType.ROOT_INDEX, meta.toByteArray(), meta.size());
    long fileInfoOffset = blocks.position();
    byte[] info = fileInfoBytes();
    blocks.write(BlockType.FILE_INFO, info, info.length);
    Trailer trailer = new Trailer(fileInfoOffset, rootBlock.offset(), uncompressedIndexBytes, blocks.totalUncompressedBytes(),
        rootChunk.size(), metaIndex.size(), entries, levels, firstDataBlockOffset, lastDataBlockOffset,
        HFileFormat.COMPARATOR, options.compression().id(), HFileFormat.MAJOR_VERSION, HFileFormat.MINOR_VERSION);
    blocks.writeRaw(trailer.encode());
  }

  private void finishBlock() {
    try {
      finishBlockIo();
    } catch (IOException e) {
      throw Errors.storage("write the HFile", label, e);
    }
  }

  private void finishBlockIo() throws IOException {
    BlockWriter.Written w = blocks.write(BlockType.DATA, block, blockLength);
    if (firstDataBlockOffset < 0) {
      firstDataBlockOffset = w.offset();
    }
    lastDataBlockOffset = w.offset();
    dataBlocks++;
    leafChunk.add(blockFirstKey, w.offset(), w.onDiskSizeWithHeader(), dataBlocks);
    blockLength = 0;
    blockFirstKey = null;
    // HBase writes a leaf index block inline, right after the data block that filled it
    if (leafChunk.nonRootSize() >= options.indexBlockSize()) {
      multiLevel = true;
      writeLeaf();
    }
  }

  private void writeLeaf() throws IOException {
    ByteArrayOutputStream leaf = new ByteArrayOutputStream(leafChunk.nonRootSize());
    leafChunk.writeNonRoot(leaf);
    BlockWriter.Written w = writeIndexBlock(BlockType.LEAF_INDEX, leaf);
    rootChunk.add(leafChunk.key(0), w.offset(), w.onDiskSizeWithHeader(), dataBlocks);
    leafChunk.clear();
  }

  /** Packs {@code level}'s entries into intermediate index blocks and returns the level above them. */
  private IndexChunk writeIntermediateLevel(IndexChunk level) throws IOException {
    IndexChunk parent = new IndexChunk();
    IndexChunk current = new IndexChunk();
    for (int i = 0; i < level.size(); i++) {
      current.add(level.key(i), level.offset(i), level.onDiskSize(i));
      // at least minIndexEntries per block, so that huge keys cannot make the levels grow without end
      if (i >= options.minIndexEntries() && current.rootSize() >= options.indexBlockSize()) {
        writeIntermediate(parent, current);
      }
    }
    if (current.size() > 0) {
      writeIntermediate(parent, current);
    }
    return parent;
  }

  private void writeIntermediate(IndexChunk parent, IndexChunk current) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(current.nonRootSize());
    current.writeNonRoot(bytes);
    BlockWriter.Written w = writeIndexBlock(BlockType.INTERMEDIATE_INDEX, bytes);
    parent.add(current.key(0), w.offset(), w.onDiskSizeWithHeader());
    current.clear();
  }

  private BlockWriter.Written writeIndexBlock(BlockType type, ByteArrayOutputStream payload) throws IOException {
    BlockWriter.Written w = blocks.write(type, payload.toByteArray(), payload.size());
    uncompressedIndexBytes += w.uncompressedSize();
    return w;
  }

  private static IndexChunk copyOf(IndexChunk c) {
    IndexChunk out = new IndexChunk();
    for (int i = 0; i < c.size(); i++) {
      out.add(c.key(i), c.offset(i), c.onDiskSize(i));
    }
    return out;
  }

  /** {@code "PBUF"} + a length-delimited {@code InfoProto} of {@code BytesBytesPair} entries in key order. */
  private byte[] fileInfoBytes() {
    Map<String, byte[]> all = new TreeMap<>(HFileWriter::compareUtf8);
    all.putAll(fileInfo);
    if (lastRow != null) {
      all.put(HFileFormat.LAST_KEY, HFileFormat.cellKey(lastRow));
    }
    all.put(HFileFormat.AVG_KEY_LEN, HFileFormat.intBytes(entries == 0 ? 0 : (int) (totalKeyBytes / entries)));
    all.put(HFileFormat.AVG_VALUE_LEN, HFileFormat.intBytes(entries == 0 ? 0 : (int) (totalValueBytes / entries)));
    // 0 as in Hudi's HBase-written files: the same cells always give the same bytes
    all.put(HFileFormat.CREATE_TIME, HFileFormat.longBytes(0));
    all.put(HFileFormat.KEY_VALUE_VERSION, HFileFormat.intBytes(1));
    all.put(HFileFormat.MAX_MEMSTORE_TS, HFileFormat.longBytes(0));
    ByteArrayOutputStream message = new ByteArrayOutputStream();
    for (Map.Entry<String, byte[]> e : all.entrySet()) {
      ByteArrayOutputStream pair = new ByteArrayOutputStream();
      Proto.writeBytesField(pair, 1, e.getKey().getBytes(StandardCharsets.UTF_8));
      Proto.writeBytesField(pair, 2, e.getValue());
      Proto.writeBytesField(message, 1, pair.toByteArray());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(message.size() + 16);
    out.writeBytes(HFileFormat.PBUF_MAGIC);
    Proto.writeVarint(out, message.size());
    out.writeBytes(message.toByteArray());
    return out.toByteArray();
  }

  private void ensure(int extra) {
    if (blockLength + extra > block.length) {
      block = Arrays.copyOf(block, (int) Math.min(Integer.MAX_VALUE - 16, Math.max((long) blockLength + extra, 2L * block.length)));
    }
  }

  private void checkOpen() {
    if (closed) {
      throw Errors.internal("the HFile writer of " + label + " is already closed", null);
    }
  }

  private static int compareUtf8(String a, String b) {
    return HFileFormat.compare(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
