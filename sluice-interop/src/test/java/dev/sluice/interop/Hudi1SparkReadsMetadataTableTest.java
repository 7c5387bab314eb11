package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.QueryType;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.TripFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hudi 1.x's Spark readers (the 1.0.2 and 1.1.1 bundles, {@code hoodie.metadata.enable=true}) on Sluice's version 6
 * tables that keep the metadata table: a Copy-on-Write and a Merge-on-Read table, partitioned, after inserts,
 * upserts, deletes, a compaction (Merge-on-Read) and cleans, read as snapshot and read-optimized, give exactly the
 * rows Sluice reads.
 *
 * <p>That the readers list through the metadata table, not the folders, is checked with a planted file: after Sluice
 * wrote the tables, a copy of one of each table's base files is put into its partition under a new file id, a file
 * no commit wrote and so one the metadata table does not list. A reader that lists the folders reads its rows twice
 * (the control read, with {@code hoodie.metadata.enable=false}, does); a reader of the metadata table does not. All
 * reads of one bundle run in one Spark JVM (the oracle's {@code batch}).
 */
class Hudi1SparkReadsMetadataTableTest {
  private static final List<String> BUNDLES = List.of("1.0.2", "1.1.1");
  private static final Map<String, String> METADATA_ON = Map.of("hoodie.metadata.enable", "true");

  @TempDir
  static Path dir;

  private static Path cow;
  private static Path mor;
  /** Sluice's rows per table and query, by key: "name@ts/part". */
  private static final Map<String, Map<String, String>> EXPECTED = new TreeMap<>();
  /** The keys of each table's planted base file. */
  private static final Map<Path, Integer> PLANTED_ROWS = new TreeMap<>();

  @BeforeAll
  static void writeTables() throws IOException {
    cow = build(TableType.COPY_ON_WRITE);
    mor = build(TableType.MERGE_ON_READ);
  }

  /** Sluice's options: the metadata table on, one commit retained (so cleans run), updates into log files. */
  private static Map<String, String> options() {
    return Map.of("hoodie.metadata.enable", "true", "hoodie.parquet.small.file.limit", "0",
        "hoodie.cleaner.commits.retained", "1");
  }

  private static Path build(TableType type) throws IOException {
    Path path = dir.resolve(type == TableType.COPY_ON_WRITE ? "cow" : "mor");
    Table t = TripFixture.create(path, TripFixture.spec().type(type).tableVersion(6).build(), options());
    t.insert(TripFixture.trips(0, 60, 3, 1).iterator());
    t.upsert(TripFixture.trips(0, 20, 3, 2).iterator());
    t.delete(TripFixture.trips(30, 6, 3, 2).iterator());
    if (type == TableType.MERGE_ON_READ) {
      String compaction = t.compaction().scheduleNow().orElseThrow();
      t.compaction().run(compaction);
    }
    List<GenericRecord> late = TripFixture.trips(10, 15, 3, 3);
    late.forEach(r -> r.put("name", "late-" + r.get("id")));
    t.upsert(late.iterator());
    t.upsert(TripFixture.trips(60, 5, 3, 3).iterator());
    t.clean();
    assertTrue(completed(path, ".clean"), "a clean ran on " + path);
    assertTrue(type == TableType.COPY_ON_WRITE || completed(path, ".commit"), "a compaction ran on " + path);
    assertTrue(Files.isRegularFile(path.resolve(".hoodie/metadata/.hoodie/hoodie.properties")), "metadata table");

    EXPECTED.put(key(path, "snapshot"), rows(t, QueryType.SNAPSHOT));
    EXPECTED.put(key(path, "read_optimized"), rows(t, QueryType.READ_OPTIMIZED));
    assertEquals(59, EXPECTED.get(key(path, "snapshot")).size());
    PLANTED_ROWS.put(path, plant(path));
    return path;
  }

  @Test
  void hudi1SparkBundlesReadSluiceTablesThroughTheirMetadataTableExactly() {
    for (String version : BUNDLES) {
      List<HudiSpark.Read> reads = new ArrayList<>();
      for (Path table : List.of(cow, mor)) {
        reads.add(new HudiSpark.Read(table, "snapshot", METADATA_ON));
        reads.add(new HudiSpark.Read(table, "read_optimized", METADATA_ON));
      }
      // the control: listing the folders finds the planted file
      reads.add(new HudiSpark.Read(cow, "snapshot", Map.of("hoodie.metadata.enable", "false")));
      List<List<Map<String, Object>>> results = HudiSpark.locate(version).read(reads, dir);
      for (int i = 0; i < 4; i++) {
        HudiSpark.Read read = reads.get(i);
        Map<String, String> expected = EXPECTED.get(key(read.table(), read.query()));
        List<Map<String, Object>> rows = results.get(i);
        assertEquals(expected, byKey(rows), "Hudi " + version + ", " + read.table().getFileName() + " "
            + read.query() + ", metadata table on");
        assertEquals(expected.size(), rows.size(), "no key twice (the planted file is not listed): Hudi " + version
            + ", " + read.table().getFileName() + " " + read.query());
      }
      List<Map<String, Object>> listed = results.get(4);
      assertEquals(EXPECTED.get(key(cow, "snapshot")).size() + PLANTED_ROWS.get(cow), listed.size(),
          "Hudi " + version + " with the metadata table off lists the planted file too");
    }
  }

  private static String key(Path table, String query) {
    return table.getFileName() + "/" + query;
  }

  private static Map<String, String> rows(Table t, QueryType type) {
    Map<String, String> out = new TreeMap<>();
    TripFixture.rows(t.newScan().queryType(type).open()).forEach((k, r) -> out.put(k, r.get("name") + "@"
        + r.get("ts") + "/" + r.get("part")));
    return out;
  }

  private static Map<String, String> byKey(List<Map<String, Object>> rows) {
    Map<String, String> out = new TreeMap<>();
    for (Map<String, Object> r : rows) {
      out.put(r.get("id").toString(), r.get("name") + "@" + r.get("ts") + "/" + r.get("part"));
    }
    return out;
  }

  private static boolean completed(Path table, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(table.resolve(".hoodie"))) {
      return files.anyMatch(p -> p.getFileName().toString().endsWith(suffix));
    }
  }

  /**
   * Copies the newest base file of partition {@code p0} under a new file id (same write token and instant, so the
   * name is that of a committed base file): a file only a folder listing finds. Returns its row count.
   */
  private static int plant(Path table) throws IOException {
    Path partition = table.resolve("p0");
    Path newest;
    try (Stream<Path> files = Files.list(partition)) {
      newest = files.filter(p -> p.getFileName().toString().endsWith(".parquet"))
          .max((a, b) -> instant(a).compareTo(instant(b))).orElseThrow();
    }
    String name = newest.getFileName().toString();
    Path copy = partition.resolve(UUID.randomUUID() + "-0" + name.substring(name.indexOf('_')));
    Files.copy(newest, copy);
    long rows;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(copy))) {
      rows = reader.getRecordCount();
    }
    assertTrue(rows > 0, "planted rows");
    return (int) rows;
  }

  private static String instant(Path baseFile) {
    String n = baseFile.getFileName().toString();
    return n.substring(n.lastIndexOf('_') + 1, n.indexOf('.'));
  }
}
