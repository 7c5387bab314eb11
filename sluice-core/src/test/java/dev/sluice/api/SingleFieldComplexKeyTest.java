package dev.sluice.api;

import static dev.sluice.api.TripFixture.trip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table partitioned by two fields with one record key field uses Hudi's complex key generator. Its record keys are
 * {@code id:value} on version 9, as Hudi 1.1 writes them, and the plain value on versions 6 and 8, as Hudi 0.15 and
 * 1.0.2 write them; an update finds the row under the same key on every version.
 */
class SingleFieldComplexKeyTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @CsvSource({"6, COPY_ON_WRITE, ''", "8, MERGE_ON_READ, ''", "9, COPY_ON_WRITE, 'id:'", "9, MERGE_ON_READ, 'id:'"})
  void recordKeysFollowTheTableVersionsEncoding(int version, TableType type, String prefix) {
    Table t = TripFixture.create(dir.resolve("t"), TripFixture.spec().type(type).partitionBy("part", "name")
        .tableVersion(version).build(), Map.of());
    assertTrue(t.inspect().keyGenerator().orElseThrow().matches("COMPLEX|org\\.apache\\.hudi\\.keygen\\.ComplexKeyGenerator"),
        t.inspect().keyGenerator().toString());
    t.insert(List.of(trip("k1", 1, "p1", "a", 1.0), trip("k2", 1, "p2", "b", 2.0)).iterator());
    t.upsert(List.of(trip("k1", 2, "p1", "a", 10.0)).iterator());
    Map<String, String> keys = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().withMetaColumns(true).open()) {
      it.forEachRemaining(r -> keys.put(r.get("_hoodie_record_key").toString(), r.get("amount").toString()));
    }
    assertEquals(Map.of(prefix + "k1", "10.0", prefix + "k2", "2.0"), keys);
  }
}
