package dev.sluice.internal.bloom;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One Hadoop-style bloom filter bit vector: {@code nbHash} positions per key, each {@code abs(h % vectorSize)} where
 * {@code h} chains the hash with the previous result as seed (starting at 0).
 *
 * <p>Serialized (big-endian): {@code int32 -1, int32 nbHash, int8 hashType, int32 vectorSize}, then
 * {@code ceil(vectorSize / 8)} bytes with bit {@code i} in byte {@code i / 8} at mask {@code 1 << (i % 8)}. A positive
 * first int is the legacy header: it is {@code nbHash}, the hash is Jenkins and {@code vectorSize} follows.
 */
final class BitVector {
  /** The header's version marker; negative so that legacy headers (starting with nbHash) stay readable. */
  private static final int VERSION = -1;
  /** Header bytes of the current format. */
  static final int HEADER_BYTES = 13;

  final int vectorSize;
  final int nbHash;
  final int hashType;
  /** Bit i is {@code words[i >>> 6] & (1L << i)}, like {@link java.util.BitSet}. */
  final long[] words;

  BitVector(int vectorSize, int nbHash, int hashType) {
    checkShape(vectorSize, nbHash, hashType);
    this.vectorSize = vectorSize;
    this.nbHash = nbHash;
    this.hashType = hashType;
    this.words = new long[(int) (((long) vectorSize + 63) >>> 6)];
  }

  /** Distinct keys added, estimated from the fraction of bits set (the standard bloom filter estimate). */
  double estimatedKeys() {
    long set = 0;
    for (long w : words) {
      set += Long.bitCount(w);
    }
    if (set >= vectorSize) {
      return Double.POSITIVE_INFINITY;
    }
    return -((double) vectorSize / nbHash) * Math.log1p(-(double) set / vectorSize);
  }

  /** An independent copy. */
  BitVector copy() {
    BitVector c = new BitVector(vectorSize, nbHash, hashType);
    System.arraycopy(words, 0, c.words, 0, words.length);
    return c;
  }

  /** Rejects sizes and hash types no filter can have. */
  static void checkShape(int vectorSize, int nbHash, int hashType) {
    if (vectorSize <= 0) {
      throw new IllegalArgumentException("bloom filter bit count must be > 0, was " + vectorSize);
    }
    if (nbHash <= 0) {
      throw new IllegalArgumentException("bloom filter hash count must be > 0, was " + nbHash);
    }
    if (hashType != KeyHash.MURMUR && hashType != KeyHash.JENKINS) {
      throw new IllegalArgumentException("unknown bloom filter hash type " + hashType);
    }
  }

  /** True if {@code other} hashes keys to the same positions. */
  boolean sameShape(BitVector other) {
    return vectorSize == other.vectorSize && nbHash == other.nbHash && hashType == other.hashType;
  }

  /** Sets the bits of a key given as UTF-8 bytes; the array is overwritten. */
  void add(byte[] key) {
    addPrepared(prepare(key));
  }

  /** True if all bits of a key given as UTF-8 bytes are set; the array is overwritten. */
  boolean mightContain(byte[] key) {
    return mightContainPrepared(prepare(key));
  }

  /** Turns key bytes (in place) into what {@link #hashPrepared} takes: pre-mixed for Murmur, as is for Jenkins. */
  byte[] prepare(byte[] key) {
    checkKey(key);
    if (hashType == KeyHash.MURMUR) {
      KeyHash.mixInPlace(key);
    }
    return key;
  }

  /** The next hash in the chain, for a key from {@link #prepare}. */
  int hashPrepared(byte[] prepared, int seed) {
    return hashType == KeyHash.MURMUR ? KeyHash.murmurMixed(prepared, seed) : KeyHash.jenkins(prepared, seed);
  }

  void addPrepared(byte[] prepared) {
    int seed = 0;
    for (int i = 0; i < nbHash; i++) {
      seed = hashPrepared(prepared, seed);
      int pos = Math.abs(seed % vectorSize);
      words[pos >>> 6] |= 1L << pos;
    }
  }

  /** Stops at the first clear bit. */
  boolean mightContainPrepared(byte[] prepared) {
    int seed = 0;
    for (int i = 0; i < nbHash; i++) {
      seed = hashPrepared(prepared, seed);
      int pos = Math.abs(seed % vectorSize);
      if ((words[pos >>> 6] & (1L << pos)) == 0) {
        return false;
      }
    }
    return true;
  }

  static void checkKey(byte[] key) {
    if (key.length == 0) {
      // Hudi's hash function rejects empty keys too; an empty record key is never valid
      throw new IllegalArgumentException("bloom filter keys must not be empty");
    }
  }

  /** Bytes of the bit array. */
  int bitBytes() {
    return (int) (((long) vectorSize + 7) >>> 3);
  }

  /** Bytes {@link #writeTo} writes. */
  int serializedSize() {
    return HEADER_BYTES + bitBytes();
  }

  /** Writes the header fields of the current format. */
  static void writeHeader(ByteBuffer out, int nbHash, int hashType, int vectorSize) {
    out.putInt(VERSION);
    out.putInt(nbHash);
    out.put((byte) hashType);
    out.putInt(vectorSize);
  }

  /** Writes header and bits. */
  void writeTo(ByteBuffer out) {
    writeHeader(out, nbHash, hashType, vectorSize);
    int n = bitBytes();
    for (int j = 0; j < n; j++) {
      out.put((byte) (words[j >>> 3] >>> ((j & 7) << 3)));
    }
  }

  /** The header of a filter: {@code {nbHash, hashType, vectorSize}}, either format. */
  static int[] readHeader(ByteBuffer in) {
    need(in, 4);
    int first = in.getInt();
    int nbHash;
    int hashType;
    if (first > 0) {
      nbHash = first;
      hashType = KeyHash.JENKINS;
    } else if (first == VERSION) {
      need(in, 5);
      nbHash = in.getInt();
      hashType = in.get();
    } else {
      throw new IllegalArgumentException("unsupported bloom filter version " + first);
    }
    need(in, 4);
    int vectorSize = in.getInt();
    return new int[] {nbHash, hashType, vectorSize};
  }

  /** Reads header and bits. */
  static BitVector readFrom(ByteBuffer in) {
    int[] h = readHeader(in);
    BitVector v = new BitVector(h[2], h[0], h[1]);
    v.readBits(in);
    return v;
  }

  private void readBits(ByteBuffer in) {
    int n = bitBytes();
    need(in, n);
    // byte j is bits 8j..8j+7: whole words are little-endian longs (a byte loop was a fifth of a delta commit's
    // tagging against a hundred files, whose footers each hold a 300 KB filter)
    int whole = n >>> 3;
    in.slice().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(words, 0, whole);
    in.position(in.position() + (whole << 3));
    for (int j = whole << 3; j < n; j++) {
      words[j >>> 3] |= (in.get() & 0xffL) << ((j & 7) << 3);
    }
    // bits past vectorSize are never probed; dropping them keeps re-serialization identical to Hudi's
    int spare = words.length * 64 - vectorSize;
    if (spare > 0) {
      words[words.length - 1] &= -1L >>> spare;
    }
  }

  static void need(ByteBuffer in, int bytes) {
    if (in.remaining() < bytes) {
      throw new IllegalArgumentException("serialized bloom filter is truncated: needed " + bytes
          + " more bytes at offset " + in.position() + ", found " + in.remaining());
    }
  }
}
