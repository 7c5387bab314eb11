package dev.sluice.tools.health;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Sizes of the latest base files. Percentiles are nearest-rank: the p-th percentile is the smallest size that at
 * least p% of the files do not exceed.
 *
 * @param files number of base files
 * @param totalBytes their total size
 * @param min smallest size (0 if there are none)
 * @param median 50th percentile
 * @param p90 90th percentile
 * @param max largest size
 * @param smallFiles files below {@code smallFileLimit}
 * @param smallFileLimit {@code hoodie.parquet.small.file.limit}
 */
public record SizeDistribution(int files, long totalBytes, long min, long median, long p90, long max, int smallFiles,
    long smallFileLimit) {

  /** The distribution of {@code sizes}. */
  public static SizeDistribution of(List<Long> sizes, long smallFileLimit) {
    List<Long> s = new ArrayList<>(sizes);
    Collections.sort(s);
    if (s.isEmpty()) {
      return new SizeDistribution(0, 0, 0, 0, 0, 0, 0, smallFileLimit);
    }
    long total = 0;
    int small = 0;
    for (long x : s) {
      total += x;
      if (x < smallFileLimit) {
        small++;
      }
    }
    return new SizeDistribution(s.size(), total, s.get(0), percentile(s, 50), percentile(s, 90), s.get(s.size() - 1),
        small, smallFileLimit);
  }

  private static long percentile(List<Long> sorted, int p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }
}
