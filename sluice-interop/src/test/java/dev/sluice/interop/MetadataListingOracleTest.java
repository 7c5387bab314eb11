package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sluice.api.TripFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The oracle's view of a metadata table ({@link HudiOracle#metadataListing}) is what the metadata-table tests compare
 * with: on a table Hudi 0.15 wrote with its metadata table on (its default), both HFile readers list exactly the
 * partitions and files a listing of the table's folders finds, and so does Hudi 1.1.1's metadata table reader.
 */
class MetadataListingOracleTest {
  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  /** Partitions (relative paths) with their data files (base and log files) and sizes, found by listing. */
  static Map<String, Map<String, Long>> listing(Path table) throws IOException {
    Map<String, Map<String, Long>> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(table)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String rel = table.relativize(p).toString();
        String name = p.getFileName().toString();
        boolean data = name.endsWith(".parquet") || name.matches("\\.[^.].*\\.log\\.\\d+_[0-9-]+");
        if (rel.startsWith(".hoodie") || !data) {
          continue;
        }
        String partition = p.getParent().equals(table) ? "" : table.relativize(p.getParent()).toString();
        out.computeIfAbsent(partition, k -> new TreeMap<>()).put(name, Files.size(p));
      }
    }
    return out;
  }

  @Test
  void bothHudiReadersListWhatIsOnDisk() throws IOException {
    Path table = dir.resolve("t");
    List<GenericRecord> first = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      first.add(TripFixture.trip("k" + i, 1, "p" + (i % 3), "v1", i));
    }
    // Hudi's writes and both listings in one oracle JVM
    OracleBatch batch = oracle.batch();
    batch.create(table, OracleTableSpec.builder("mdt", TripFixture.SCHEMA).mergeOnRead().partitionBy("part").build(),
        List.of());
    batch.write(table, "insert", TripFixture.SCHEMA, first, Map.of("hoodie.parquet.small.file.limit", "0"));
    batch.write(table, "upsert", TripFixture.SCHEMA, first.subList(0, 7), Map.of());
    OracleBatch.Pending<Map<String, Map<String, Long>>> hbase = batch.metadataListing(table, "hbase");
    OracleBatch.Pending<Map<String, Map<String, Long>>> nativeReader = batch.metadataListing(table, "native");
    batch.run();
    Map<String, Map<String, Long>> onDisk = listing(table);
    assertFalse(onDisk.isEmpty());
    assertEquals(onDisk, hbase.get(), "HBase's reader");
    assertEquals(onDisk, nativeReader.get(), "Hudi's native reader");
    assertEquals(onDisk, HudiOracle.locateHudi1().metadataListing(table), "Hudi 1.1.1");
  }
}
