package dev.sluice.internal.index;

import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.bloom.BloomFilter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Hudi's bloom index candidate selection: keys outside the file's {@code [min, max]} record key range are
 * pruned (when enabled), the rest are probed against the footer's bloom filter.
 */
final class BloomCandidates implements CandidateFilter {
  private final boolean pruneByRanges;

  BloomCandidates(boolean pruneByRanges) {
    this.pruneByRanges = pruneByRanges;
  }

  @Override
  public List<String> candidates(BaseFileReader reader, List<String> sortedKeys) {
    List<String> inRange = sortedKeys;
    Optional<String> min = reader.footer().minRecordKey();
    Optional<String> max = reader.footer().maxRecordKey();
    if (pruneByRanges && min.isPresent() && max.isPresent()) {
      int lo = lowerBound(sortedKeys, min.get());
      int hi = upperBound(sortedKeys, max.get());
      if (lo >= hi) {
        return List.of();
      }
      inRange = sortedKeys.subList(lo, hi);
    }
    Optional<BloomFilter> bloom = reader.bloomFilter();
    if (bloom.isEmpty()) {
      return inRange;
    }
    BloomFilter filter = bloom.get();
    List<String> out = new ArrayList<>();
    for (String key : inRange) {
      if (filter.mightContain(key)) {
        out.add(key);
      }
    }
    return out;
  }

  /** First index whose key is >= {@code key}. */
  static int lowerBound(List<String> sorted, String key) {
    int i = Collections.binarySearch(sorted, key);
    return i >= 0 ? i : -i - 1;
  }

  /** First index whose key is > {@code key}. */
  static int upperBound(List<String> sorted, String key) {
    int i = Collections.binarySearch(sorted, key);
    return i >= 0 ? i + 1 : -i - 1;
  }
}
