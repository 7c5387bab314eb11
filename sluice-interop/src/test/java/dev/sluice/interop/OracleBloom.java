package dev.sluice.interop;

import java.util.Map;
import java.util.Optional;

/**
 * A base file's bloom filter and key range, read by Hudi from the Parquet footer.
 *
 * @param type     bloom filter type code name (e.g. {@code DYNAMIC_V0}), absent when the footer has none
 * @param minKey   {@code hoodie_min_record_key}, if present
 * @param maxKey   {@code hoodie_max_record_key}, if present
 * @param contains for each asked key, whether the filter might contain it
 */
public record OracleBloom(Optional<String> type, Optional<String> minKey, Optional<String> maxKey,
    Map<String, Boolean> contains) {

  /** Copies the membership map. */
  public OracleBloom {
    contains = Map.copyOf(contains);
  }
}
