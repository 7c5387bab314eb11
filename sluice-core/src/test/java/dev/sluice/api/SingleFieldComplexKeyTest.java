package dev.sluice.api;

import static dev.sluice.api.TripFixture.trip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

  /** An upgrade to 9 or a downgrade from it would change the stored keys' form: refused, the table unchanged. */
  @ParameterizedTest
  @CsvSource({"6, 9", "8, 9", "9, 8"})
  void aVersionChangeAcrossNineIsRefusedForSuchATable(int from, int to) throws java.io.IOException {
    Path p = dir.resolve("t");
    Table t = TripFixture.create(p, TripFixture.spec().partitionBy("part", "name").tableVersion(from).build(), Map.of());
    t.insert(List.of(trip("k1", 1, "p1", "a", 1.0)).iterator());
    String before = java.nio.file.Files.readString(p.resolve(".hoodie/hoodie.properties"));
    SluiceException e = assertThrows(SluiceException.class, () -> {
      if (to > from) {
        t.upgrade(to);
      } else {
        t.downgrade(to);
      }
    });
    assertEquals(SluiceException.Kind.UNSUPPORTED, e.kind());
    assertTrue(e.getMessage().contains("'id:value' at version 9"), e.getMessage());
    assertEquals(before, java.nio.file.Files.readString(p.resolve(".hoodie/hoodie.properties")));
    assertEquals(from, Tables.open(p.toString()).tableVersion());
  }

  /** The same change on a table of the simple key generator goes ahead: its keys have one form on every version. */
  @ParameterizedTest
  @CsvSource({"6, 9"})
  void aSimpleKeyTableStillUpgrades(int from, int to) {
    Table t = TripFixture.create(dir.resolve("t"), TripFixture.spec().tableVersion(from).build(), Map.of());
    t.insert(List.of(trip("k1", 1, "p1", "a", 1.0)).iterator());
    t.upgrade(to);
    assertEquals(to, Tables.open(dir.resolve("t").toString()).tableVersion());
  }
}
