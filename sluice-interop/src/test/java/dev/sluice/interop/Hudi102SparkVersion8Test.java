package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.Config;
import dev.sluice.api.QueryType;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hudi 1.0.2 (the release that writes table version 8), on Spark with its bundle, as the oracle of Sluice's
 * version-8 tables with their metadata table: in one Spark session it reads a Copy-on-Write and a Merge-on-Read table
 * Sluice wrote (partitioned; insert, upsert, delete, a compaction on Merge-on-Read, a clean) with the metadata-table
 * listing on and gets exactly Sluice's rows; its {@code validate_metadata_table_files} procedure lists each table
 * through Sluice's metadata table and through the storage and finds the same partitions and files; it upserts into
 * both tables with the metadata table on, which keeps them at version 8 without rebuilding the metadata table; and it
 * creates a version-8 table of its own. Sluice then reads the rows Hudi read and writes on all three tables.
 */
class Hudi102SparkVersion8Test {
  private static final String HUDI = "1.0.2";
  private static final String DDL = "id STRING, ts BIGINT, part STRING, name STRING, amount DOUBLE";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> METADATA_ON = Map.of("hoodie.metadata.enable", "true");

  @TempDir
  Path dir;

  /** Sluice's options: the metadata table on (the default), one commit retained (so cleans run). */
  private static Map<String, String> options() {
    return Map.of("hoodie.metadata.enable", "true", "hoodie.parquet.small.file.limit", "0",
        "hoodie.cleaner.commits.retained", "1");
  }

  /** Hudi's Spark write options for a trips table of {@code type}, metadata table on. */
  private static Map<String, String> writeOptions(TableType type) {
    return Map.of("hoodie.table.name", "trips", "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts", "hoodie.datasource.write.partitionpath.field", "part",
        "hoodie.datasource.write.table.type", type.name(), "hoodie.metadata.enable", "true",
        "hoodie.parquet.small.file.limit", "0");
  }

  private Table build(TableType type) {
    Path path = dir.resolve(type == TableType.COPY_ON_WRITE ? "cow" : "mor");
    Table t = TripFixture.create(path, TripFixture.spec().type(type).tableVersion(8).build(), options());
    t.insert(TripFixture.trips(0, 60, 3, 1).iterator());
    t.upsert(TripFixture.trips(0, 20, 3, 2).iterator());
    t.delete(TripFixture.trips(30, 6, 3, 2).iterator());
    if (type == TableType.MERGE_ON_READ) {
      t.compaction().run(t.compaction().scheduleNow().orElseThrow());
    }
    List<GenericRecord> late = TripFixture.trips(10, 15, 3, 3);
    late.forEach(r -> r.put("name", "late-" + r.get("id")));
    t.upsert(late.iterator());
    t.upsert(TripFixture.trips(60, 5, 3, 3).iterator());
    t.clean();
    assertEquals(8, t.tableVersion());
    assertTrue(completed(path, ".clean"), "a clean ran on " + path);
    assertTrue(type == TableType.COPY_ON_WRITE || completed(path, ".commit"), "a compaction ran on " + path);
    assertEquals("8", properties(path.resolve(".hoodie/metadata/.hoodie/hoodie.properties"))
        .getProperty("hoodie.table.version"), "Sluice's metadata table of " + path);
    return t;
  }

