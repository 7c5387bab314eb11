package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Hudi's Spark users run, on Sluice's tables: Spark 3.5 with Hudi 0.15.0's Spark bundle upserts into a
 * Merge-on-Read table Sluice wrote, Sluice reads the result, and Spark with Hudi 1.1.1's bundle (metadata-table
 * listing on, its default) reads the same rows as Sluice.
 */
class SparkInteropTest {
  private static final String DDL = "id STRING, ts BIGINT, part STRING, name STRING, amount DOUBLE";

  @TempDir
  Path dir;

  /** Hudi's Spark write options for the trips table Sluice created. */
  private static Map<String, String> writeOptions() {
    return Map.of("hoodie.table.name", "trips", "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts", "hoodie.datasource.write.partitionpath.field", "part",
        "hoodie.datasource.write.table.type", "MERGE_ON_READ", "hoodie.metadata.enable", "false",
        "hoodie.parquet.small.file.limit", "0");
  }

  private static Map<String, String> byKey(List<Map<String, Object>> rows) {
    Map<String, String> out = new TreeMap<>();
    for (Map<String, Object> r : rows) {
      out.put(r.get("id").toString(), r.get("name") + "@" + r.get("ts") + "/" + r.get("part"));
    }
    return out;
  }

  private static Map<String, String> byKey(Table t) {
    Map<String, String> out = new TreeMap<>();
    TripFixture.rows(t).forEach((k, r) -> out.put(k, r.get("name") + "@" + r.get("ts") + "/" + r.get("part")));
    return out;
  }

  @Test
  void sparkWithHudi015UpsertsASluiceTableAndHudi111ReadsWhatSluiceReads() {
    Path path = dir.resolve("trips");
    // the metadata table off as for Spark's writer below (WideRows.NO_METADATA_TABLE says why)
    Table t = TripFixture.create(path, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(6).build(),
        Map.of("hoodie.parquet.small.file.limit", "0", "hoodie.metadata.enable", "false"));
    t.insert(TripFixture.trips(0, 40, 3, 1).iterator());
    t.upsert(TripFixture.trips(0, 10, 3, 2).iterator());

    List<GenericRecord> bySpark = TripFixture.trips(5, 20, 3, 3);
    bySpark.forEach(r -> r.put("name", "spark-" + r.get("id")));
    HudiSpark.locate("0.15.0").write(path, "upsert", bySpark, DDL, writeOptions(), dir);

    Map<String, String> sluice = byKey(Tables.open(path.toString(), Config.empty()));
    assertEquals(40, sluice.size(), sluice.toString());
    for (GenericRecord r : bySpark) {
      assertEquals("spark-" + r.get("id") + "@3/" + r.get("part"), sluice.get(r.get("id").toString()));
    }
    assertEquals("name-0@2/p0", sluice.get("id-000000"), "Sluice's own update stays");
    assertEquals("name-39@1/p0", sluice.get("id-000039"));
    assertEquals(sluice, byKey(HudiSpark.locate("1.1.1").read(path, "snapshot", Map.of("hoodie.metadata.enable",
        "true"))), "Spark with Hudi 1.1.1 reads what Sluice reads");
  }
}
