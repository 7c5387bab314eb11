package dev.sluice.internal.spill;

import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.avro.generic.GenericRecord;

/**
 * A micro-measurement, not a test: put / random get / iterate throughput of {@link SpillableMap} with every
 * entry in memory against every entry spilled, in thread CPU time (the machine is shared) and wall time.
 * Also the heap of the spill index per entry against a {@code HashMap<String, Long>} of the same keys.
 *
 * <p>Run: {@code java -Xmx3g -cp <test classpath> dev.sluice.internal.spill.SpillableMapBench [records] [rounds]}.
 */
public final class SpillableMapBench {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private SpillableMapBench() {
  }

  public static void main(String[] args) throws IOException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    String[] keys = new String[n];
    GenericRecord[] values = new GenericRecord[n];
    for (int i = 0; i < n; i++) {
      keys[i] = SpillMemoryCheck.key(i);
      values[i] = SpillMemoryCheck.record(i);
    }
    int[] order = shuffled(n);
    Path dir = Files.createTempDirectory("spill-bench");
    for (int round = 1; round <= rounds; round++) {
      for (long budget : new long[] {Long.MAX_VALUE, 0}) {
        run(round == rounds, budget == 0 ? "spilled " : "inMemory", budget, dir, keys, values, order);
      }
    }
    for (int round = 1; round <= rounds; round++) {
      sort(round == rounds, dir, keys, values, order);
    }
    indexFootprint(keys);
    Files.delete(dir);
  }

  private static void run(boolean print, String label, long budget, Path dir, String[] keys,
      GenericRecord[] values, int[] order) {
    int n = keys.length;
    SpillableMap<GenericRecord> map = SpillableMap.builder(new AvroRecordSerializer(SpillMemoryCheck.SCHEMA))
        .memoryBudgetBytes(budget).spillDirectory(dir).build();
    try (map) {
      long[] t = start();
      for (int i = 0; i < n; i++) {
        map.put(keys[i], values[i]);
      }
      String put = rate("put", n, t);
      t = start();
      long sink = 0;
      for (int i : order) {
        sink += (Integer) map.get(keys[i]).orElseThrow().get(3);
      }
      String get = rate("get", n, t);
      t = start();
      for (int i : order) {
        sink += map.get("absent-" + keys[i]).isPresent() ? 1 : 0;
      }
      String miss = rate("get-absent", n, t);
      t = start();
      int seen = 0;
      try (CloseableIterator<Map.Entry<String, GenericRecord>> it = map.entries()) {
        while (it.hasNext()) {
          sink += it.next().getKey().length();
          seen++;
        }
      }
      String iter = rate("iterate", seen, t);
      t = start();
      for (int i = 0; i < n; i++) {
        map.put(keys[order[i]], values[i]);
      }
      String update = rate("update", n, t);
      if (print) {
        System.out.printf("%s n=%d%n  %s%n  %s%n  %s%n  %s%n  %s%n  spilledBytes=%d (checksum %d)%n", label, n, put,
            get, miss, iter, update, map.spilledBytes(), sink);
      }
    }
  }

  /** Adds the pairs in shuffled key order to a sorter with a 16 MiB budget and reads them back sorted. */
  private static void sort(boolean print, Path dir, String[] keys, GenericRecord[] values, int[] order) {
    ExternalSorter<GenericRecord> sorter = ExternalSorter.builder(new AvroRecordSerializer(SpillMemoryCheck.SCHEMA))
        .memoryBudgetBytes(16L << 20).spillDirectory(dir).build();
    try (sorter) {
      long[] t = start();
      for (int i : order) {
        sorter.add(keys[i], values[i]);
      }
      String add = rate("add", keys.length, t);
      int runs = sorter.runCount();
      t = start();
      long sink = 0;
      try (CloseableIterator<Map.Entry<String, GenericRecord>> it = sorter.sorted()) {
        while (it.hasNext()) {
          sink += it.next().getKey().length();
        }
      }
      String merge = rate("sorted", keys.length, t);
      if (print) {
        System.out.printf("sorter (16 MiB budget, %d runs)%n  %s%n  %s%n  (checksum %d)%n", runs, add, merge, sink);
      }
    }
  }

  private static long[] start() {
    return new long[] {System.nanoTime(), THREADS.getCurrentThreadCpuTime()};
  }

  private static String rate(String what, int ops, long[] t) {
    double wall = (System.nanoTime() - t[0]) / 1e9;
    double cpu = (THREADS.getCurrentThreadCpuTime() - t[1]) / 1e9;
    return String.format("%s %.0f k/s cpu (%.2f us/op cpu, %.2f s wall)", what, ops / cpu / 1e3, cpu * 1e6 / ops,
        wall);
  }

  private static int[] shuffled(int n) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    SplittableRandom r = new SplittableRandom(7);
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int tmp = order[i];
      order[i] = order[j];
      order[j] = tmp;
    }
    return order;
  }

  /** Heap per entry: the spill index against a HashMap from key to a boxed location. */
  private static void indexFootprint(String[] keys) {
    SpillIndex index = new SpillIndex();
    for (int i = 0; i < keys.length; i++) {
      index.add(SpillIndex.fingerprint(keys[i]), SpillIndex.pack(i * 1000L, 1000));
    }
    long before = usedHeap();
    Map<String, Long> naive = new HashMap<>();
    for (int i = 0; i < keys.length; i++) {
      // Fresh key strings: a real spilled map would hold its own copies.
      naive.put(new String(keys[i].toCharArray()), SpillIndex.pack(i * 1000L, 1000));
    }
    long naiveBytes = usedHeap() - before;
    System.out.printf("index: %.1f bytes/entry (%d slots for %d entries); HashMap<String, Long>: %.1f bytes/entry%n",
        (double) index.heapBytes() / keys.length, (index.heapBytes() - 32) / 12, keys.length,
        (double) naiveBytes / naive.size());
  }

  private static long usedHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }
}