  @Test
  void hudi102OnSparkReadsListsAndContinuesSluicesVersion8TablesAndSluiceContinuesHudis() {
    Table cow = build(TableType.COPY_ON_WRITE);
    Table mor = build(TableType.MERGE_ON_READ);
    List<Table> tables = List.of(cow, mor);
    Map<String, Set<String>> filesPartitionBefore = new HashMap<>();
    Map<String, String> metadataInitBefore = new HashMap<>();
    Map<String, Map<String, String>> sluiceRows = new HashMap<>();
    Map<String, Map<String, Long>> storage = new HashMap<>();
    for (Table t : tables) {
      storage.put(t.location(), storageListing(Path.of(t.location())));
      sluiceRows.put(t.location() + "/snapshot", rows(t, QueryType.SNAPSHOT));
      sluiceRows.put(t.location() + "/read_optimized", rows(t, QueryType.READ_OPTIMIZED));
      filesPartitionBefore.put(t.location(), filesPartition(Path.of(t.location())));
      metadataInitBefore.put(t.location(), firstMetadataInstant(Path.of(t.location())));
    }

    // one Spark session: reads, listings, an upsert into each Sluice table and a read after it, a table of Hudi's
    List<List<String>> commands = new ArrayList<>();
    for (Table t : tables) {
      commands.add(new HudiSpark.Read(Path.of(t.location()), "snapshot", METADATA_ON).args());
      commands.add(new HudiSpark.Read(Path.of(t.location()), "read_optimized", METADATA_ON).args());
      commands.add(new HudiSpark.Read(Path.of(t.location(), ".hoodie", "metadata"), "snapshot", Map.of()).args());
    }
    List<GenericRecord> bySpark = TripFixture.trips(15, 20, 3, 4);
    bySpark.forEach(r -> r.put("name", "spark-" + r.get("id")));
    for (Table t : tables) {
      commands.add(HudiSpark.writeArgs(Path.of(t.location()), "upsert", bySpark, DDL, writeOptions(t.type()), dir));
      commands.add(new HudiSpark.Read(Path.of(t.location()), "snapshot", METADATA_ON).args());
    }
    Path hudiTable = dir.resolve("by-hudi");
    List<GenericRecord> hudiRows = TripFixture.trips(0, 30, 3, 1);
    commands.add(HudiSpark.writeArgs(hudiTable, "insert", hudiRows, DDL, writeOptions(TableType.MERGE_ON_READ),
        dir));
    List<List<String>> out = HudiSpark.locate(HUDI).batchLines(commands, dir);

    for (int i = 0; i < tables.size(); i++) {
      Table t = tables.get(i);
      String what = "Hudi " + HUDI + " on Sluice's version-8 " + t.type() + " table";
      List<String> section = out.get(3 * i);
      Map<String, String> snapshot = byKey(HudiSpark.parseRows(section));
      assertEquals(sluiceRows.get(t.location() + "/snapshot"), snapshot, what + ", snapshot, metadata listing on");
      assertEquals(59, snapshot.size());
      assertEquals(HudiSpark.parseRows(section).size(), snapshot.size(), "no key twice: " + what);
      assertEquals(sluiceRows.get(t.location() + "/read_optimized"), byKey(HudiSpark.parseRows(out.get(3 * i + 1))),
          what + ", read-optimized, metadata listing on");
      assertListingsAgree(storage.get(t.location()), out.get(3 * i + 2), what);
    }

    int after = 3 * tables.size();
    for (int i = 0; i < tables.size(); i++) {
      Table before = tables.get(i);
      Path path = Path.of(before.location());
      String what = "Sluice's " + before.type() + " table after Hudi " + HUDI + "'s upsert";
      assertEquals("8", properties(path.resolve(".hoodie/hoodie.properties")).getProperty("hoodie.table.version"),
          what + " stays at version 8");
      assertEquals("8", properties(path.resolve(".hoodie/metadata/.hoodie/hoodie.properties"))
          .getProperty("hoodie.table.version"), what + ": its metadata table stays at version 8");
      assertTrue(filesPartition(path).containsAll(filesPartitionBefore.get(before.location())),
          what + ": the files partition was not rebuilt: " + filesPartitionBefore.get(before.location()) + " -> "
              + filesPartition(path));
      assertEquals(metadataInitBefore.get(before.location()), firstMetadataInstant(path),
          what + ": the metadata table's first instant (its initialization) is kept");

      Map<String, String> hudiRead = byKey(HudiSpark.parseRows(out.get(after + 2 * i + 1)));
      for (GenericRecord r : bySpark) {
        assertEquals("spark-" + r.get("id") + "@4/" + r.get("part"), hudiRead.get(r.get("id").toString()), what);
      }
      Table t = Tables.open(before.location(), Config.of(options()));
      assertEquals(8, t.tableVersion());
      assertEquals(hudiRead, rows(t, QueryType.SNAPSHOT), what + ": Sluice reads the rows Hudi reads");
      List<GenericRecord> again = TripFixture.trips(0, 10, 3, 5);
      t.upsert(inSchemaOf(t, again).iterator());
      Map<String, String> expected = new TreeMap<>(hudiRead);
      again.forEach(r -> expected.put(r.get("id").toString(), r.get("name") + "@5/" + r.get("part")));
      assertEquals(expected, rows(Tables.open(before.location(), Config.of(options())), QueryType.SNAPSHOT),
          what + ", then Sluice's upsert");
    }

    assertEquals("8", properties(hudiTable.resolve(".hoodie/hoodie.properties")).getProperty("hoodie.table.version"),
        "Hudi " + HUDI + " writes version 8");
    assertTrue(Files.isRegularFile(hudiTable.resolve(".hoodie/metadata/.hoodie/hoodie.properties")),
        "Hudi " + HUDI + " wrote its metadata table");
    Table hudis = Tables.open(hudiTable.toString(), Config.of(options()));
    assertEquals(8, hudis.tableVersion());
    Map<String, String> expected = new TreeMap<>();
    hudiRows.forEach(r -> expected.put(r.get("id").toString(), r.get("name") + "@1/" + r.get("part")));
    assertEquals(expected, rows(hudis, QueryType.SNAPSHOT), "Sluice reads Hudi " + HUDI + "'s version-8 table");
    List<GenericRecord> update = TripFixture.trips(20, 20, 3, 2);
    update.forEach(r -> r.put("name", "sluice-" + r.get("id")));
    hudis.upsert(inSchemaOf(hudis, update).iterator());
    update.forEach(r -> expected.put(r.get("id").toString(), r.get("name") + "@2/" + r.get("part")));
    assertEquals(expected, rows(Tables.open(hudiTable.toString(), Config.of(options())), QueryType.SNAPSHOT),
        "Sluice continues Hudi " + HUDI + "'s version-8 table");
  }

