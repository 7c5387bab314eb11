package dev.sluice.internal.hfile;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.ComputingIterator;
import dev.sluice.storage.SeekableInput;
import dev.sluice.storage.Storage;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.LongSupplier;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads an HFile v3 as HBase and Hudi write them: the trailer, the load-on-open section (data root index, meta
 * index, file info) on open; data blocks only when asked for. {@link #get} and {@link #scanFrom} walk the block
 * index from the root (through intermediate and leaf blocks of a multi-level index) to the one data block that can
 * hold the key, comparing rows only: index keys are lower bounds, so HBase's shortened "first on row" keys, full
 * cell keys and the bare {@code [length][row]} keys of Hudi 1.1's writer all work. Scans read data blocks in file
 * order and step over the leaf index and bloom chunks among them.
 *
 * <p>Every block's checksums are verified; damaged bytes are {@code BAD_TABLE} errors naming the file and the
 * offset. The reader holds the file open until {@link #close()}; iterators read through it and must not outlive it.
 */
public final class HFileReader implements Closeable {
  private final SeekableInput in;
  private final String path;
  private final BlockReader blocks;
  private Trailer trailer;
  private List<IndexEntry> root = List.of();
  private Map<String, IndexEntry> metaIndex = Map.of();
  private Map<String, byte[]> fileInfo = Map.of();
  private boolean mvcc;
  private boolean tags;

  /** One index entry: the child block's offset and on-disk size, and the row of its key (a lower bound). */
  private record IndexEntry(long offset, int size, byte[] row) {
  }

  private HFileReader(SeekableInput in, String path, long base, long length) {
    this.in = in;
    this.path = path;
    this.blocks = new BlockReader(in, path, base, length);
  }

  /** Opens the HFile at {@code path} of {@code fileSize} bytes and reads its trailer, index and file info. */
  public static HFileReader open(Storage storage, String path, long fileSize) {
    return open(storage, path, 0, fileSize);
  }

  /** Opens an HFile embedded in {@code path} at {@code offset} (a log block's content), {@code length} bytes long. */
  public static HFileReader open(Storage storage, String path, long offset, long length) {
    SeekableInput in;
    try {
      in = storage.openRead(path);
    } catch (IOException e) {
      throw Errors.storage("open the HFile", path, e);
    }
    HFileReader reader = new HFileReader(in, path, offset, length);
    try {
      reader.load();
      return reader;
    } catch (RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  private void load() {
    long length = blocks.length();
    if (length < HFileFormat.TRAILER_SIZE) {
      throw blocks.damaged(0, "the file has " + length + " bytes, fewer than the " + HFileFormat.TRAILER_SIZE + "-byte trailer");
    }
    long trailerOffset = length - HFileFormat.TRAILER_SIZE;
    try {
      trailer = Trailer.parse(blocks.readRange(trailerOffset, HFileFormat.TRAILER_SIZE));
    } catch (Proto.Malformed e) {
      throw blocks.damaged(trailerOffset, "not an HFile v3 trailer: " + e.getMessage(), e);
    }
    HFileCompression compression = HFileCompression.ofId(trailer.codec()).orElseThrow(() -> Errors.unsupported(
        "Reading HFile blocks compressed with " + HFileCompression.nameOf(trailer.codec()) + " (" + path + ")",
        "Write the metadata table with hoodie.hfile.compression.algorithm=GZ or NONE."));
    blocks.compression(compression);
    long at = trailer.loadOnOpenOffset();
    if (at < 0 || at >= trailerOffset) {
      throw blocks.damaged(trailerOffset, "the trailer's load-on-open offset " + at + " is outside the file");
    }
    BlockReader.Block dataRoot = expect(blocks.read(at), BlockType.ROOT_INDEX, "data root index");
    root = parseRoot(dataRoot, trailer.dataIndexCount(), true);
    BlockReader.Block metaRoot = expect(blocks.read(at + dataRoot.onDiskSizeWithHeader()), BlockType.ROOT_INDEX, "meta index");
    Map<String, IndexEntry> meta = new LinkedHashMap<>();
    for (IndexEntry e : parseRoot(metaRoot, trailer.metaIndexCount(), false)) {
      meta.put(new String(e.row(), StandardCharsets.UTF_8), e);
    }
    metaIndex = Collections.unmodifiableMap(meta);
    BlockReader.Block info = expect(blocks.read(metaRoot.offset() + metaRoot.onDiskSizeWithHeader()), BlockType.FILE_INFO,
        "file info");
    fileInfo = parseFileInfo(info);
    byte[] version = fileInfo.get(HFileFormat.KEY_VALUE_VERSION);
    mvcc = version != null && version.length == 4 && HFileFormat.getInt(version, 0) == 1;
    tags = fileInfo.containsKey(HFileFormat.MAX_TAGS_LEN);
    byte[] encoding = fileInfo.get(HFileFormat.DATA_BLOCK_ENCODING);
    if (encoding != null && !new String(encoding, StandardCharsets.UTF_8).equals("NONE")) {
      throw Errors.unsupported("Reading HFile data blocks with encoding " + new String(encoding, StandardCharsets.UTF_8)
          + " (" + path + ")", "Hudi writes HFiles without data block encoding; rewrite the file without it.");
    }
  }

  private BlockReader.Block expect(BlockReader.Block b, BlockType type, String what) {
    if (b.type() != type) {
      throw blocks.damaged(b.offset(), "expected the " + what + " (" + type + ") but found a " + b.type() + " block");
    }
    return b;
  }

  /**
   * Root format: {@code count} entries of int64 offset, int32 size, VInt key length, key; then maybe the mid-key.
   * Data index keys are cell keys (their row is kept); meta index keys are block names (kept whole).
   */
  private List<IndexEntry> parseRoot(BlockReader.Block b, int count, boolean cellKeys) {
    byte[] p = b.payload();
    List<IndexEntry> out = new ArrayList<>(Math.max(0, Math.min(count, p.length / 13)));
    int pos = 0;
    try {
      for (int i = 0; i < count; i++) {
        long offset = HFileFormat.getLong(p, pos);
        int size = HFileFormat.getInt(p, pos + 8);
        HFileFormat.VLong len = HFileFormat.readVLong(p, pos + 12, p.length);
        int keyStart = pos + 12 + len.size();
        if (len.value() < 0 || keyStart + len.value() > p.length) {
          throw new IndexOutOfBoundsException("key of " + len.value() + " bytes");
        }
        byte[] key = Arrays.copyOfRange(p, keyStart, keyStart + (int) len.value());
        out.add(cellKeys ? entry(b, offset, size, key) : new IndexEntry(offset, size, key));
        pos = keyStart + (int) len.value();
      }
    } catch (IndexOutOfBoundsException e) {
      throw blocks.damaged(b.offset(), "the index block ends inside entry " + out.size() + " of " + count, e);
    }
    return out;
  }

  /** Non-root format: int32 count, count + 1 int32 entry offsets, entries of int64 offset, int32 size, key. */
  private List<IndexEntry> parseNonRoot(BlockReader.Block b) {
    byte[] p = b.payload();
    try {
      int count = HFileFormat.getInt(p, 0);
      int entriesStart = 4 * (count + 2);
      if (count <= 0 || entriesStart > p.length) {
        throw new IndexOutOfBoundsException(count + " entries");
      }
      List<IndexEntry> out = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        int from = entriesStart + HFileFormat.getInt(p, 4 + 4 * i);
        int to = entriesStart + HFileFormat.getInt(p, 8 + 4 * i);
        if (to - from < HFileFormat.NON_ROOT_ENTRY_OVERHEAD || to > p.length) {
          throw new IndexOutOfBoundsException("entry " + i);
        }
        out.add(entry(b, HFileFormat.getLong(p, from), HFileFormat.getInt(p, from + 8),
            Arrays.copyOfRange(p, from + HFileFormat.NON_ROOT_ENTRY_OVERHEAD, to)));
      }
      return out;
    } catch (IndexOutOfBoundsException e) {
      throw blocks.damaged(b.offset(), "the " + b.type() + " block's entries are malformed (" + e.getMessage() + ")", e);
    }
  }

  private IndexEntry entry(BlockReader.Block b, long offset, int size, byte[] key) {
    byte[] row = HFileFormat.rowOf(key);
    if (row == null) {
      throw blocks.damaged(b.offset(), "an index key of " + key.length + " bytes holds no row");
    }
    return new IndexEntry(offset, size, row);
  }

  private Map<String, byte[]> parseFileInfo(BlockReader.Block b) {
    byte[] p = b.payload();
    if (p.length < 4 || !Arrays.equals(p, 0, 4, HFileFormat.PBUF_MAGIC, 0, 4)) {
      throw blocks.damaged(b.offset(), "the file info does not start with PBUF (only protobuf file info is read)");
    }
    Map<String, byte[]> out = new LinkedHashMap<>();
    try {
      Proto.Reader head = new Proto.Reader(p, 4, p.length);
      long len = head.readVarint();
      if (len < 0 || len > p.length - head.position()) {
        throw new Proto.Malformed("message length " + len);
      }
      Proto.Reader r = new Proto.Reader(p, head.position(), head.position() + (int) len);
      while (r.next()) {
        if (r.field() != 1 || r.wireType() != Proto.LENGTH_DELIMITED) {
          continue;
        }
        Proto.Reader pair = new Proto.Reader(p, r.valueOffset(), r.valueOffset() + r.valueLength());
        byte[] key = null;
        byte[] value = new byte[0];
        while (pair.next()) {
          if (pair.field() == 1 && pair.wireType() == Proto.LENGTH_DELIMITED) {
            key = pair.bytes();
          } else if (pair.field() == 2 && pair.wireType() == Proto.LENGTH_DELIMITED) {
            value = pair.bytes();
          }
        }
        if (key != null) {
          out.put(new String(key, StandardCharsets.UTF_8), value);
        }
      }
    } catch (Proto.Malformed e) {
      throw blocks.damaged(b.offset(), "the file info is malformed: " + e.getMessage(), e);
    }
    return Collections.unmodifiableMap(out);
  }

  /** The file, for messages. */
  public String path() {
    return path;
  }

  /** Cells in the file (the trailer's entry count). */
  public long entryCount() {
    return trailer.entryCount();
  }

  /** Levels of the data block index (1: the root points at data blocks). */
  public int indexLevels() {
    return Math.max(1, trailer.dataIndexLevels());
  }

  /** The block compression. */
  public HFileCompression compression() {
    return HFileCompression.ofId(trailer.codec()).orElseThrow();
  }

  /** All file info entries (read-only; values are not copied, do not modify them). */
  public Map<String, byte[]> fileInfo() {
    return fileInfo;
  }

  /** One file info entry, e.g. Hudi's {@code schema}. */
  public Optional<byte[]> fileInfo(String key) {
    return Optional.ofNullable(fileInfo.get(key)).map(byte[]::clone);
  }

  /** The content of the meta block named {@code name} (e.g. Hudi's {@code bloomFilter}). */
  public Optional<byte[]> metaBlock(String name) {
    IndexEntry e = metaIndex.get(name);
    if (e == null) {
      return Optional.empty();
    }
    return Optional.of(expect(blocks.read(e.offset()), BlockType.META, "meta block " + name).payload().clone());
  }

  /** The value of the cell with key {@code key}, reading only the index and data blocks on its path. */
  public Optional<byte[]> get(String key) {
    return get(key.getBytes(StandardCharsets.UTF_8));
  }

  /** The value of the first cell whose row is {@code key}. */
  public Optional<byte[]> get(byte[] key) {
    try (CloseableIterator<HFileCell> it = scanFrom(key)) {
      if (it.hasNext()) {
        HFileCell c = it.next();
        if (Arrays.equals(c.key(), key)) {
          return Optional.of(c.value());
        }
      }
      return Optional.empty();
    }
  }

  /**
   * The cells of {@code keys} that the file holds, in the order of the keys. Made for many keys in sorted order (a
   * batch looked up in a record-index shard): a key in the same data block as the one before goes on from where that
   * one stopped instead of walking the block from its start, and the cells passed over are compared in place, not
   * copied, so a batch costs one pass over the blocks it touches. Keys out of order are still found (the walk then
   * starts over in their block).
   */
  public CloseableIterator<HFileCell> getAll(Iterator<byte[]> keys) {
    if (root.isEmpty()) {
      return CloseableIterator.empty();
    }
    return new ComputingIterator<>() {
      private long blockOffset = -1;
      private byte[] payload;
      private int pos;
      private byte[] previous;
      // made once: a batch over a large shard walks millions of cells, and a lambda per cell was a tenth of it
      private final LongSupplier where = () -> blockOffset;

      @Override
      protected HFileCell computeNext() {
        while (keys.hasNext()) {
          byte[] key = keys.next();
          long at = locate(key);
          if (at != blockOffset) {
            payload = expect(blocks.read(at), BlockType.DATA, "data block the index points at").payload();
            blockOffset = at;
            pos = 0;
          } else if (previous != null && HFileFormat.compare(key, previous) < 0) {
            pos = 0;
          }
          previous = key;
          HFileCell found = seek(key);
          if (found != null) {
            return found;
          }
        }
        return end();
      }

      /** Moves past the cells before {@code key} in the current block; the cell if it is there, else null. */
      private HFileCell seek(byte[] key) {
        while (pos < payload.length) {
          CellBounds c = CellBounds.at(payload, pos, tags, mvcc, where, blocks);
          int cmp = Arrays.compareUnsigned(payload, c.rowStart(), c.rowStart() + c.rowLength(), key, 0, key.length);
          if (cmp > 0) {
            return null;
          }
          pos = c.end();
          if (cmp == 0) {
            return new HFileCell(Arrays.copyOfRange(payload, c.rowStart(), c.rowStart() + c.rowLength()),
                Arrays.copyOfRange(payload, c.valueStart(), c.valueStart() + c.valueLength()));
          }
        }
        // past the last cell of the block the index names: the file does not hold the key
        return null;
      }

      @Override
      public void close() {
        payload = null;
      }
    };
  }

  /** Every cell in key order. */
  public CloseableIterator<HFileCell> scan() {
    return root.isEmpty() ? CloseableIterator.empty() : new Cursor(locate(new byte[0]), null, null);
  }

  /** The cells whose key is at or after {@code startKey}, in key order. */
  public CloseableIterator<HFileCell> scanFrom(String startKey) {
    return scanFrom(startKey.getBytes(StandardCharsets.UTF_8));
  }

  /** The cells whose key is at or after {@code start} (unsigned byte order), in key order. */
  public CloseableIterator<HFileCell> scanFrom(byte[] start) {
    Objects.requireNonNull(start, "start");
    return root.isEmpty() ? CloseableIterator.empty() : new Cursor(locate(start), start, null);
  }

  /** The cells whose key starts with {@code prefix}, in key order (Hudi's key-prefix lookups). */
  public CloseableIterator<HFileCell> scanPrefix(String prefix) {
    byte[] p = prefix.getBytes(StandardCharsets.UTF_8);
    return root.isEmpty() ? CloseableIterator.empty() : new Cursor(locate(p), p, p);
  }

  /** The offset of the data block that holds {@code row} if any block does: the last whose index key is at or below it. */
  private long locate(byte[] row) {
    List<IndexEntry> level = root;
    for (int depth = indexLevels(); ; depth--) {
      IndexEntry e = level.get(lastAtOrBefore(level, row));
      if (depth <= 1) {
        return e.offset();
      }
      BlockReader.Block b = blocks.read(e.offset());
      if (b.type() != BlockType.INTERMEDIATE_INDEX && b.type() != BlockType.LEAF_INDEX) {
        throw blocks.damaged(b.offset(), "the block index points at a " + b.type() + " block where an index block belongs");
      }
      level = parseNonRoot(b);
    }
  }

  /** Index of the last entry whose row is at or before {@code row}; 0 when the row is before all of them. */
  private static int lastAtOrBefore(List<IndexEntry> level, byte[] row) {
    int lo = 0;
    int hi = level.size() - 1;
    int found = 0;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (HFileFormat.compare(level.get(mid).row(), row) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      // a failed close of a read-only stream loses nothing: everything read so far is complete
    }
  }

  /**
   * Walks the cells from a data block on, in file order: skips cells before {@code start}, ends at the first cell
   * not starting with {@code prefix} (when given), at the end of the data blocks, or on close.
   */
  private final class Cursor implements CloseableIterator<HFileCell> {
    private final byte[] start;
    private final byte[] prefix;
    private long nextBlock;
    private BlockReader.Block block;
    private int pos;
    private HFileCell pending;
    private boolean done;

    Cursor(long firstBlock, byte[] start, byte[] prefix) {
      this.start = start;
      this.prefix = prefix;
      this.nextBlock = firstBlock;
    }

    /** The data block at {@code offset} or the first after it; null past the last one. */
    private BlockReader.Block dataBlock(long offset) {
      long at = offset;
      while (at < trailer.loadOnOpenOffset()) {
        BlockReader.Block b = blocks.read(at);
        if (b.type() == BlockType.DATA) {
          nextBlock = at + b.onDiskSizeWithHeader();
          return b;
        }
        if (b.type() == BlockType.ENCODED_DATA) {
          throw Errors.unsupported("Reading encoded HFile data blocks (" + path + " at offset " + at + ")",
              "Hudi writes HFiles without data block encoding; rewrite the file without it.");
        }
        if (!b.type().inScannedSection()) {
          return null;
        }
        at += b.onDiskSizeWithHeader();
      }
      return null;
    }

    @Override
    public boolean hasNext() {
      while (pending == null && !done) {
        if (block == null || pos >= block.payload().length) {
          block = dataBlock(nextBlock);
          pos = 0;
          if (block == null) {
            done = true;
          }
          continue;
        }
        HFileCell c = readCell();
        if (start != null && HFileFormat.compare(c.key(), start) < 0) {
          continue;
        }
        if (prefix != null && !startsWith(c.key(), prefix)) {
          done = true;
          continue;
        }
        pending = c;
      }
      return pending != null;
    }

    @Override
    public HFileCell next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      HFileCell c = pending;
      pending = null;
      return c;
    }

    @Override
    public void close() {
      done = true;
      pending = null;
      block = null;
    }

    /** The cell at {@code pos}; moves past it. */
    private HFileCell readCell() {
      byte[] p = block.payload();
      CellBounds c = CellBounds.at(p, pos, tags, mvcc, block::offset, blocks);
      pos = c.end();
      return new HFileCell(Arrays.copyOfRange(p, c.rowStart(), c.rowStart() + c.rowLength()),
          Arrays.copyOfRange(p, c.valueStart(), c.valueStart() + c.valueLength()));
    }
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }
}
