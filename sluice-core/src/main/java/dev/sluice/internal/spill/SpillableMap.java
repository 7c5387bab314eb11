package dev.sluice.internal.spill;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.CloseableIterator;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

/**
 * A map from record key to value that keeps entries on the heap up to a memory budget and spills the rest to
 * one append-only file on local disk: the log records of a Merge-on-Read file slice, looked up while the base
 * file streams past.
 *
 * <h2>Why a spillable hash map and not an external sort-merge</h2>
 * A snapshot read or compaction streams the base file once, in file order, which is not key order; a sort-merge
 * would have to sort the base file too (a second full pass through disk) or give up streaming. Here the log
 * side is indexed by key once and every base record costs one lookup, wherever it falls.
 *
 * <h2>Layout</h2>
 * <ul>
 *   <li>Entries live in a {@link Utf8KeyTable} (probed by {@code String} or by the key's UTF-8 bytes, so a base
 *   row's key need not be decoded) while the estimated heap of the in-memory entries (key, value by
 *   {@link RecordSerializer#estimateSize}, and a fixed per-entry overhead) stays within the budget. An update of
 *   an in-memory key stays in memory, even past the budget; a removal frees its share.</li>
 *   <li>Past the budget, a new key, and every later update of a spilled key, is appended to the spill file as
 *   {@code varint keyLength, varint valueLength, key UTF-8, value bytes}. A key is in exactly one of the two
 *   places.</li>
 *   <li>Spilled keys are found through a {@link SpillIndex}: open-addressing arrays of a 32-bit fingerprint and
 *   a packed {@code (offset, length)}, 12 bytes per slot (about 16–32 bytes per spilled entry, against roughly
 *   150 for a {@code HashMap<String, Location>}). Keys are not held in memory; a lookup reads the record and
 *   checks the key, so a fingerprint collision costs one extra read, never a wrong answer. The index is not
 *   counted in the budget.</li>
 * </ul>
 *
 * <h2>Costs</h2>
 * An in-memory get is one probe of the table. A spilled get is a table miss, an index probe (a byte-keyed
 * probe decodes the key first), one positional read of exactly the record (lookups arrive in
 * base-file order, so they are random in the spill file: there is no read-ahead or cache to keep warm, and the
 * OS page cache serves a file that fits in RAM) and a decode. Records still in the write buffer are read from
 * it. A put of a new key past the budget is an encode and a buffered append; a put of a key whose fingerprint
 * is in the index first reads that record's key to verify it. Updates and removals of spilled keys leave dead
 * bytes; when they exceed both the live bytes and {@code max(budget, 1 MiB)}, the live records are copied to
 * a fresh file in one sequential pass, so the file stays within about twice its live size. {@link #entries()}
 * reads the spill file sequentially and keeps the records the index still points at.
 *
 * <p>Not thread-safe: one thread at a time (a snapshot read uses one map per file slice). Values may not be
 * {@code null}. Keys must be valid Unicode (no unpaired surrogates), since spilled keys are stored as UTF-8.
 * The map must not be modified while an {@link #entries()} iterator is open.
 *
 * @param <V> value type
 */
public final class SpillableMap<V> implements Closeable {
  /**
   * The table's share per entry: key, hash and value slots (12 bytes, up to twice that while the arrays grow)
   * and two to four {@code int} probe slots.
   */
  static final long ENTRY_OVERHEAD = 40;
  static final long MIN_COMPACTION_BYTES = 1L << 20;
  private static final int SCAN_BUFFER = 1 << 20;

  private final long budget;
  private final RecordSerializer<V> serializer;
  private final Path directory;
  private final int writeBufferBytes;
  private final long minCompactionBytes;
  private final Utf8KeyTable<V> memory = new Utf8KeyTable<>();
  private final ByteSink keyBytes = new ByteSink(64);
  private ByteSink valueBytes = new ByteSink(256);
  private SpillFile file;
  private SpillIndex index;
  private long memoryBytes;
  private long liveSpilledBytes;
  private int lastRecordLength;
  private V found;
  private int modCount;
  private boolean closed;

  private SpillableMap(Builder<V> b) {
    this.budget = b.memoryBudgetBytes;
    this.serializer = b.serializer;
    this.directory = b.spillDirectory;
    this.writeBufferBytes = b.writeBufferBytes;
    this.minCompactionBytes = b.minCompactionBytes;
    this.file = newFile();
  }

  /** A builder for a map whose values {@code serializer} writes. */
  public static <V> Builder<V> builder(RecordSerializer<V> serializer) {
    return new Builder<>(serializer);
  }

  private SpillFile newFile() {
    return new SpillFile(directory, "sluice-spill-", writeBufferBytes);
  }

