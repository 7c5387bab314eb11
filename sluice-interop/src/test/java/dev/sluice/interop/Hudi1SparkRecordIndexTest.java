package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.mdt.write.RecordIndexChecks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark with Hudi 1.1.1's bundle upserts a version-9 table Sluice wrote through the record index Sluice built
 * ({@code hoodie.index.type=RECORD_INDEX}; Spark's writer has that index, Hudi 1.1.1's Java client does not): every
 * update lands in the file group Sluice's index names, no key is duplicated, and Hudi's record-index lookups (the 1.x
 * Java oracle) and Sluice's reader agree with a snapshot afterwards.
 */
class Hudi1SparkRecordIndexTest {
  private static final String DDL = "id STRING, ts BIGINT, part STRING, name STRING, amount DOUBLE";

  @TempDir
  Path dir;

  private static Map<String, String> sparkOptions() {
    Map<String, String> o = new HashMap<>(Map.of("hoodie.table.name", "trips",
        "hoodie.datasource.write.recordkey.field", "id", "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.partitionpath.field", "part", "hoodie.datasource.write.table.type", "COPY_ON_WRITE",
        "hoodie.metadata.enable", "true", "hoodie.index.type", "RECORD_INDEX",
        "hoodie.metadata.record.index.enable", "true", "hoodie.parquet.small.file.limit", "0"));
    return o;
  }

  private static List<GenericRecord> named(List<GenericRecord> records, String prefix) {
    records.forEach(r -> r.put("name", prefix + r.get("id")));
    return records;
  }

  @Test
  void spark111UpsertsThroughSluicesVersion9RecordIndexWithoutDuplicates() throws IOException {
    Path path = dir.resolve("trips");
    Table t = TripFixture.create(path, TripFixture.spec().tableVersion(9).build(), Map.of("hoodie.metadata.enable",
        "true", "hoodie.metadata.record.index.enable", "true", "hoodie.metadata.record.index.min.filegroup.count", "4",
        "hoodie.index.type", "RECORD_INDEX", "hoodie.parquet.small.file.limit", "0"));
    t.insert(TripFixture.trips(0, 60, 3, 1).iterator());
    t.upsert(TripFixture.trips(50, 20, 3, 2).iterator());
    Map<String, String> before = RecordIndexChecks.truth(t);
    assertEquals(70, before.size());

    HudiSpark.locate("1.1.1").write(path, "upsert", named(TripFixture.trips(40, 40, 3, 3), "spark-"), DDL,
        sparkOptions(), dir);
    List<String> mdtTimeline;
    try (Stream<Path> files = Files.list(path.resolve(".hoodie/metadata/.hoodie/timeline"))) {
      mdtTimeline = files.map(f -> f.getFileName().toString()).sorted().toList();
    }
    assertEquals(1, mdtTimeline.stream().filter(n -> n.matches("00000000000000001_\\d{17}\\.deltacommit")).count(),
        "Spark's writer kept Sluice's record index, no rebuild: " + mdtTimeline);

    Table after = Tables.open(path.toString(), Config.empty());
    Map<String, String> placement = RecordIndexChecks.truth(after);
    assertEquals(80, placement.size(), placement.toString());
    for (int i = 40; i < 70; i++) {
      String k = String.format("id-%06d", i);
      assertEquals(before.get(k), placement.get(k), "updated in the file group Sluice's index names: " + k);
    }
    List<String> keys = new ArrayList<>(placement.keySet());
    keys.add("id-999999");
    OracleBatch checks = HudiOracle.locateHudi1().batch();
    OracleBatch.Pending<Map<String, String>> index = checks.metadataRecordIndex(path, keys, Optional.empty());
    OracleBatch.Pending<List<GenericRecord>> rows = checks.read(path, "snapshot", Optional.empty(), true);
    checks.run();
    assertEquals(placement, index.get(), "Hudi 1.1.1's record index after Spark's write: every key, where it is");
    Map<String, String> byHudi = new TreeMap<>();
    for (GenericRecord r : rows.get()) {
      String prev = byHudi.put(r.get("id").toString(), r.get("name") + "@" + r.get("ts"));
      assertEquals(null, prev, "duplicate key in Hudi's read: " + r.get("id"));
    }
    assertEquals(80, byHudi.size());
    assertEquals("spark-id-000045@3", byHudi.get("id-000045"));
    assertFalse(byHudi.containsKey("id-999999"));
    assertEquals(List.of(), RecordIndexChecks.problems(after, keys), "Sluice's reader of the index Spark extended");
    assertTrue(TripFixture.rows(after).keySet().equals(byHudi.keySet()));
  }
}
