package dev.sluice.internal.bloom;

/**
 * A bloom filter over record keys, in the layout Hudi stores in base file footers
 * ({@code org.apache.hudi.bloomfilter}). Keys are hashed as their UTF-8 bytes and must not be empty.
 *
 * <p>{@link #add} is not thread-safe; {@link #mightContain} may be called from many threads at once as long as no
 * thread adds.
 */
public interface BloomFilter {
  /** Adds a record key. */
  void add(String key);

  /** False if {@code key} was certainly never added; true if it may have been. */
  boolean mightContain(String key);

  /** The footer value: Base64 (standard alphabet, padded) of the serialized filter. */
  String serialize();

  /** The filter's type, which decides its serialized layout. */
  BloomFilterType type();
}
