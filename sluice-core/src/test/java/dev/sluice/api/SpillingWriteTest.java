package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The spilling write path against the in-memory one: the same writes (bulk insert, upsert with duplicates, delete,
 * insert) go to two tables, one with the default write budget (in memory) and one with a 128 KiB budget (every
 * batch spills); both end with the same rows, the same number of base files, and no spill file left.
 */
class SpillingWriteTest {
  private static final int PAYLOAD = 120;

  @TempDir
  Path dir;

  @ParameterizedTest
  @CsvSource({"COPY_ON_WRITE, BLOOM", "MERGE_ON_READ, BLOOM", "COPY_ON_WRITE, GLOBAL_SIMPLE"})
  void aBatchPastTheBudgetWritesWhatTheInMemoryPathWrites(TableType type, String index) throws IOException {
    Path spillA = dir.resolve("spill-a");
    Path spillB = dir.resolve("spill-b");
    Table inMemory = create("a", type, index, spillA, Map.of());
    Table spilling = create("b", type, index, spillB, Map.of("hoodie.memory.merge.max.size", String.valueOf(128 << 10)));
    for (Table t : List.of(inMemory, spilling)) {
      t.bulkInsert(rows(0, 3_000, 1, "base").iterator());
      t.upsert(upsertWithDuplicates().iterator());
      t.delete(keys(500, 1_500).iterator());
      t.insert(rows(20_000, 1_500, 5, "late").iterator());
    }
    assertFalse(Files.exists(spillA), "the in-memory path spilled");
    assertTrue(Files.isDirectory(spillB), "the small budget did not make the write spill");
    try (Stream<Path> left = Files.list(spillB)) {
      assertEquals(List.of(), left.toList(), "spill files left behind");
    }
    Map<String, String> expected = contents(inMemory);
    assertEquals(5_000 - 1_000 + 1_500, expected.size());
    assertEquals(expected, contents(spilling));
    assertEquals(MorFixture.baseFiles(dir.resolve("a")).size(), MorFixture.baseFiles(dir.resolve("b")).size(),
        "both paths plan the same file groups");
    // the duplicates' winners: larger ts, a tie to the later record, a smaller ts loses
    assertEquals("3:dup", expected.get(MergedReadMemoryCheck.key(3_000)));
    assertEquals("2:dup", expected.get(MergedReadMemoryCheck.key(3_001)));
    assertEquals("2:upsert", expected.get(MergedReadMemoryCheck.key(3_002)));
  }

  /**
   * A Merge-on-Read update-only batch appends log blocks whether or not it spills, as Hudi does: its file groups are
   * small files, but no partition of the batch takes inserts, so none is rewritten (the spilling path used to rewrite
   * every small file group it updated).
   */
  @ParameterizedTest
  @CsvSource({"in-memory, 0", "spilling, 65536"})
  void aMergeOnReadUpdateOnlyBatchAppendsToTheLogWhetherOrNotItSpills(String name, long budget) throws IOException {
    Path spill = dir.resolve("spill-" + name);
    Map<String, String> options = new HashMap<>(Map.of("hoodie.memory.spillable.map.path", spill.toString()));
    if (budget > 0) {
      options.put("hoodie.memory.merge.max.size", String.valueOf(budget));
    }
    Path table = dir.resolve(name);
    Table t = Tables.create(table.toString(), TableSpec.builder("big").type(TableType.MERGE_ON_READ).recordKey("id")
        .precombine("ts").partitionBy("part").schema(MergedReadMemoryCheck.SCHEMA).build(), Config.of(options));
    t.insert(rows(0, 3_000, 1, "base").iterator());
    Map<String, byte[]> before = MorFixture.dataFiles(table);
    assertTrue(MorFixture.logFiles(table).isEmpty());
    assertEquals(3, before.size(), "one small base file per partition: " + before.keySet());

    t.upsert(rows(0, 3_000, 2, "update").iterator());
    assertEquals(budget > 0, Files.isDirectory(spill), "the write spilled only with the small budget");

    Map<String, byte[]> after = MorFixture.dataFiles(table);
    for (Map.Entry<String, byte[]> e : before.entrySet()) {
      assertArrayEquals(e.getValue(), after.get(e.getKey()), "base file unchanged: " + e.getKey());
    }
    assertEquals(List.copyOf(before.keySet()), MorFixture.baseFiles(table), "no base file was rewritten");
    List<String> logs = MorFixture.logFiles(table);
    for (String base : before.keySet()) {
      String partition = base.substring(0, base.indexOf('/'));
      String fileId = base.substring(partition.length() + 1, base.indexOf('_'));
      assertTrue(logs.stream().anyMatch(l -> l.startsWith(partition + "/." + fileId + "_")),
          "the file slice of " + base + " has a log file: " + logs);
    }
    Map<String, String> rows = contents(t);
    assertEquals(3_000, rows.size());
    rows.forEach((key, version) -> assertEquals("2:update", version, key));
  }

  private Table create(String name, TableType type, String index, Path spill, Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(Map.of(
        "hoodie.index.type", index,
        "hoodie.parquet.max.file.size", String.valueOf(300 << 10),
        "hoodie.parquet.small.file.limit", String.valueOf(200 << 10),
        "hoodie.index.bloom.num_entries", "2000",
        "hoodie.memory.spillable.map.path", spill.toString()));
    options.putAll(extra);
    return Tables.create(dir.resolve(name).toString(), TableSpec.builder("big").type(type).recordKey("id")
        .precombine("ts").partitionBy("part").schema(MergedReadMemoryCheck.SCHEMA).build(), Config.of(options));
  }

  /** Keys 1000..4999 at ts 2 (half of them in the table), then duplicates of 2500..3499 at ts 3, 2 and 1. */
  private static List<GenericRecord> upsertWithDuplicates() {
    List<GenericRecord> out = rows(1_000, 4_000, 2, "upsert");
    for (int i = 2_500; i < 3_500; i++) {
      out.add(row(i, 3 - (i % 3), "dup"));
    }
    return out;
  }

  private static List<GenericRecord> rows(int from, int n, long ts, String tag) {
    List<GenericRecord> out = new ArrayList<>(n);
    for (int i = from; i < from + n; i++) {
      out.add(row(i, ts, tag));
    }
    return out;
  }

  private static List<GenericRecord> keys(int from, int to) {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(row(i, 9, "gone"));
    }
    return out;
  }

  static GenericRecord row(int i, long ts, String tag) {
    GenericData.Record r = new GenericData.Record(MergedReadMemoryCheck.SCHEMA);
    r.put("id", MergedReadMemoryCheck.key(i));
    r.put("ts", ts);
    r.put("part", "p" + (i % 3));
    r.put("payload", ts + ":" + tag + ":" + MergedReadMemoryCheck.payload(i, PAYLOAD));
    return r;
  }

  /** Key → "ts:tag" of every row. */
  private static Map<String, String> contents(Table t) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        String payload = r.get("payload").toString();
        String version = payload.substring(0, payload.indexOf(':', payload.indexOf(':') + 1));
        assertEquals(null, out.put(r.get("id").toString(), version), "key returned twice: " + r.get("id"));
      }
    }
    return out;
  }
}