  /** Sets {@code key} to {@code value}, replacing any value it had. */
  public void put(String key, V value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    checkOpen();
    modCount++;
    long valueSize = serializer.estimateSize(value);
    long entry = ENTRY_OVERHEAD + Serializers.stringHeap(key.length()) + valueSize;
    int fp = SpillIndex.fingerprint(key);
    if (memoryBytes + entry <= budget && (spilledCount() == 0 || index.first(fp) < 0)) {
      // Room in memory and surely not spilled: one HashMap operation whether the key is new or not.
      V previous = memory.put(key, value);
      memoryBytes += previous == null ? entry : valueSize - serializer.estimateSize(previous);
      return;
    }
    V previous = memory.replace(key, value);
    if (previous != null) {
      memoryBytes += valueSize - serializer.estimateSize(previous);
      return;
    }
    try {
      if (spilledCount() > 0) {
        int slot = spilledSlot(key, fp);
        if (slot >= 0) {
          long old = index.location(slot);
          index.setLocation(slot, append(key, value));
          liveSpilledBytes += lastRecordLength - lengthOf(old);
          compactIfWasteful();
          return;
        }
      }
      if (memoryBytes + entry <= budget) {
        memory.put(key, value);
        memoryBytes += entry;
        return;
      }
      long location = append(key, value);
      if (index == null) {
        index = new SpillIndex();
      }
      index.add(fp, location);
      liveSpilledBytes += lastRecordLength;
    } catch (IOException e) {
      throw Errors.storage("write spill file", file.path().toString(), e);
    }
  }

  /** The value of {@code key}, if any. */
  public Optional<V> get(String key) {
    checkOpen();
    V v = memory.get(key);
    if (v != null) {
      return Optional.of(v);
    }
    if (spilledCount() == 0 || key == null) {
      return Optional.empty();
    }
    try {
      return readSpilled(key) >= 0 ? Optional.of(takeFound()) : Optional.empty();
    } catch (IOException e) {
      throw Errors.storage("read spill file", file.path().toString(), e);
    }
  }

  /**
   * The value of the key whose UTF-8 bytes are {@code utf8[offset, offset + length)}, if any: a base row's key
   * as the file holds it, looked up without decoding it (unless entries have spilled).
   */
  public Optional<V> get(byte[] utf8, int offset, int length) {
    checkOpen();
    V v = memory.get(utf8, offset, length);
    if (v != null || spilledCount() == 0) {
      return Optional.ofNullable(v);
    }
    return get(new String(utf8, offset, length, StandardCharsets.UTF_8));
  }

  /** Whether {@code key} has a value. */
  public boolean containsKey(String key) {
    checkOpen();
    if (key == null) {
      return false;
    }
    if (memory.get(key) != null) {
      return true;
    }
    if (spilledCount() == 0) {
      return false;
    }
    try {
      return spilledSlot(key, SpillIndex.fingerprint(key)) >= 0;
    } catch (IOException e) {
      throw Errors.storage("read spill file", file.path().toString(), e);
    }
  }

  /** Removes {@code key}, answering the value it had. */
  public Optional<V> remove(String key) {
    checkOpen();
    if (key == null) {
      return Optional.empty();
    }
    V v = memory.remove(key);
    if (v != null) {
      modCount++;
      memoryBytes -= ENTRY_OVERHEAD + Serializers.stringHeap(key.length()) + serializer.estimateSize(v);
      memoryBytes = Math.max(0, memoryBytes);
      return Optional.of(v);
    }
    if (spilledCount() == 0) {
      return Optional.empty();
    }
    try {
      int slot = readSpilled(key);
      if (slot < 0) {
        return Optional.empty();
      }
      modCount++;
      liveSpilledBytes -= lengthOf(index.location(slot));
      index.removeAt(slot);
      V value = takeFound();
      compactIfWasteful();
      return Optional.of(value);
    } catch (IOException e) {
      throw Errors.storage("read spill file", file.path().toString(), e);
    }
  }

  /**
   * Removes the key whose UTF-8 bytes are {@code utf8[offset, offset + length)}, answering the value it had:
   * {@link #remove(String)} for a key as a base file holds it, without decoding it (unless entries have spilled).
   */
  public Optional<V> remove(byte[] utf8, int offset, int length) {
    checkOpen();
    int slot = memory.slotOf(utf8, offset, length);
    if (slot >= 0) {
      int chars = memory.keyAt(slot).length();
      V v = memory.removeSlot(slot);
      modCount++;
      memoryBytes -= ENTRY_OVERHEAD + Serializers.stringHeap(chars) + serializer.estimateSize(v);
      memoryBytes = Math.max(0, memoryBytes);
      return Optional.of(v);
    }
    if (spilledCount() == 0) {
      return Optional.empty();
    }
    return remove(new String(utf8, offset, length, StandardCharsets.UTF_8));
  }

