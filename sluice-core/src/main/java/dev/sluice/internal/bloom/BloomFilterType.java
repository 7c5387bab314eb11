package dev.sluice.internal.bloom;

import java.util.Locale;

/** The bloom filter layouts Hudi writes; the name is the footer's {@code hoodie_bloom_filter_type_code}. */
public enum BloomFilterType {
  /** One fixed-size bit vector; its footer has no type code. */
  SIMPLE,
  /** Rows of bit vectors added as keys arrive, bounded by a maximum entry count. */
  DYNAMIC_V0;

  /**
   * The type named {@code name}, ignoring case.
   *
   * @throws IllegalArgumentException if no type has that name
   */
  public static BloomFilterType fromName(String name) {
    String n = name.trim().toUpperCase(Locale.ROOT);
    for (BloomFilterType t : values()) {
      if (t.name().equals(n)) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown bloom filter type '" + name + "'; expected SIMPLE or DYNAMIC_V0");
  }

  /** True if the footer carries {@code hoodie_bloom_filter_type_code} for this type (Hudi: names with DYNAMIC). */
  public boolean writesTypeCode() {
    return name().contains("DYNAMIC");
  }
}
