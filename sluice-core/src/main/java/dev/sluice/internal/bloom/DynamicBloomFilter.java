package dev.sluice.internal.bloom;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * {@link BloomFilterType#DYNAMIC_V0}: rows of equally sized bit vectors. Keys go into the last row until it holds
 * {@code entriesPerRow} keys; then a row is added while {@code rows * entriesPerRow < maxEntries}. Past that the
 * filter is full and keys go round-robin over the rows. A key may be present if any row may contain it.
 *
 * <p>Serialized (big-endian): the bit vector header of the row shape, {@code int32 entriesPerRow},
 * {@code int32 keysInCurrentRow}, {@code int32 rowCount}, then each row as a {@link BitVector}. The maximum entry
 * count and the round-robin position are not stored (as in Hudi): a deserialized filter has maximum 0.
 */
final class DynamicBloomFilter implements BloomFilter {
  private final int vectorSize;
  private final int nbHash;
  private final int hashType;
  private final int entriesPerRow;
  private final int maxEntries;
  private int keysInCurrentRow;
  private boolean full;
  private int roundRobin;
  private BitVector[] rows;
  /** All rows hash like the header, so one hash pass can probe every row. */
  private final boolean uniform;

  DynamicBloomFilter(int vectorSize, int nbHash, int hashType, int entriesPerRow, int maxEntries) {
    this(vectorSize, nbHash, hashType, entriesPerRow, maxEntries, 0,
        new BitVector[] {new BitVector(vectorSize, nbHash, hashType)});
  }

  private DynamicBloomFilter(int vectorSize, int nbHash, int hashType, int entriesPerRow, int maxEntries,
      int keysInCurrentRow, BitVector[] rows) {
    this.vectorSize = vectorSize;
    this.nbHash = nbHash;
    this.hashType = hashType;
    this.entriesPerRow = entriesPerRow;
    this.maxEntries = maxEntries;
    this.keysInCurrentRow = keysInCurrentRow;
    this.rows = rows;
    boolean same = true;
    for (BitVector r : rows) {
      same &= r.vectorSize == vectorSize && r.nbHash == nbHash && r.hashType == hashType;
    }
    this.uniform = same;
  }

  @Override
  public void add(String key) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    BitVector.checkKey(bytes);
    BitVector row = activeRow();
    if (row == null) {
      rows = Arrays.copyOf(rows, rows.length + 1);
      row = new BitVector(vectorSize, nbHash, hashType);
      rows[rows.length - 1] = row;
      keysInCurrentRow = 0;
    }
    row.add(bytes);
    keysInCurrentRow++;
  }

  /** The row for the next key, or null when a new row must be added (same decisions as Hudi's filter). */
  private BitVector activeRow() {
    if (full) {
      return rows[Math.floorMod(roundRobin++, rows.length)];
    }
    if (keysInCurrentRow >= entriesPerRow) {
      if (rows.length * entriesPerRow < maxEntries) {
        return null;
      }
      full = true;
      return rows[0];
    }
    return rows[rows.length - 1];
  }

  @Override
  public boolean mightContain(String key) {
    BitVector[] rs = rows;
    if (rs.length == 1) {
      return rs[0].mightContain(key.getBytes(StandardCharsets.UTF_8));
    }
    if (!uniform || rs.length > 64) {
      for (BitVector r : rs) {
        // each row prepares (overwrites) its own copy: rows may hash differently
        if (r.mightContain(key.getBytes(StandardCharsets.UTF_8))) {
          return true;
        }
      }
      return false;
    }
    BitVector first = rs[0];
    byte[] prepared = first.prepare(key.getBytes(StandardCharsets.UTF_8));
    // one pass over the hash chain; 'alive' holds the rows whose bits were all set so far
    long alive = rs.length == 64 ? -1L : (1L << rs.length) - 1;
    int seed = 0;
    for (int i = 0; i < nbHash; i++) {
      seed = first.hashPrepared(prepared, seed);
      int pos = Math.abs(seed % vectorSize);
      int word = pos >>> 6;
      long bit = 1L << pos;
      for (long m = alive; m != 0; m &= m - 1) {
        int r = Long.numberOfTrailingZeros(m);
        if ((rs[r].words[word] & bit) == 0) {
          alive &= ~(1L << r);
        }
      }
      if (alive == 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The number of distinct keys the bits say were added: per row, {@code -(m / k) ln(1 - set / m)} for {@code m}
   * bits, {@code k} hashes and {@code set} bits set. The serialized state does not count keys added round-robin
   * once the filter is full; the bits do.
   */
  double estimatedKeys() {
    double keys = 0;
    for (BitVector r : rows) {
      keys += r.estimatedKeys();
    }
    return keys;
  }

  /**
   * A copy holding this filter's keys that takes further keys as {@code fresh} (a new filter) would, with its
   * maximum; null if the two do not hash alike.
   */
  DynamicBloomFilter continuedAs(DynamicBloomFilter fresh) {
    if (!uniform || vectorSize != fresh.vectorSize || nbHash != fresh.nbHash || hashType != fresh.hashType
        || entriesPerRow != fresh.entriesPerRow) {
      return null;
    }
    BitVector[] copy = new BitVector[rows.length];
    for (int i = 0; i < rows.length; i++) {
      copy[i] = rows[i].copy();
    }
    return new DynamicBloomFilter(vectorSize, nbHash, hashType, entriesPerRow, fresh.maxEntries, keysInCurrentRow, copy);
  }

  @Override
  public String serialize() {
    int size = BitVector.HEADER_BYTES + 12;
    for (BitVector r : rows) {
      size += r.serializedSize();
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    BitVector.writeHeader(out, nbHash, hashType, vectorSize);
    out.putInt(entriesPerRow);
    out.putInt(keysInCurrentRow);
    out.putInt(rows.length);
    for (BitVector r : rows) {
      r.writeTo(out);
    }
    return Base64.getEncoder().encodeToString(out.array());
  }

  @Override
  public BloomFilterType type() {
    return BloomFilterType.DYNAMIC_V0;
  }

  int rowCount() {
    return rows.length;
  }

  BitVector row(int i) {
    return rows[i];
  }

  int keysInCurrentRow() {
    return keysInCurrentRow;
  }

  static DynamicBloomFilter read(ByteBuffer in) {
    int[] h = BitVector.readHeader(in);
    BitVector.checkShape(h[2], h[0], h[1]);
    BitVector.need(in, 12);
    int entriesPerRow = in.getInt();
    int keysInCurrentRow = in.getInt();
    int rowCount = in.getInt();
    if (rowCount <= 0) {
      throw new IllegalArgumentException("dynamic bloom filter must have at least one row, has " + rowCount);
    }
    BitVector[] rows = new BitVector[Math.min(rowCount, 1024)];
    for (int i = 0; i < rowCount; i++) {
      if (i == rows.length) {
        rows = Arrays.copyOf(rows, rows.length * 2);
      }
      rows[i] = BitVector.readFrom(in);
    }
    return new DynamicBloomFilter(h[2], h[0], h[1], entriesPerRow, 0, keysInCurrentRow,
        Arrays.copyOf(rows, rowCount));
  }
}
