package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shard count of a new record index is Hudi 0.15's estimate from the table's key count
 * ({@code hoodie.metadata.record.index.min/max.filegroup.count}, {@code .max.filegroup.size}, {@code .growth.factor}):
 * with a shard size of 20 entries, 90 keys and growth 1.5 need 6 shards, not the minimum of 2. Hudi's Java client
 * building the index over the same 90 keys with the same settings picks the same count, and Hudi's own reader of the
 * index finds every key of Sluice's 6 shards where the table has it.
 */
class RecordIndexShardCountInteropTest {
  private static final int KEYS = 90;

  @TempDir
  Path dir;

  /** Sizing settings that make a 90-key table need more than the minimum of shards. */
  private static Map<String, String> sizing() {
    return Map.of("hoodie.metadata.record.index.min.filegroup.count", "2",
        "hoodie.metadata.record.index.max.filegroup.count", "50",
        "hoodie.metadata.record.index.max.filegroup.size", "960",
        "hoodie.metadata.record.index.growth.factor", "1.5");
  }

  @Test
  void aNewRecordIndexHasTheShardCountHudisJavaClientPicksAndHudiFindsEveryKeyInIt() throws IOException {
    // Hudi's Java client: 90 keys written without the record index, then a write with it on builds it (one oracle JVM)
    Path hudiTable = dir.resolve("by-hudi");
    HudiOracle oracle = HudiOracle.locate().withTimeout(Duration.ofMinutes(10));
    Map<String, String> conf = new HashMap<>(sizing());
    conf.put("hoodie.metadata.record.index.enable", "false");
    conf.put("hoodie.parquet.small.file.limit", "0");
    OracleBatch byHudi = oracle.batch();
    byHudi.create(hudiTable, OracleTableSpec.builder("trips", TripFixture.SCHEMA).partitionBy("part").build(),
        List.of());
    byHudi.write(hudiTable, "insert", TripFixture.SCHEMA, TripFixture.trips(0, KEYS, 3, 1), Map.copyOf(conf));
    conf.put("hoodie.metadata.record.index.enable", "true");
    byHudi.write(hudiTable, "upsert", TripFixture.SCHEMA, TripFixture.trips(0, 5, 3, 2), Map.copyOf(conf));
    byHudi.run();
    Set<String> hudiShards = shards(hudiTable);

    // Sluice: the same 90 keys, then a write with the record index on builds it from them
    Path path = dir.resolve("by-sluice");
    Map<String, String> options = new HashMap<>(Map.of("hoodie.metadata.enable", "true",
        "hoodie.parquet.small.file.limit", "0"));
    Table t = TripFixture.create(path, TripFixture.spec().tableVersion(6).build(), options);
    t.insert(TripFixture.trips(0, KEYS, 3, 1).iterator());
    options.putAll(sizing());
    options.put("hoodie.metadata.record.index.enable", "true");
    options.put("hoodie.index.type", "RECORD_INDEX");
    Tables.open(path.toString(), Config.of(options)).upsert(TripFixture.trips(0, 5, 3, 2).iterator());
    Set<String> sluiceShards = shards(path);

    // ceil(90 x 1.5) = 135 entries over 960 / 48 = 20 per shard: 6, above the minimum of 2
    assertEquals(6, hudiShards.size(), "Hudi's shards: " + hudiShards);
    assertEquals(hudiShards, sluiceShards, "Sluice's shards are the Java client's file ids");

    // Hudi's reader of the index (key hash modulo the shard count) finds every key where Sluice's table has it
    Map<String, String> placement = placement(Tables.open(path.toString(), Config.empty()));
    assertEquals(KEYS, placement.size());
    List<String> keys = new ArrayList<>(placement.keySet());
    keys.add("id-999999");
    OracleBatch reads = oracle.batch();
    OracleBatch.Pending<Map<String, String>> hbase = reads.metadataRecordIndex(path, keys, "hbase");
    OracleBatch.Pending<Map<String, String>> hudiNative = reads.metadataRecordIndex(path, keys, "native");
    reads.run();
    assertEquals(placement, hbase.get(), "Hudi 0.15's record index (HBase's HFile reader) of Sluice's 6 shards");
    assertEquals(placement, hudiNative.get(), "Hudi 0.15's record index (its native HFile reader)");
  }

  /** The record index's file ids under {@code .hoodie/metadata/record_index}. */
  private static Set<String> shards(Path table) throws IOException {
    Path folder = table.resolve(".hoodie/metadata/record_index");
    assertTrue(Files.isDirectory(folder), "no record index in " + table);
    Set<String> ids = new TreeSet<>();
    try (Stream<Path> files = Files.list(folder)) {
      files.map(p -> p.getFileName().toString()).filter(n -> n.contains("record-index-"))
          .forEach(n -> ids.add(n.substring(n.indexOf("record-index-"), n.indexOf('_'))));
    }
    return ids;
  }

  /** Each key's "partition/fileId" from the table's meta columns. */
  private static Map<String, String> placement(Table t) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().withMetaColumns(true).open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        String name = r.get("_hoodie_file_name").toString();
        out.put(r.get("_hoodie_record_key").toString(), r.get("_hoodie_partition_path") + "/"
            + (name.startsWith(".") ? name.substring(1) : name).split("_")[0]);
      }
    }
    return out;
  }
}