  /** The number of entries, in memory and spilled. */
  public long size() {
    return memory.size() + spilledCount();
  }

  /** The number of entries held in memory. */
  public long inMemoryCount() {
    return memory.size();
  }

  /** The number of entries in the spill file. */
  public long spilledCount() {
    return index == null ? 0 : index.size();
  }

  /** Bytes written to the current spill file, including records since replaced or removed. */
  public long spilledBytes() {
    return file.length();
  }

  /** The estimated heap bytes of the in-memory entries, as compared with the budget. */
  public long estimatedMemoryBytes() {
    return memoryBytes;
  }

  /** Heap bytes of the spilled entries' index (not counted in the budget). */
  long indexHeapBytes() {
    return index == null ? 0 : index.heapBytes();
  }

  /**
   * Every entry once: the in-memory entries, then the spilled ones in spill-file order. The map must not be
   * changed until the iterator is closed or exhausted.
   */
  public CloseableIterator<Map.Entry<String, V>> entries() {
    checkOpen();
    try {
      return new Entries(new SpillScanner(file.channelForScan(), file.length(), SCAN_BUFFER));
    } catch (IOException e) {
      throw Errors.storage("read spill file", file.path().toString(), e);
    }
  }

  /** Deletes the spill file and drops every entry. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    memory.clear();
    index = null;
    try {
      file.close();
    } catch (IOException e) {
      throw Errors.storage("delete spill file", file.path().toString(), e);
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("SpillableMap is closed");
    }
  }

  /**
   * The index slot of spilled {@code key}, or -1, reading each candidate record whole; the value found is left
   * for {@link #takeFound()}.
   */
  private int readSpilled(String key) throws IOException {
    int fp = SpillIndex.fingerprint(key);
    for (int s = index.first(fp); s >= 0; s = index.next(fp, s)) {
      long location = index.location(s);
      ByteSource record = file.read(SpillIndex.offsetOf(location), lengthOf(location));
      int keyLength = record.readVarInt();
      int valueLength = record.readVarInt();
      if (KeyBytes.equal(record.array(), record.position(), keyLength, key)) {
        record.advance(keyLength);
        found = decode(record, valueLength);
        return s;
      }
    }
    return -1;
  }

  private V takeFound() {
    V v = found;
    found = null;
    return v;
  }

  /** The index slot of spilled {@code key}, or -1; reads only the candidates' headers and keys. */
  private int spilledSlot(String key, int fp) throws IOException {
    for (int s = index.first(fp); s >= 0; s = index.next(fp, s)) {
      long location = index.location(s);
      long offset = SpillIndex.offsetOf(location);
      int length = SpillIndex.lengthOf(location);
      int prefix = SpillFile.MAX_HEADER + 3 * key.length();
      if (length == SpillIndex.LENGTH_ESCAPE || prefix < length) {
        length = (int) Math.min(Math.min(prefix, Integer.MAX_VALUE), file.length() - offset);
      }
      ByteSource record = file.read(offset, length);
      int keyLength = record.readVarInt();
      record.readVarInt();
      if (keyLength <= record.remaining() && KeyBytes.equal(record.array(), record.position(), keyLength, key)) {
        return s;
      }
    }
    return -1;
  }

  private int lengthOf(long location) throws IOException {
    int length = SpillIndex.lengthOf(location);
    return length == SpillIndex.LENGTH_ESCAPE ? file.recordLengthAt(SpillIndex.offsetOf(location)) : length;
  }

  private long append(String key, V value) throws IOException {
    KeyBytes.encode(key, keyBytes);
    valueBytes.reset();
    serializer.write(value, valueBytes);
    long offset = file.append(keyBytes.array(), keyBytes.size(), valueBytes.array(), valueBytes.size());
    if (offset > SpillIndex.MAX_OFFSET) {
      throw Errors.unsupported("A spill file over 1 TiB (" + file.path() + ")",
          "Raise the memory budget or split the work into smaller file slices.");
    }
    lastRecordLength = SpillFile.recordLength(keyBytes.size(), valueBytes.size());
    if (valueBytes.array().length > SpillFile.KEPT_READ_BUFFER) {
      valueBytes = new ByteSink(256);
    }
    return SpillIndex.pack(offset, lastRecordLength);
  }

