package dev.sluice.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Run in a small-heap child JVM by {@link MergeOnReadMemoryTest}: a snapshot read of a Merge-on-Read table whose
 * one file slice has far more log records than the memory budget (and than the heap). Checks every row against
 * the value the writer gave it, that the log records spilled, and that the spill file is gone after the scan.
 * Prints one {@code OK ...} line, or exits 1.
 *
 * <p>Arguments: table path, spill directory, memory budget in bytes, rows.
 */
public final class MergedReadMemoryCheck {
  static final Schema SCHEMA = SchemaBuilder.record("big").namespace("memory").fields()
      .requiredString("id")
      .requiredLong("ts")
      .requiredString("part")
      .requiredString("payload")
      .endRecord();

  /** Random letters that payloads are cut from, so making a row costs little next to storing it. */
  private static final byte[] LETTERS = new byte[1 << 16];

  static {
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < LETTERS.length; i++) {
      LETTERS[i] = (byte) ('a' + r.nextInt(26));
    }
  }

  private MergedReadMemoryCheck() {
  }

  static String key(int i) {
    return String.format("key-%08d", i);
  }

  /** Row {@code i}: the base version ({@code ts} 1, a short payload) or the updated one (a long payload). */
  static GenericRecord row(int i, boolean updated, int payloadLength) {
    GenericData.Record r = new GenericData.Record(SCHEMA);
    r.put("id", key(i));
    r.put("ts", updated ? 2L : 1L);
    r.put("part", "p0");
    r.put("payload", updated ? payload(i, payloadLength) : "base-" + i);
    return r;
  }

  static String payload(int i, int length) {
    int from = new SplittableRandom(i).nextInt(LETTERS.length - length);
    return new String(LETTERS, from, length, StandardCharsets.US_ASCII);
  }

  public static void main(String[] args) throws IOException {
    Path table = Path.of(args[0]);
    Path spill = Path.of(args[1]);
    long budget = Long.parseLong(args[2]);
    int rows = Integer.parseInt(args[3]);
    int payloadLength = Integer.parseInt(args[4]);
    Table t = Tables.open(table.toString(), Config.of(Map.of("hoodie.memory.compaction.max.size", String.valueOf(budget),
        "hoodie.memory.spillable.map.path", spill.toString())));
    BitSet seen = new BitSet(rows);
    boolean spilled = false;
    long t0 = System.nanoTime();
    try (CloseableIterator<GenericRecord> it = t.newScan().open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        if (!spilled) {
          try (Stream<Path> files = Files.list(spill)) {
            spilled = files.findAny().isPresent();
          }
          check(spilled, "no spill file while the slice is read");
        }
        int i = Integer.parseInt(r.get("id").toString().substring(4));
        check(!seen.get(i), "row " + i + " returned twice");
        seen.set(i);
        check(r.get("payload").toString().equals(payload(i, payloadLength)), "row " + i + " does not carry its update");
      }
    }
    long millis = (System.nanoTime() - t0) / 1_000_000;
    check(seen.cardinality() == rows, "read " + seen.cardinality() + " of " + rows + " rows");
    try (Stream<Path> files = Files.list(spill)) {
      check(files.findAny().isEmpty(), "spill files left after the scan");
    }
    System.out.printf("OK rows=%d heapMax=%d budget=%d readMs=%d%n", rows, Runtime.getRuntime().maxMemory(), budget, millis);
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      System.out.println("FAILED " + message);
      System.exit(1);
    }
  }
}
