package dev.sluice.internal.bloom;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Optional;

/** Creates bloom filters sized like Hudi's and reads them back from footer strings. */
public final class BloomFilters {
  private static final double LN2 = Math.log(2);
  private static final double LN2_SQUARED = LN2 * LN2;

  private BloomFilters() {
  }

  /**
   * A new, empty filter using Murmur hashing.
   *
   * @param type layout
   * @param numEntries keys the filter is sized for (for {@link BloomFilterType#DYNAMIC_V0}: per row)
   * @param fpp false positive probability at {@code numEntries} keys, in (0, 1)
   * @param maxEntries {@link BloomFilterType#DYNAMIC_V0} only: keys after which no rows are added
   * @throws IllegalArgumentException for sizes out of range
   */
  public static BloomFilter create(BloomFilterType type, int numEntries, double fpp, int maxEntries) {
    if (numEntries <= 0) {
      throw new IllegalArgumentException("bloom filter entry count must be > 0, was " + numEntries);
    }
    if (!(fpp > 0 && fpp < 1)) {
      throw new IllegalArgumentException("bloom filter false positive probability must be in (0, 1), was " + fpp);
    }
    int bits = bitSize(numEntries, fpp);
    int hashes = numHashes(bits, numEntries);
    return switch (type) {
      case SIMPLE -> new SimpleBloomFilter(new BitVector(bits, hashes, KeyHash.MURMUR));
      case DYNAMIC_V0 -> new DynamicBloomFilter(bits, hashes, KeyHash.MURMUR, numEntries, maxEntries);
    };
  }

  /**
   * A new filter that starts with {@code old}'s keys, for a file that rewrites {@code old}'s file: it takes new keys
   * as {@code fresh} would. Empty unless both are {@link BloomFilterType#DYNAMIC_V0} filters that hash alike, and
   * {@code old} holds at most a quarter more keys than {@code oldRows} (keys of rows deleted since it was built
   * stay in a continued filter, so past that bound the file's filter is built anew from its own keys).
   */
  public static Optional<BloomFilter> continuing(BloomFilter old, BloomFilter fresh, long oldRows) {
    if (!(old instanceof DynamicBloomFilter o) || !(fresh instanceof DynamicBloomFilter f)
        || o.estimatedKeys() > 1.25 * oldRows) {
      return Optional.empty();
    }
    return Optional.ofNullable(o.continuedAs(f));
  }

  /**
   * Reads a filter from its footer string. Accepts the current header and the legacy one (positive first int,
   * Jenkins hashing).
   *
   * @throws IllegalArgumentException if the string is not valid Base64 or not a filter of that type
   */
  public static BloomFilter deserialize(String base64, BloomFilterType type) {
    ByteBuffer in = ByteBuffer.wrap(Base64.getDecoder().decode(base64.trim()));
    return switch (type) {
      case SIMPLE -> SimpleBloomFilter.read(in);
      case DYNAMIC_V0 -> DynamicBloomFilter.read(in);
    };
  }

  /** Bits for {@code n} keys at false positive rate {@code fpp}: {@code ceil(n * -ln(fpp) / ln(2)^2)}. */
  static int bitSize(int n, double fpp) {
    // same operation order as Hudi, so the rounding is the same
    return (int) Math.ceil(n * (-Math.log(fpp) / LN2_SQUARED));
  }

  /** Hash functions for {@code bits} bits and {@code n} keys: {@code ceil(ln(2) * bits / n)}. */
  static int numHashes(int bits, int n) {
    return (int) Math.ceil(LN2 * bits / n);
  }
}
