package dev.sluice.internal.spill;

import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Run in a small-heap child JVM by {@link SpillableMapMemoryTest}: puts Avro records totalling several times
 * the heap into a {@link SpillableMap}, reads every one back by key in random order, and iterates them all,
 * checking each value against a regenerated copy. Prints one {@code OK ...} line with figures, or exits 1.
 *
 * <p>Arguments: spill directory, memory budget in bytes, total encoded bytes to put.
 */
public final class SpillMemoryCheck {
  static final Schema SCHEMA = SchemaBuilder.record("LogRow").namespace("check").fields()
      .requiredString("_hoodie_record_key")
      .requiredString("_hoodie_partition_path")
      .requiredLong("ts")
      .requiredInt("version")
      .optionalDouble("amount")
      .requiredString("payload")
      .endRecord();

  private SpillMemoryCheck() {
  }

  /** Random letters that record payloads are cut from, so making a record costs little next to storing it. */
  private static final byte[] LETTERS = new byte[1 << 16];

  static {
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < LETTERS.length; i++) {
      LETTERS[i] = (byte) ('a' + r.nextInt(26));
    }
  }

  static String key(int i) {
    String digits = Integer.toString(i);
    return "key-" + "00000000".substring(Math.min(8, digits.length())) + digits;
  }

  /** Record {@code i}, the same every time: about 1 KB encoded, mostly an ASCII payload. */
  static GenericRecord record(int i) {
    SplittableRandom r = new SplittableRandom(i * 0x9E3779B97F4A7C15L);
    int length = 800 + r.nextInt(400);
    int from = r.nextInt(LETTERS.length - length);
    GenericData.Record rec = new GenericData.Record(SCHEMA);
    rec.put(0, key(i));
    rec.put(1, "region=" + (i % 7));
    rec.put(2, r.nextLong());
    rec.put(3, i);
    rec.put(4, i % 5 == 0 ? null : r.nextDouble());
    rec.put(5, new String(LETTERS, from, length, java.nio.charset.StandardCharsets.US_ASCII));
    return rec;
  }

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    long budget = Long.parseLong(args[1]);
    long target = Long.parseLong(args[2]);
    long heap = Runtime.getRuntime().maxMemory();
    AvroRecordSerializer measure = new AvroRecordSerializer(SCHEMA);
    ByteSink sink = new ByteSink(2048);
    long encoded = 0;
    int n = 0;
    long t0 = System.nanoTime();
    long putNanos;
    long getNanos;
    long iterNanos;
    SpillableMap<GenericRecord> map = SpillableMap.builder(new AvroRecordSerializer(SCHEMA))
        .memoryBudgetBytes(budget).spillDirectory(dir).build();
    try (map) {
      while (encoded < target) {
        GenericRecord rec = record(n);
        sink.reset();
        measure.write(rec, sink);
        encoded += sink.size();
        map.put(key(n), rec);
        n++;
      }
      putNanos = System.nanoTime() - t0;
      check(map.size() == n, "size " + map.size() + " != " + n);
      check(map.inMemoryCount() > 0 && map.spilledCount() > 0, "both in-memory and spilled entries expected");
      check(encoded >= 5 * budget && encoded >= 3 * heap, "only " + encoded + " bytes put for heap " + heap);

      int[] order = new int[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      SplittableRandom shuffle = new SplittableRandom(42);
      for (int i = n - 1; i > 0; i--) {
        int j = shuffle.nextInt(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      long t1 = System.nanoTime();
      for (int i : order) {
        GenericRecord got = map.get(key(i)).orElse(null);
        if (!same(record(i), got)) {
          check(false, "wrong value for " + key(i) + ": " + got);
        }
      }
      getNanos = System.nanoTime() - t1;

      long t2 = System.nanoTime();
      int seen = 0;
      try (CloseableIterator<Map.Entry<String, GenericRecord>> it = map.entries()) {
        while (it.hasNext()) {
          Map.Entry<String, GenericRecord> e = it.next();
          int i = Integer.parseInt(e.getKey().substring(4));
          if (!same(record(i), e.getValue())) {
            check(false, "wrong iterated value for " + e.getKey());
          }
          seen++;
        }
      }
      iterNanos = System.nanoTime() - t2;
      check(seen == n, "iterated " + seen + " of " + n);
      System.out.printf("OK records=%d encodedBytes=%d heapMax=%d budget=%d inMemory=%d spilled=%d spilledBytes=%d"
              + " indexBytes=%d putMs=%d getMs=%d iterMs=%d%n", n, encoded, heap, budget, map.inMemoryCount(),
          map.spilledCount(), map.spilledBytes(), map.indexHeapBytes(), putNanos / 1_000_000,
          getNanos / 1_000_000, iterNanos / 1_000_000);
    }
    try (Stream<Path> left = Files.list(dir)) {
      check(left.findAny().isEmpty(), "spill files left after close");
    }
  }

  private static final AvroRecordSerializer EXPECTED = new AvroRecordSerializer(SCHEMA);
  private static final AvroRecordSerializer ACTUAL = new AvroRecordSerializer(SCHEMA);
  private static final ByteSink EXPECTED_BYTES = new ByteSink(2048);
  private static final ByteSink ACTUAL_BYTES = new ByteSink(2048);

  /** Equal values: Avro's binary encoding of a schema is canonical, and cheaper than Utf8-vs-String equals. */
  private static boolean same(GenericRecord expected, GenericRecord actual) throws IOException {
    if (actual == null) {
      return false;
    }
    EXPECTED_BYTES.reset();
    ACTUAL_BYTES.reset();
    EXPECTED.write(expected, EXPECTED_BYTES);
    ACTUAL.write(actual, ACTUAL_BYTES);
    return java.util.Arrays.equals(EXPECTED_BYTES.array(), 0, EXPECTED_BYTES.size(), ACTUAL_BYTES.array(), 0,
        ACTUAL_BYTES.size());
  }

  private static void check(boolean ok, String problem) {
    if (!ok) {
      System.out.println("FAILED " + problem);
      System.exit(1);
    }
  }
}
