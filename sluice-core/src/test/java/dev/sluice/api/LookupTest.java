package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.fsview.BaseFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LookupTest {
  @TempDir
  Path dir;

  /** Several key-sorted file groups per partition, so key ranges and blooms have something to rule out. */
  private static final Map<String, String> MANY_FILES = Map.of("hoodie.parquet.max.file.size", "20000",
      "hoodie.copyonwrite.record.size.estimate", "1000", "hoodie.parquet.small.file.limit", "0");

  @ParameterizedTest
  @ValueSource(strings = {"BLOOM", "SIMPLE", "GLOBAL_BLOOM"})
  void findsTheLatestVersionOfEveryKeyAndNothingForOthers(String index) {
    Map<String, String> o = new java.util.HashMap<>(MANY_FILES);
    o.put("hoodie.index.type", index);
    Table t = TripFixture.create(dir, TripFixture.spec().build(), o);
    t.bulkInsert(it(trips(0, 400, 2, 1)));
    t.upsert(it(List.of(trip("id-000010", 5, "p0", "changed", 99.5))));
    Lookup lookup = Lookup.of(Tables.open(dir.toString(), Config.of(o)));
    for (int i = 0; i < 400; i += 13) {
      String key = String.format("id-%06d", i);
      Optional<GenericRecord> row = lookup.get(key, "p" + (i % 2));
      assertTrue(row.isPresent(), key);
      assertEquals(key, row.get().get("id").toString());
      assertEquals(key, row.get().get("_hoodie_record_key").toString());
    }
    GenericRecord changed = lookup.get("id-000010", "p0").orElseThrow();
    assertEquals("changed", changed.get("name").toString());
    assertEquals(5L, changed.get("ts"));
    assertTrue(lookup.get("id-999999", "p0").isEmpty());
    assertTrue(lookup.get("id-000010x", "p0").isEmpty());
    if (!index.startsWith("GLOBAL")) {
      assertTrue(lookup.get("id-000011", "p0").isEmpty(), "id-000011 lives in p1");
    }
  }

  @Test
  void bloomIndexOpensOnlyTheCandidateFilesOfTheKeyRange() {
    Map<String, String> o = new java.util.HashMap<>(MANY_FILES);
    o.put("hoodie.index.type", "BLOOM");
    Table t = TripFixture.create(dir, TripFixture.spec().build(), o);
    t.bulkInsert(it(trips(0, 600, 1, 1)));
    List<BaseFile> files = t.fileSystemView().latestBaseFiles("p0");
    assertTrue(files.size() >= 4, "several file groups: " + files.size());
    Lookup lookup = Lookup.of(t);
    int lookups = 0;
    for (int i = 0; i < 600; i += 37) {
      assertTrue(lookup.get(String.format("id-%06d", i), "p0").isPresent());
      lookups++;
    }
    // the first lookup reads every footer; bulk insert sorted the keys, so ranges do not overlap and every
    // later lookup opens just its one candidate file
    assertEquals(files.size() + lookups - 1, lookup.indexFilesOpened());
    assertEquals(lookups, lookup.dataFilesOpened());
  }
}