  private V decode(ByteSource record, int valueLength) throws IOException {
    int before = record.remaining();
    V value = serializer.read(record);
    int used = before - record.remaining();
    if (used != valueLength) {
      throw Errors.internal("the value serializer " + serializer.getClass().getName() + " read " + used
          + " bytes of a " + valueLength + "-byte value from " + file.path(), null);
    }
    return value;
  }

  private void compactIfWasteful() throws IOException {
    long dead = file.length() - liveSpilledBytes;
    if (dead <= liveSpilledBytes || dead <= Math.max(budget, minCompactionBytes)) {
      return;
    }
    SpillFile fresh = newFile();
    boolean done = false;
    try {
      SpillScanner scan = new SpillScanner(file.channelForScan(), file.length(), SCAN_BUFFER);
      while (scan.next()) {
        int slot = index.slotAt(SpillIndex.fingerprint(scan.key()), scan.offset());
        if (slot >= 0) {
          // New offsets never exceed old ones, so a moved entry cannot be mistaken for a later record.
          long at = fresh.appendRecord(scan.recordArray(), scan.recordStart(), scan.recordLength());
          index.setLocation(slot, SpillIndex.pack(at, scan.recordLength()));
        }
      }
      done = true;
    } finally {
      if (!done) {
        fresh.close();
      }
    }
    SpillFile old = file;
    file = fresh;
    old.close();
  }

  /** In-memory entries first, then a sequential scan of the spill file keeping the live records. */
  private final class Entries implements CloseableIterator<Map.Entry<String, V>> {
    private final int expectedModCount = modCount;
    private final Iterator<Map.Entry<String, V>> inMemory = memory.entries();
    private final SpillScanner scan;
    private long spilledLeft = spilledCount();
    private Map.Entry<String, V> pending;
    private boolean open = true;

    Entries(SpillScanner scan) {
      this.scan = scan;
    }

    @Override
    public boolean hasNext() {
      if (pending != null) {
        return true;
      }
      if (!open) {
        return false;
      }
      checkOpen();
      if (modCount != expectedModCount) {
        throw new ConcurrentModificationException("SpillableMap changed while its entries were iterated");
      }
      if (inMemory.hasNext()) {
        Map.Entry<String, V> e = inMemory.next();
        pending = Map.entry(e.getKey(), e.getValue());
        return true;
      }
      try {
        while (spilledLeft > 0 && scan.next()) {
          String key = scan.key();
          if (index.slotAt(SpillIndex.fingerprint(key), scan.offset()) >= 0) {
            ByteSource value = scan.value();
            pending = Map.entry(key, decode(value, value.remaining()));
            spilledLeft--;
            return true;
          }
        }
      } catch (IOException e) {
        throw Errors.storage("read spill file", file.path().toString(), e);
      }
      open = false;
      return false;
    }

    @Override
    public Map.Entry<String, V> next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Map.Entry<String, V> e = pending;
      pending = null;
      return e;
    }

    @Override
    public void close() {
      open = false;
      pending = null;
    }
  }

  /**
   * Options of a {@link SpillableMap}.
   *
   * @param <V> value type
   */
  public static final class Builder<V> {
    private final RecordSerializer<V> serializer;
    private long memoryBudgetBytes = 64L << 20;
    private Path spillDirectory;
    private int writeBufferBytes = 256 << 10;
    private long minCompactionBytes = MIN_COMPACTION_BYTES;

    private Builder(RecordSerializer<V> serializer) {
      this.serializer = Objects.requireNonNull(serializer, "serializer");
    }

    /** Estimated heap bytes of entries to keep in memory before spilling (default 64 MiB); 0 spills all. */
    public Builder<V> memoryBudgetBytes(long bytes) {
      if (bytes < 0) {
        throw Errors.badRequest("Spillable map memory budget " + bytes, "it is negative",
            "Use 0 or more bytes.");
      }
      this.memoryBudgetBytes = bytes;
      return this;
    }

    /** The local directory for the spill file (required); created on the first spill if missing. */
    public Builder<V> spillDirectory(Path directory) {
      this.spillDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** Size of the spill file's write buffer (default 256 KiB), allocated on the first spill. */
    public Builder<V> writeBufferBytes(int bytes) {
      this.writeBufferBytes = bytes;
      return this;
    }

    /** Dead bytes below which the spill file is never compacted; lowered by tests to exercise compaction. */
    Builder<V> minCompactionBytes(long bytes) {
      this.minCompactionBytes = bytes;
      return this;
    }

    /** The map; nothing is written until the first spill. */
    public SpillableMap<V> build() {
      if (spillDirectory == null) {
        throw Errors.badRequest("Spillable map", "no spill directory was given",
            "Set a local directory with spillDirectory(...).");
      }
      return new SpillableMap<>(this);
    }
  }
}
