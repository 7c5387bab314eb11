package dev.sluice.internal.basefile.encode;

import dev.sluice.internal.error.Errors;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveComparator;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * BINARY values (length-prefixed when plain) and FIXED_LEN_BYTE_ARRAY values (plain only, as Parquet's v1 writer
 * has it). The dictionary keeps its entries in one byte arena, found by a hash of their bytes, used until
 * {@link DictionaryRule} ends it for the chunk. The page's minimum and maximum are kept as places in the arena or the
 * page buffer, not copies, and compared with {@link Arrays#compareUnsigned} for the unsigned lexicographic order
 * of strings and plain bytes (the column type's comparator otherwise).
 */
final class BinaryValues implements PageValues {
  private static final Class<?> BUFFER_BACKED = Binary.fromConstantByteBuffer(ByteBuffer.allocate(1)).getClass();
  private final int fixedLength;
  private final boolean unsignedOrder;
  private final PrimitiveComparator<Binary> comparator;
  private final PageBuffer plain;
  private final DictionaryRule rule;
  private final PageBuffer arena = new PageBuffer(4096);
  private int[] offsets = new int[64];
  private int[] lengths = new int[64];
  private int[] hashes = new int[64];
  private int[] seenOnPage = new int[64];
  private int dictionarySize;
  private int[] table = new int[128];
  private boolean hasValue;
  private byte[] minArray;
  private int minOffset;
  private int minLength;
  private byte[] maxArray;
  private int maxOffset;
  private int maxLength;
  private byte[] scratch = new byte[64];
  private final Slice slice = new Slice();

  @SuppressWarnings("unchecked")
  BinaryValues(PrimitiveType type, boolean dictionary, int maxDictionaryBytes, int pageSize) {
    PrimitiveTypeName name = type.getPrimitiveTypeName();
    if (name != PrimitiveTypeName.BINARY && name != PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
      throw new IllegalArgumentException("not a byte array column: " + name);
    }
    this.fixedLength = name == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY ? type.getTypeLength() : -1;
    this.comparator = (PrimitiveComparator<Binary>) (PrimitiveComparator<?>) type.comparator();
    this.unsignedOrder = comparator == PrimitiveComparator.UNSIGNED_LEXICOGRAPHICAL_BINARY_COMPARATOR;
    this.rule = new DictionaryRule(dictionary && fixedLength < 0, maxDictionaryBytes);
    this.plain = new PageBuffer(Math.min(pageSize, 64 * 1024));
  }

  @Override
  public void write(Binary value) {
    int length = value.length();
    byte[] array;
    int offset;
    if (value.getClass() != BUFFER_BACKED && slice.capture(value, length)) {
      array = slice.array;
      offset = slice.offset;
    } else {
      ByteBuffer bb = value.toByteBuffer();
      if (bb.hasArray()) {
        array = bb.array();
        offset = bb.arrayOffset() + bb.position();
      } else {
        if (scratch.length < length) {
          scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        bb.duplicate().get(scratch, 0, length);
        array = scratch;
        offset = 0;
      }
    }
    if (fixedLength >= 0 && length != fixedLength) {
      throw Errors.internal("a " + length + "-byte value for a FIXED_LEN_BYTE_ARRAY(" + fixedLength + ") column", null);
    }
    rule.addRaw(length + 4);
    if (rule.on()) {
      int id = idOf(array, offset, length);
      if (seenOnPage[id] != rule.page()) {
        seenOnPage[id] = rule.page();
        observe(arena.array(), offsets[id], length);
      }
      if (rule.add(id)) {
        fallBack();
      }
    } else {
      writePlain(array, offset, length);
      observe(plain.array(), plain.size() - length, length);
    }
  }

  private void writePlain(byte[] array, int offset, int length) {
    if (fixedLength < 0) {
      plain.writeInt(length);
    }
    plain.write(array, offset, length);
  }

  private void observe(byte[] array, int offset, int length) {
    if (!hasValue) {
      minArray = array;
      minOffset = offset;
      minLength = length;
      maxArray = array;
      maxOffset = offset;
      maxLength = length;
      hasValue = true;
    } else if (compare(array, offset, length, minArray, minOffset, minLength) < 0) {
      minArray = array;
      minOffset = offset;
      minLength = length;
    } else if (compare(array, offset, length, maxArray, maxOffset, maxLength) > 0) {
      maxArray = array;
      maxOffset = offset;
      maxLength = length;
    }
  }

  private int compare(byte[] a, int ao, int al, byte[] b, int bo, int bl) {
    if (unsignedOrder) {
      return Arrays.compareUnsigned(a, ao, ao + al, b, bo, bo + bl);
    }
    return comparator.compare(Binary.fromConstantByteArray(a, ao, al), Binary.fromConstantByteArray(b, bo, bl));
  }

  private static int hash(byte[] a, int offset, int length) {
    long h = 0x9E3779B97F4A7C15L ^ length;
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      h = (h ^ PageBuffer.readLong(a, offset + i)) * 0xC2B2AE3D27D4EB4FL;
      h ^= h >>> 31;
    }
    for (; i < length; i++) {
      h = (h ^ (a[offset + i] & 0xff)) * 0x100000001B3L;
    }
    h *= 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }

  private int idOf(byte[] a, int offset, int length) {
    int h = hash(a, offset, length);
    int mask = table.length - 1;
    int s = h & mask;
    byte[] stored = arena.array();
    while (true) {
      int e = table[s];
      if (e == 0) {
        break;
      }
      int id = e - 1;
      if (hashes[id] == h && lengths[id] == length
          && Arrays.equals(stored, offsets[id], offsets[id] + length, a, offset, offset + length)) {
        return id;
      }
      s = (s + 1) & mask;
    }
    int id = dictionarySize++;
    if (id == offsets.length) {
      offsets = Arrays.copyOf(offsets, id * 2);
      lengths = Arrays.copyOf(lengths, id * 2);
      hashes = Arrays.copyOf(hashes, id * 2);
      seenOnPage = Arrays.copyOf(seenOnPage, id * 2);
    }
    offsets[id] = arena.size();
    lengths[id] = length;
    hashes[id] = h;
    seenOnPage[id] = 0;
    arena.write(a, offset, length);
    table[s] = id + 1;
    rule.addEntry(length + 4);
    if (dictionarySize * 2 > table.length) {
      rehash();
    }
    return id;
  }

  private void rehash() {
    int[] bigger = new int[table.length * 2];
    int mask = bigger.length - 1;
    for (int id = 0; id < dictionarySize; id++) {
      int s = hashes[id] & mask;
      while (bigger[s] != 0) {
        s = (s + 1) & mask;
      }
      bigger[s] = id + 1;
    }
    table = bigger;
  }

  private void fallBack() {
    byte[] stored = arena.array();
    rule.fallBack(id -> writePlain(stored, offsets[id], lengths[id]));
  }

  @Override
  public long bufferedSize() {
    return fixedLength >= 0 ? plain.size() : rule.rawBytes();
  }

  @Override
  public long allocatedSize() {
    return plain.capacity() + arena.capacity() + rule.allocatedSize() + 16L * offsets.length + 4L * table.length;
  }

  @Override
  public void addMinMax(Statistics<?> stats) {
    if (hasValue) {
      // "reused": the statistics must copy the bytes, the page buffer is overwritten by the next page
      stats.updateStats(Binary.fromReusedByteArray(minArray, minOffset, minLength));
      stats.updateStats(Binary.fromReusedByteArray(maxArray, maxOffset, maxLength));
    }
  }

  @Override
  public BytesInput pageBytes() {
    return rule.pageBytes(dictionarySize, plain, this::fallBack);
  }

  @Override
  public Encoding pageEncoding() {
    return rule.pageEncoding();
  }

  @Override
  public void startPage() {
    rule.startPage();
    plain.reset();
    hasValue = false;
    minArray = null;
    maxArray = null;
  }

  @Override
  public Optional<DictionaryPage> dictionaryPage() {
    int size = rule.lastUsedSize();
    if (size == 0) {
      return Optional.empty();
    }
    PageBuffer out = new PageBuffer((int) Math.min(Integer.MAX_VALUE - 16, rule.dictionaryBytes()));
    byte[] stored = arena.array();
    for (int id = 0; id < size; id++) {
      out.writeInt(lengths[id]);
      out.write(stored, offsets[id], lengths[id]);
    }
    return Optional.of(new DictionaryPage(out.copy(), size, Encoding.PLAIN_DICTIONARY));
  }

  /**
   * Where a value's bytes already are, learnt from {@link Binary#writeTo(OutputStream)}: a byte-array value hands
   * its array, offset and length to one {@code write} call, no copy made. {@code Binary.toByteBuffer} would do the
   * same through a new {@code ByteBuffer} per value, which the C1 compiler (bin/sluice's upserts run on it) does not
   * optimise away: 8% of a cold Copy-on-Write upsert's samples were those buffers' constructors.
   */
  private static final class Slice extends OutputStream {
    private byte[] array;
    private int offset;
    private int length;
    private int writes;

    /** True if {@code value} gave its bytes as one slice of {@code length} bytes (then in the fields). */
    boolean capture(Binary value, int expectedLength) {
      array = null;
      writes = 0;
      try {
        value.writeTo(this);
      } catch (IOException e) {
        throw Errors.internal("a Parquet value could not give its bytes", e);
      }
      boolean whole = writes == 1 && array != null && length == expectedLength;
      array = whole ? array : null;
      return whole;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      array = b;
      offset = off;
      length = len;
      writes++;
    }

    @Override
    public void write(int b) {
      // a value that gives its bytes one at a time: the caller takes the copying path
      writes += 2;
    }
  }
}
