package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A write batch larger than memory: in a child JVM of {@code -Xmx64m} ({@link SpillingWriteMemoryCheck}), one upsert
 * of {@value #KEYS} keys plus {@value #DUPS} duplicates (about 290 bytes a record, 72 MB of Avro binary and about
 * three times the heap as Avro records on the heap) into a table that already holds the first {@value #EXISTING}
 * keys. The parent then checks every row: one per key, each with its winning version, and the spill folder empty.
 */
class SpillingWriteMemoryTest {
  private static final int KEYS = 200_000;
  private static final int DUPS = 50_000;
  private static final int EXISTING = 80_000;
  private static final int PAYLOAD = 240;

  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(TableType.class)
  void anUpsertSeveralTimesTheHeapWritesInASmallHeap(TableType type) throws IOException, InterruptedException {
    Path table = dir.resolve("t");
    Map<String, String> options = Map.of("hoodie.index.bloom.num_entries", "20000",
        "hoodie.parquet.block.size", String.valueOf(8 << 20), "hoodie.parquet.max.file.size", String.valueOf(16 << 20));
    Table t = Tables.create(table.toString(), TableSpec.builder("big").type(type).recordKey("id").precombine("ts")
        .partitionBy("part").schema(MergedReadMemoryCheck.SCHEMA).build(), Config.of(options));
    t.bulkInsert(IntStream.range(0, EXISTING).mapToObj(SpillingWriteMemoryTest::existing).iterator());

    Path spill = dir.resolve("spill");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = List.of(java.toString(), "-Xmx64m", "-cp", System.getProperty("java.class.path"),
        SpillingWriteMemoryCheck.class.getName(), table.toString(), spill.toString(), String.valueOf(KEYS),
        String.valueOf(DUPS), String.valueOf(PAYLOAD));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    boolean ended = child.waitFor(4, TimeUnit.MINUTES);
    if (!ended) {
      child.destroyForcibly();
    }
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    System.out.println(type + ": " + output);
    assertTrue(ended, "child JVM did not finish: " + output);
    assertEquals(0, child.exitValue(), "child JVM failed: " + output);
    assertTrue(output.contains("OK records=" + (KEYS + DUPS) + " inserted=" + (KEYS - EXISTING)
        + " updated=" + EXISTING), output);
    try (Stream<Path> files = Files.list(spill)) {
      assertEquals(List.of(), files.toList(), "spill files left behind");
    }

    BitSet seen = new BitSet(KEYS);
    Table after = Tables.open(table.toString(), Config.of(Map.of()));
    try (CloseableIterator<GenericRecord> it = after.newScan().open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        int i = Integer.parseInt(r.get("id").toString().substring(4));
        assertFalse(seen.get(i), "key " + i + " returned twice");
        seen.set(i);
        String expected = winner(i) + ":" + MergedReadMemoryCheck.payload(i, PAYLOAD);
        if (!expected.equals(r.get("payload").toString())) {
          assertEquals(winner(i), r.get("payload").toString().split(":")[0], "version of key " + i);
        }
      }
    }
    assertEquals(KEYS, seen.cardinality(), "rows");
  }

  /** The version of key {@code i} that wins the upsert. */
  private static String winner(int i) {
    if (i % 4 == 0 && i / 4 < DUPS) {
      long ts = SpillingWriteMemoryCheck.duplicateTs(i / 4);
      if (ts >= 2) {
        return "dup" + ts;
      }
    }
    return "new2";
  }

  private static GenericRecord existing(int i) {
    GenericData.Record r = new GenericData.Record(MergedReadMemoryCheck.SCHEMA);
    r.put("id", MergedReadMemoryCheck.key(i));
    r.put("ts", 1L);
    r.put("part", "p" + (i % 2));
    r.put("payload", "old");
    return r;
  }
}
