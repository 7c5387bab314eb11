package dev.sluice.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Run in a small-heap child JVM by {@link SpillingWriteMemoryTest}: one upsert of a batch several times the heap,
 * generated lazily so the input itself is never held: keys {@code 0..n-1} at {@code ts} 2, then {@code dups}
 * duplicates of every fourth key at {@code ts} 3, 2 and 1 in turn (a larger ordering wins, a tie goes to the later
 * record, a smaller one loses). Checks the spill folder is empty afterwards and prints one {@code OK ...} line, or
 * exits 1.
 *
 * <p>Arguments: table path, spill directory, keys, duplicates, payload length.
 */
public final class SpillingWriteMemoryCheck {
  private SpillingWriteMemoryCheck() {
  }

  /** The {@code ts} of duplicate {@code j} (of key {@code 4 * j}). */
  static long duplicateTs(int j) {
    return 3 - (j % 3);
  }

  /** Row {@code i} of the batch: key {@code i}, or for {@code i >= keys} a duplicate of key {@code 4 * (i - keys)}. */
  static GenericRecord row(int i, int keys, int payloadLength) {
    boolean dup = i >= keys;
    int key = dup ? 4 * (i - keys) : i;
    long ts = dup ? duplicateTs(i - keys) : 2;
    GenericData.Record r = new GenericData.Record(MergedReadMemoryCheck.SCHEMA);
    r.put("id", MergedReadMemoryCheck.key(key));
    r.put("ts", ts);
    r.put("part", "p" + (key % 2));
    r.put("payload", (dup ? "dup" : "new") + ts + ":" + MergedReadMemoryCheck.payload(key, payloadLength));
    return r;
  }

  public static void main(String[] args) throws IOException {
    Path table = Path.of(args[0]);
    Path spill = Path.of(args[1]);
    int keys = Integer.parseInt(args[2]);
    int dups = Integer.parseInt(args[3]);
    int payloadLength = Integer.parseInt(args[4]);
    Table t = Tables.open(table.toString(), Config.of(Map.of("hoodie.memory.spillable.map.path", spill.toString(),
        "hoodie.parquet.block.size", String.valueOf(8 << 20), "hoodie.parquet.max.file.size", String.valueOf(16 << 20))));
    Iterator<GenericRecord> batch = new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < keys + dups;
      }

      @Override
      public GenericRecord next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return row(next++, keys, payloadLength);
      }
    };
    long t0 = System.nanoTime();
    var result = t.upsert(batch);
    long millis = (System.nanoTime() - t0) / 1_000_000;
    check(Files.isDirectory(spill), "the write did not spill");
    try (Stream<Path> files = Files.list(spill)) {
      check(files.findAny().isEmpty(), "spill files left after the write");
    }
    System.out.printf("OK records=%d inserted=%d updated=%d heapMax=%d writeMs=%d%n", keys + dups, result.inserted(),
        result.updated(), Runtime.getRuntime().maxMemory(), millis);
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      System.out.println("FAILED " + message);
      System.exit(1);
    }
  }
}
