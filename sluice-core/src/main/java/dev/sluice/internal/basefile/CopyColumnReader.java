package dev.sluice.internal.basefile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * A {@link ColumnReader} over one column chunk for {@link RowCopier} and {@link RowAssembler}: it decodes data pages (v1 and v2) with plain
 * or dictionary values and RLE or bit-packed levels straight from each page's bytes.
 *
 * <p>Why not Parquet's own reader: it hands out every plain binary value as a sliced {@code ByteBuffer} wrapped in a
 * {@code Binary}, which the copier then unwrapped into a third object; that was 40% of a Copy-on-Write merge's
 * allocation. Here a plain binary is one {@code Binary} over the page's array, and a dictionary's binaries are
 * made once per chunk. Chunks with any other encoding are left to Parquet's reader ({@link #readsAll}).
 *
 * <p>Values read are constant: they point into the page arrays, which the target's dictionary and statistics may
 * keep until its row group is written.
 */
final class CopyColumnReader implements ColumnReader {
  private static final Set<Encoding> SUPPORTED = EnumSet.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY,
      Encoding.RLE_DICTIONARY, Encoding.RLE, Encoding.BIT_PACKED);

  private final ColumnDescriptor column;
  private final PageReader pages;
  private final PrimitiveTypeName type;
  private final int maxRl;
  private final int maxDl;
  private final long total;
  private final int fixedLength;
  private final Dictionary dictionary;
  private final Binary[] dictionaryBinaries;
  private final LevelDecoder rl = new LevelDecoder();
  private final LevelDecoder dl = new LevelDecoder();
  /** Dictionary ids, or the values of RLE-encoded booleans. */
  private final LevelDecoder ids = new LevelDecoder();

  private boolean idsInUse;
  private byte[] data;
  private int pos;
  private int end;
  /** The index of the next plain boolean in the page's bit-packed values. */
  private int booleanIndex;
  private int booleanStart;
  private int leftInPage;
  private long consumed;
  private int currentRl;
  private int currentDl;
  private boolean taken;
  private long longValue;
  private Binary binaryValue;

  private CopyColumnReader(ColumnDescriptor column, PageReader pages, Dictionary dictionary) {
    this.column = column;
    this.pages = pages;
    this.type = column.getPrimitiveType().getPrimitiveTypeName();
    this.maxRl = column.getMaxRepetitionLevel();
    this.maxDl = column.getMaxDefinitionLevel();
    this.total = pages.getTotalValueCount();
    this.fixedLength = type == PrimitiveTypeName.INT96 ? 12 : column.getPrimitiveType().getTypeLength();
    this.dictionary = dictionary;
    if (dictionary != null && (type == PrimitiveTypeName.BINARY || type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
        || type == PrimitiveTypeName.INT96)) {
      dictionaryBinaries = new Binary[dictionary.getMaxId() + 1];
      for (int i = 0; i < dictionaryBinaries.length; i++) {
        dictionaryBinaries[i] = RowCopier.onHeap(dictionary.decodeToBinary(i));
      }
    } else {
      dictionaryBinaries = null;
    }
  }

  /**
   * True if every chunk of {@code column} in {@code rowGroups} has only the encodings this reader decodes (those
   * Parquet's v1 and v2 writers use with dictionaries on or off, except the delta encodings and byte stream split).
   */
  static boolean readsAll(ColumnDescriptor column, Iterable<BlockMetaData> rowGroups) {
    for (BlockMetaData group : rowGroups) {
      ColumnChunkMetaData chunk = chunk(group, column);
      if (chunk == null || !SUPPORTED.containsAll(chunk.getEncodings())) {
        return false;
      }
    }
    return true;
  }

  private static ColumnChunkMetaData chunk(BlockMetaData group, ColumnDescriptor column) {
    for (ColumnChunkMetaData c : group.getColumns()) {
      if (Arrays.equals(c.getPath().toArray(), column.getPath())) {
        return c;
      }
    }
    return null;
  }

  /** A reader positioned at the chunk's first value (its dictionary and first page read from {@code pages}). */
  static CopyColumnReader open(ColumnDescriptor column, PageReader pages) throws IOException {
    DictionaryPage page = pages.readDictionaryPage();
    Dictionary dictionary = page == null ? null : page.getEncoding().initDictionary(column, page);
    CopyColumnReader r = new CopyColumnReader(column, pages, dictionary);
    if (r.total > 0) {
      r.nextLevels();
    }
    return r;
  }

  @Override
  public long getTotalValueCount() {
    return total;
  }

  @Override
  public void consume() {
    if (!taken && currentDl == maxDl) {
      skipValue();
    }
    taken = false;
    consumed++;
    if (consumed < total) {
      nextLevels();
    }
  }

  private void nextLevels() {
    while (leftInPage == 0) {
      readPage();
    }
    leftInPage--;
    currentRl = maxRl == 0 ? 0 : rl.next();
    currentDl = maxDl == 0 ? 0 : dl.next();
  }

  @Override
  public int getCurrentRepetitionLevel() {
    return currentRl;
  }

  @Override
  public int getCurrentDefinitionLevel() {
    return currentDl;
  }

  @Override
  public void writeCurrentValueToConverter() {
    throw new UnsupportedOperationException("values are taken with the typed getters");
  }

  @Override
  public void skip() {
    if (!taken) {
      skipValue();
      taken = true;
    }
  }

  @Override
  public int getCurrentValueDictionaryID() {
    throw new UnsupportedOperationException("dictionary ids are not exposed");
  }

  @Override
  public int getInteger() {
    if (!taken) {
      longValue = idsInUse ? dictionary.decodeToInt(ids.next()) : readIntLe();
      taken = true;
    }
    return (int) longValue;
  }

  @Override
  public boolean getBoolean() {
    if (!taken) {
      longValue = readBoolean() ? 1 : 0;
      taken = true;
    }
    return longValue != 0;
  }

  @Override
  public long getLong() {
    if (!taken) {
      longValue = idsInUse ? dictionary.decodeToLong(ids.next()) : readLongLe();
      taken = true;
    }
    return longValue;
  }

  @Override
  public Binary getBinary() {
    if (!taken) {
      binaryValue = idsInUse ? dictionaryBinaries[ids.next()] : readBinary();
      taken = true;
    }
    return binaryValue;
  }

  /**
   * A copy of the current plain-encoded value's bytes, taking the value, if the current page's values are not
   * dictionary-encoded and the value was not taken yet; otherwise null and nothing is taken. A string column's value
   * becomes its Avro {@code Utf8} from this copy with no {@link Binary} in between (one object less per value).
   */
  byte[] takePlainBytes() {
    if (idsInUse || taken) {
      return null;
    }
    int length = type == PrimitiveTypeName.BINARY ? readIntLe() : fixedLength;
    int start = pos;
    advance(length);
    taken = true;
    return java.util.Arrays.copyOfRange(data, start, start + length);
  }

  /**
   * The index in {@code set} of the current value's bytes, read where they lie in the page (no {@link Binary}, no
   * copy), taking the value, if the current page's values are plain-encoded and the value was not taken yet: -1 if
   * the set does not hold it. Otherwise -2 and nothing is taken. A key lookup probes a million keys this way with
   * no object per key (a cold JVM's C1 code allocates every one).
   */
  int takePlainIndexIn(Utf8KeySet set) {
    if (idsInUse || taken) {
      return -2;
    }
    int length = type == PrimitiveTypeName.BINARY ? readIntLe() : fixedLength;
    int start = pos;
    advance(length);
    taken = true;
    return set.indexOf(data, start, start + length);
  }

  /**
   * The current value's dictionary id, taking the value, if the current page's values are dictionary-encoded and
   * the value was not taken yet; otherwise -1 and nothing is taken. {@link #dictionaryBinary} gives the value.
   */
  int takeDictionaryId() {
    if (!idsInUse || taken) {
      return -1;
    }
    taken = true;
    return ids.next();
  }

  /** The chunk's dictionary, if it has one. */
  Optional<Dictionary> dictionary() {
    return Optional.ofNullable(dictionary);
  }

  /** The number of entries in the chunk's dictionary of binaries (0 without one). */
  int dictionarySize() {
    return dictionaryBinaries == null ? 0 : dictionaryBinaries.length;
  }

  /** Entry {@code id} of the chunk's dictionary of binaries. */
  Binary dictionaryBinary(int id) {
    return dictionaryBinaries[id];
  }

  @Override
  public float getFloat() {
    if (!taken) {
      longValue = Float.floatToRawIntBits(idsInUse ? dictionary.decodeToFloat(ids.next())
          : Float.intBitsToFloat(readIntLe()));
      taken = true;
    }
    return Float.intBitsToFloat((int) longValue);
  }

  @Override
  public double getDouble() {
    if (!taken) {
      longValue = idsInUse ? Double.doubleToRawLongBits(dictionary.decodeToDouble(ids.next())) : readLongLe();
      taken = true;
    }
    return Double.longBitsToDouble(longValue);
  }

  @Override
  public ColumnDescriptor getDescriptor() {
    return column;
  }

  private void skipValue() {
    if (idsInUse) {
      ids.next();
      return;
    }
    switch (type) {
      case INT32, FLOAT -> advance(4);
      case INT64, DOUBLE -> advance(8);
      case BOOLEAN -> readBoolean();
      case BINARY -> advance(4 + lengthAt(pos));
      default -> advance(fixedLength);
    }
  }

  private void advance(int n) {
    if (n < 0 || pos + n > end) {
      throw corrupt();
    }
    pos += n;
  }

  private int lengthAt(int at) {
    if (at + 4 > end) {
      throw corrupt();
    }
    return littleEndianInt(data, at);
  }

  private int readIntLe() {
    int v = lengthAt(pos);
    pos += 4;
    return v;
  }

  private long readLongLe() {
    long lo = readIntLe() & 0xffffffffL;
    long hi = readIntLe() & 0xffffffffL;
    return lo | hi << 32;
  }

  private boolean readBoolean() {
    if (idsInUse) {
      return ids.next() != 0;
    }
    int at = booleanStart + (booleanIndex >>> 3);
    if (at >= end) {
      throw corrupt();
    }
    boolean v = (data[at] >>> (booleanIndex & 7) & 1) != 0;
    booleanIndex++;
    return v;
  }

  private Binary readBinary() {
    int length = type == PrimitiveTypeName.BINARY ? readIntLe() : fixedLength;
    int start = pos;
    advance(length);
    return Binary.fromConstantByteArray(data, start, length);
  }

  /** The column's dotted path, for messages. */
  private String columnName() {
    return String.join(".", column.getPath());
  }

  private IllegalStateException corrupt() {
    return new IllegalStateException("a data page of column " + columnName()
        + " ends before its values do");
  }

  private void readPage() {
    DataPage page = pages.readPage();
    if (page == null) {
      throw new IllegalStateException("column " + columnName() + " has fewer values ("
          + consumed + ") than its chunk's count (" + total + ")");
    }
    try {
      if (page instanceof DataPageV1 v1) {
        readPageV1(v1);
      } else {
        readPageV2((DataPageV2) page);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot decode a data page of column " + columnName(), e);
    }
    leftInPage = page.getValueCount();
  }

  private void readPageV1(DataPageV1 page) throws IOException {
    byte[] bytes = arrayOf(page.getBytes());
    int at = 0;
    at = levels(rl, maxRl, page.getRlEncoding(), bytes, at, page.getValueCount());
    at = levels(dl, maxDl, page.getDlEncoding(), bytes, at, page.getValueCount());
    values(page.getValueEncoding(), bytes, at, bytes.length);
  }

  private int levels(LevelDecoder decoder, int max, Encoding encoding, byte[] bytes, int at, int count) {
    if (max == 0) {
      return at;
    }
    int width = bitWidth(max);
    if (encoding == Encoding.RLE) {
      int length = littleEndianInt(bytes, at);
      decoder.rle(bytes, at + 4, at + 4 + length, width);
      return at + 4 + length;
    }
    if (encoding == Encoding.BIT_PACKED) {
      int length = (int) (((long) count * width + 7) / 8);
      decoder.packedMsbFirst(bytes, at, at + length, width);
      return at + length;
    }
    throw unsupported(encoding);
  }

  private void readPageV2(DataPageV2 page) throws IOException {
    if (maxRl > 0) {
      byte[] b = arrayOf(page.getRepetitionLevels());
      rl.rle(b, 0, b.length, bitWidth(maxRl));
    }
    if (maxDl > 0) {
      byte[] b = arrayOf(page.getDefinitionLevels());
      dl.rle(b, 0, b.length, bitWidth(maxDl));
    }
    byte[] b = arrayOf(page.getData());
    values(page.getDataEncoding(), b, 0, b.length);
  }

  /**
   * The page's bytes as an array: the array itself when the bytes are all of one (a decompressed page: the codec made
   * it for this page alone), else a copy. Parquet's {@code toByteArray()} copies even then: a second array and a copy
   * of every page a scan reads (about 230 MB for a 1.15M-row query).
   */
  static byte[] arrayOf(BytesInput in) throws IOException {
    // a direct buffer comes back as a copy of its own, which is then the whole of its array
    ByteBuffer b = PageCodecs.heap(in);
    byte[] array = b.array();
    int from = b.arrayOffset() + b.position();
    if (from == 0 && b.remaining() == array.length) {
      return array;
    }
    return Arrays.copyOfRange(array, from, from + b.remaining());
  }

  private void values(Encoding encoding, byte[] bytes, int at, int limit) {
    data = bytes;
    end = limit;
    pos = at;
    booleanStart = at;
    booleanIndex = 0;
    switch (encoding) {
      case PLAIN -> idsInUse = false;
      case PLAIN_DICTIONARY, RLE_DICTIONARY -> {
        if (dictionary == null) {
          throw new IllegalStateException("column " + columnName()
              + " has dictionary-encoded values and no dictionary page");
        }
        if (at >= limit) {
          // a page of nulls only has no bit width
          ids.rle(bytes, at, limit, 0);
        } else {
          ids.rle(bytes, at + 1, limit, bytes[at] & 0xff);
        }
        idsInUse = true;
      }
      case RLE -> {
        if (type != PrimitiveTypeName.BOOLEAN) {
          throw unsupported(encoding);
        }
        int length = littleEndianInt(bytes, at);
        ids.rle(bytes, at + 4, at + 4 + length, 1);
        idsInUse = true;
      }
      default -> throw unsupported(encoding);
    }
  }

  private IllegalStateException unsupported(Encoding encoding) {
    return new IllegalStateException("column " + columnName() + " has a page encoded as "
        + encoding + ", which its chunk's metadata did not list");
  }

  private static int littleEndianInt(byte[] b, int at) {
    if (at + 4 > b.length) {
      throw new IllegalStateException("a data page ends inside a length prefix");
    }
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
  }

  private static int bitWidth(int max) {
    return 32 - Integer.numberOfLeadingZeros(max);
  }
}
