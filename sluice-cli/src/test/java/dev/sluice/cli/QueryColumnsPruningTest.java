package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Config;
import dev.sluice.api.Scan;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.ObservedInput;
import dev.sluice.storage.SeekableInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice query --columns} prunes the merge: on a Merge-on-Read table with log files, a query of one column
 * reads only that column's chunks (and the key and ordering fields the merge needs) from the base files, counted in
 * bytes read from storage, and returns the same keys as the full query. {@code --columns} is the scan's
 * {@code select} (QueryCommand), so the scan is read here through a storage that counts.
 */
class QueryColumnsPruningTest {
  @TempDir
  Path dir;

  /** Bytes read, per file kind (base, log, other). */
  private static final class Counted implements InterceptedStorage.Interceptor {
    final Map<String, AtomicLong> bytes = new ConcurrentHashMap<>();

    @Override
    public void before(InterceptedStorage.Call call) {
    }

    @Override
    public SeekableInput opened(InterceptedStorage.Call call, SeekableInput in) {
      String kind = call.path().endsWith(".parquet") ? "base" : call.path().contains(".log.") ? "log" : "other";
      AtomicLong n = bytes.computeIfAbsent(kind, k -> new AtomicLong());
      return ObservedInput.counting(in, n::addAndGet);
    }

    long of(String kind) {
      return bytes.getOrDefault(kind, new AtomicLong()).get();
    }
  }

  @Test
  void oneColumnReadsFarLessOfTheBaseFilesThanAll() throws IOException {
    String t = dir.resolve("t").toString();
    CliTest.Run c = CliTest.run("create", t, "--type", "mor", "--record-key", "id", "--precombine", "ts",
        "--partition-path", "city", "--columns", "id string, ts long, city string, note string, body string");
    assertEquals(0, c.exit(), c.err());
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      // wide, poorly compressible text columns beside a short key
      rows.append("{\"id\":\"k").append(i).append("\",\"ts\":1,\"city\":\"c").append(i % 2).append("\",\"note\":\"")
          .append(Long.toHexString(i * 0x9E3779B97F4A7C15L)).append(Long.toHexString(i * 31L + 7)).append(
              "\",\"body\":\"").append(noise(i)).append("\"}\n");
    }
    Path in = dir.resolve("in.jsonl");
    Files.writeString(in, rows.toString());
    assertEquals(0, CliTest.run("insert", t, in.toString()).exit());
    // a quarter of the keys again, newer: they go to log files
    String quarter = String.join("\n", List.of(rows.toString().split("\n")).subList(0, 750)) + "\n";
    Files.writeString(in, quarter.replace("\"ts\":1", "\"ts\":2"));
    CliTest.Run up = CliTest.run("upsert", t, in.toString(), "--conf", "hoodie.parquet.small.file.limit=0");
    assertEquals(0, up.exit(), up.err());

    Counted all = new Counted();
    Counted one = new Counted();
    List<String> allKeys = keys(all, t, List.of());
    List<String> oneKeys = keys(one, t, List.of("id"));
    assertTrue(all.of("log") > 0, "the slices have log files to merge: " + all.bytes);
    assertEquals(3000, allKeys.size());
    assertEquals(allKeys, oneKeys);
    // the key column is a small part of each base file: the rest is not read at all
    assertTrue(one.of("base") * 4 < all.of("base"), "base bytes read: id only " + one.of("base") + ", all " + all.of("base"));
  }

  /** About 200 characters that do not compress much (a repeated string would: snappy finds the repeats). */
  private static String noise(long i) {
    StringBuilder b = new StringBuilder();
    long x = i * 0x9E3779B97F4A7C15L + 1;
    for (int k = 0; k < 16; k++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      b.append(Long.toString(x & Long.MAX_VALUE, 36));
    }
    return b.toString();
  }

  private static List<String> keys(Counted counted, String table, List<String> columns) {
    try (Table t = Tables.open(new InterceptedStorage(new LocalStorage(), counted), table, Config.empty())) {
      Scan scan = columns.isEmpty() ? t.newScan() : t.newScan().select(columns);
      java.util.ArrayList<String> keys = new java.util.ArrayList<>();
      try (CloseableIterator<GenericRecord> rows = scan.open()) {
        while (rows.hasNext()) {
          keys.add(rows.next().get("id").toString());
        }
      }
      return keys;
    }
  }
}