  /**
   * The records in the table's schema: Spark's JSON reader makes every column nullable, so after a Spark write the
   * table's key is a nullable string, and Sluice refuses records whose key type differs from the table's.
   */
  private static List<GenericRecord> inSchemaOf(Table t, List<GenericRecord> records) {
    List<GenericRecord> out = new ArrayList<>();
    for (GenericRecord r : records) {
      GenericData.Record copy = new GenericData.Record(t.schema());
      r.getSchema().getFields().forEach(f -> copy.put(f.name(), r.get(f.name())));
      out.add(copy);
    }
    return out;
  }

  /**
   * The metadata table's {@code files} partition as Hudi's Spark reader merges it (one row per partition, its live
   * files with their sizes, and the partition list) lists exactly the partitions and files a storage listing finds,
   * with the files' sizes ({@code storage}, taken before Hudi wrote).
   */
  private static void assertListingsAgree(Map<String, Long> storage, List<String> lines, String what) {
    Map<String, Long> listed = new TreeMap<>();
    Set<String> partitions = new TreeSet<>();
    Set<String> allPartitions = new TreeSet<>();
    try {
      for (String line : lines) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode row = JSON.readTree(line);
        JsonNode files = row.path("filesystemMetadata");
        if (row.path("type").asInt() == 1) {
          files.fieldNames().forEachRemaining(allPartitions::add);
        } else if (row.path("type").asInt() == 2) {
          String partition = row.path("key").asText();
          partitions.add(partition);
          files.fields().forEachRemaining(f -> {
            assertFalse(f.getValue().path("isDeleted").asBoolean(), what + ": a deleted file after merging: " + f);
            listed.put(partition + "/" + f.getKey(), f.getValue().path("size").asLong());
          });
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertEquals(storage, listed, what + ": files (and sizes) through the metadata table vs the storage");
    Set<String> storagePartitions = storage.keySet().stream().map(k -> k.substring(0, k.indexOf('/')))
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(storagePartitions, partitions, what + ": partitions with files");
    assertEquals(storagePartitions, allPartitions, what + ": the metadata table's partition list");
  }

  /** The data files (base and log) in the table's partitions, as "partition/name", with their sizes. */
  private static Map<String, Long> storageListing(Path table) {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> partitions = Files.list(table)) {
      for (Path p : partitions.filter(Files::isDirectory).filter(p -> !p.getFileName().toString().startsWith("."))
          .toList()) {
        try (Stream<Path> files = Files.list(p)) {
          for (Path f : files.filter(f -> !f.getFileName().toString().startsWith(".hoodie_partition_metadata"))
              .toList()) {
            out.put(p.getFileName() + "/" + f.getFileName(), Files.size(f));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static Set<String> filesPartition(Path table) {
    try (Stream<Path> files = Files.list(table.resolve(".hoodie/metadata/files"))) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".hfile"))
          .collect(Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The smallest requested time among the metadata table's active and archived instants' file names. */
  private static String firstMetadataInstant(Path table) {
    try (Stream<Path> files = Files.list(table.resolve(".hoodie/metadata/.hoodie/timeline"))) {
      return files.map(f -> f.getFileName().toString()).filter(n -> Character.isDigit(n.charAt(0)))
          .map(n -> n.substring(0, n.indexOf(n.contains("_") ? '_' : '.'))).min(String::compareTo).orElseThrow();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Properties properties(Path file) {
    Properties p = new Properties();
    try (var in = Files.newInputStream(file)) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
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

  private static boolean completed(Path table, String suffix) {
    try (Stream<Path> files = Files.list(table.resolve(".hoodie/timeline"))) {
      return files.anyMatch(p -> p.getFileName().toString().endsWith(suffix));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
