package dev.sluice.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * What the driver plans a write from, gathered by each Spark partition in one pass over its records and collected
 * (no shuffle): the updates per candidate file, the inserts per partition path, and a uniform sample (a reservoir
 * per partition path) of the inserts' sort keys ({@link #sortKey}), from which the driver cuts the sorted inserts
 * into ranges without a separate sampling job.
 */
final class BatchStats implements Serializable {
  private static final long serialVersionUID = 1L;
  /** Between partition path and record key in a sort key: below every character, so paths sort as strings do. */
  static final char SEP = '\u0000';

  private final int capacity;
  private final Map<Integer, Long> updates = new HashMap<>();
  private final Map<String, Long> inserts = new HashMap<>();
  private final Map<String, List<String>> sample = new HashMap<>();

  private BatchStats(int capacity) {
    this.capacity = capacity;
  }

  /** The sort key of an insert: (partition path, record key) order as one string. */
  static String sortKey(String partitionPath, String key) {
    return partitionPath + SEP + key;
  }

  /**
   * The sample each Spark partition keeps per partition path: about 2,000 keys per path over the whole batch
   * (cuts within a few percent of a path's inserts), at least 128 per path and partition; the driver receives at
   * most {@code max(2048, 128 * partitions)} keys per path.
   */
  static int sampleSize(int partitions) {
    return Math.max(128, 2_048 / Math.max(1, partitions));
  }

  /** Gathers one Spark partition's records: {@code file} &ge; 0 an update of that candidate file, else an insert. */
  static BatchStats of(Iterator<SluiceSpark.Tagged> records, int capacity, long seed) {
    BatchStats s = new BatchStats(capacity);
    SplittableRandom random = new SplittableRandom(seed);
    while (records.hasNext()) {
      SluiceSpark.Tagged t = records.next();
      if (t.file() >= 0) {
        s.updates.merge(t.file(), 1L, Long::sum);
      } else {
        s.insert(t.record().partitionPath(), t.record().key(), random);
      }
    }
    return s;
  }

  private void insert(String path, String key, SplittableRandom random) {
    long seen = inserts.merge(path, 1L, Long::sum);
    List<String> keys = sample.computeIfAbsent(path, p -> new ArrayList<>());
    if (keys.size() < capacity) {
      keys.add(sortKey(path, key));
    } else {
      // reservoir sampling: the n-th insert replaces a kept key with probability capacity / n
      long at = random.nextLong(seen);
      if (at < capacity) {
        keys.set((int) at, sortKey(path, key));
      }
    }
  }

  /** Updates per candidate file index, summed over the partitions. */
  static Map<Integer, Long> updates(Collection<BatchStats> parts) {
    Map<Integer, Long> out = new HashMap<>();
    parts.forEach(p -> p.updates.forEach((f, n) -> out.merge(f, n, Long::sum)));
    return out;
  }

  /** Inserts per partition path, summed over the partitions, in sort key order. */
  static Map<String, Long> inserts(Collection<BatchStats> parts) {
    Map<String, Long> out = new TreeMap<>();
    parts.forEach(p -> p.inserts.forEach((path, n) -> out.merge(path, n, Long::sum)));
    return out;
  }

  /**
   * Sort keys that cut the inserts of {@code paths} (all of them in sort key order) at {@code fractions}
   * (ascending, each in (0, 1)) of their count, estimated from the samples: cut {@code j} is the first sampled key
   * with at least that share of the inserts before it. Each sampled key stands for the inserts its partition saw
   * of its path over the keys it kept. Fewer cuts come back when the sample runs out.
   */
  static String[] cuts(Collection<BatchStats> parts, Collection<String> paths, double[] fractions) {
    if (fractions.length == 0) {
      return new String[0];
    }
    List<String> keys = new ArrayList<>();
    List<Double> weights = new ArrayList<>();
    for (BatchStats p : parts) {
      for (String path : paths) {
        List<String> kept = p.sample.get(path);
        if (kept != null && !kept.isEmpty()) {
          double w = (double) p.inserts.get(path) / kept.size();
          for (String k : kept) {
            keys.add(k);
            weights.add(w);
          }
        }
      }
    }
    Integer[] order = new Integer[keys.size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, (a, b) -> keys.get(a).compareTo(keys.get(b)));
    double total = 0;
    for (double w : weights) {
      total += w;
    }
    List<String> out = new ArrayList<>();
    double before = 0;
    int next = 0;
    for (Integer i : order) {
      while (next < fractions.length && before >= fractions[next] * total) {
        out.add(keys.get(i));
        next++;
      }
      before += weights.get(i);
    }
    return out.toArray(String[]::new);
  }

  /** How many of the ascending {@code cuts} are at or below {@code key}: the index of the range it falls in. */
  static int rangeOf(String[] cuts, String key) {
    int lo = 0;
    int hi = cuts.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cuts[mid].compareTo(key) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
