package dev.sluice.internal.basefile;

import dev.sluice.internal.bloom.BloomFilterType;
import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.internal.error.Errors;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How base files are written.
 *
 * @param codec Parquet compression codec: {@code snappy}, {@code gzip}, {@code zstd}, {@code lz4_raw} or
 *     {@code uncompressed} (an empty name means uncompressed, as in Hudi)
 * @param rowGroupSize row group size in bytes
 * @param pageSize page size (and dictionary page size) in bytes
 * @param dictionary dictionary encoding on or off
 * @param bloomType bloom filter layout in the footer
 * @param bloomNumEntries keys the bloom filter is sized for (per row of a dynamic filter)
 * @param bloomFpp bloom filter false positive probability
 * @param bloomMaxEntries keys after which a dynamic filter stops adding rows
 * @param plainColumns dotted paths of leaf columns written without a dictionary even when {@code dictionary} is on
 *     (see {@link DictionaryChoice})
 */
public record BaseFileWriterOptions(String codec, long rowGroupSize, int pageSize, boolean dictionary,
    BloomFilterType bloomType, int bloomNumEntries, double bloomFpp, int bloomMaxEntries, Set<String> plainColumns) {

  /** Codecs that work without native libraries or extra jars. */
  public static final List<String> CODECS = List.of("uncompressed", "snappy", "gzip", "zstd", "lz4_raw");

  /** Options with a dictionary for every column (when {@code dictionary} is on). */
  public BaseFileWriterOptions(String codec, long rowGroupSize, int pageSize, boolean dictionary,
      BloomFilterType bloomType, int bloomNumEntries, double bloomFpp, int bloomMaxEntries) {
    this(codec, rowGroupSize, pageSize, dictionary, bloomType, bloomNumEntries, bloomFpp, bloomMaxEntries, Set.of());
  }

  /** Validates the values; throws {@link IllegalArgumentException} for values no writer can use. */
  public BaseFileWriterOptions {
    plainColumns = Set.copyOf(plainColumns);
    codec = normalizeCodec(codec);
    if (!CODECS.contains(codec)) {
      throw new IllegalArgumentException("unsupported Parquet codec '" + codec + "'; expected one of " + CODECS);
    }
    if (rowGroupSize <= 0 || pageSize <= 0) {
      throw new IllegalArgumentException("row group and page sizes must be > 0");
    }
    if (bloomType == null) {
      throw new IllegalArgumentException("bloom filter type is required");
    }
    if (bloomNumEntries <= 0 || !(bloomFpp > 0 && bloomFpp < 1)) {
      throw new IllegalArgumentException("bloom filter needs entries > 0 and 0 < fpp < 1");
    }
  }

  /** Options from the {@link ConfigKeys} Parquet and bloom settings (codec default: snappy). */
  public static BaseFileWriterOptions from(Config config) {
    String codec = normalizeCodec(config.get(ConfigKeys.PARQUET_COMPRESSION));
    if (!CODECS.contains(codec)) {
      throw Errors.badConfig(ConfigKeys.PARQUET_COMPRESSION.name(), codec, "one of " + CODECS);
    }
    long rowGroup = positive(config.get(ConfigKeys.PARQUET_BLOCK_SIZE), ConfigKeys.PARQUET_BLOCK_SIZE.name());
    long page = positive(config.get(ConfigKeys.PARQUET_PAGE_SIZE), ConfigKeys.PARQUET_PAGE_SIZE.name());
    String typeName = config.get(ConfigKeys.BLOOM_FILTER_TYPE);
    BloomFilterType type;
    try {
      type = BloomFilterType.fromName(typeName);
    } catch (IllegalArgumentException e) {
      throw Errors.badConfig(ConfigKeys.BLOOM_FILTER_TYPE.name(), typeName, "DYNAMIC_V0 or SIMPLE");
    }
    int entries = (int) positive(config.get(ConfigKeys.BLOOM_NUM_ENTRIES), ConfigKeys.BLOOM_NUM_ENTRIES.name());
    double fpp = config.get(ConfigKeys.BLOOM_FPP);
    if (!(fpp > 0 && fpp < 1)) {
      throw Errors.badConfig(ConfigKeys.BLOOM_FPP.name(), String.valueOf(fpp), "a probability between 0 and 1");
    }
    int max = config.get(ConfigKeys.BLOOM_DYNAMIC_MAX_ENTRIES);
    return new BaseFileWriterOptions(codec, rowGroup, (int) page, config.get(ConfigKeys.PARQUET_DICTIONARY), type,
        entries, fpp, max);
  }

  /** Options with every key at its default. */
  public static BaseFileWriterOptions defaults() {
    return from(Config.empty());
  }

  /** A copy with another row group size (tests and small files). */
  public BaseFileWriterOptions withRowGroupSize(long bytes) {
    return new BaseFileWriterOptions(codec, bytes, pageSize, dictionary, bloomType, bloomNumEntries, bloomFpp,
        bloomMaxEntries, plainColumns);
  }

  /** A copy with another page size. */
  public BaseFileWriterOptions withPageSize(int bytes) {
    return new BaseFileWriterOptions(codec, rowGroupSize, bytes, dictionary, bloomType, bloomNumEntries, bloomFpp,
        bloomMaxEntries, plainColumns);
  }

  /** A copy with another codec. */
  public BaseFileWriterOptions withCodec(String name) {
    return new BaseFileWriterOptions(name, rowGroupSize, pageSize, dictionary, bloomType, bloomNumEntries, bloomFpp,
        bloomMaxEntries, plainColumns);
  }

  /** A copy with another bloom filter layout and sizing. */
  public BaseFileWriterOptions withBloom(BloomFilterType type, int numEntries, double fpp, int maxEntries) {
    return new BaseFileWriterOptions(codec, rowGroupSize, pageSize, dictionary, type, numEntries, fpp, maxEntries,
        plainColumns);
  }

  /**
   * A copy whose bloom filter is sized for a file that will hold at most {@code keys} keys, when that is fewer
   * than {@link #bloomNumEntries}: the false positive rate stays the configured one, and a small file does not
   * carry a filter sized for a full one (at the defaults, 431 KB of footer whatever the file's size). A dynamic
   * filter that gets more keys than the estimate adds rows as usual.
   */
  public BaseFileWriterOptions withBloomSizedFor(long keys) {
    int entries = (int) Math.max(1, Math.min(bloomNumEntries, keys));
    return entries == bloomNumEntries ? this
        : new BaseFileWriterOptions(codec, rowGroupSize, pageSize, dictionary, bloomType, entries, bloomFpp,
            bloomMaxEntries, plainColumns);
  }

  /** A copy that writes these columns (dotted leaf paths) without a dictionary. */
  public BaseFileWriterOptions withPlainColumns(Set<String> columns) {
    return new BaseFileWriterOptions(codec, rowGroupSize, pageSize, dictionary, bloomType, bloomNumEntries, bloomFpp,
        bloomMaxEntries, columns);
  }

  /** The codec name as the writer knows it: lower case, an empty name is {@code uncompressed}. */
  public static String normalizeCodec(String codec) {
    String c = codec == null ? "" : codec.trim().toLowerCase(Locale.ROOT);
    return c.isEmpty() ? "uncompressed" : c;
  }

  private static long positive(long v, String key) {
    if (v <= 0) {
      throw Errors.badConfig(key, String.valueOf(v), "a number greater than 0");
    }
    return v;
  }
}
