package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.bloom.BloomFilter;
import dev.sluice.internal.bloom.BloomFilterType;
import dev.sluice.internal.bloom.BloomFilters;
import dev.sluice.internal.fsview.BaseFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file written with fewer keys than {@code hoodie.index.bloom.num_entries} gets a bloom filter sized for the keys
 * it will hold, so small files do not carry a full-size filter; files at or above that size are unchanged.
 */
class SizedBloomFilterTest {
  private static final double FPP = 0.000000001;
  private static final int MAX = 100_000;

  @TempDir
  Path dir;

  @Test
  void aNewFileIsSizedForItsInsertsAndARewriteForItsRows() {
    Table t = TripFixture.create(dir, TripFixture.spec().build(),
        Map.of("hoodie.index.bloom.num_entries", "60000", "hoodie.parquet.small.file.limit", "104857600"));
    t.insert(it(trips(0, 200, 1, 1)));
    BloomFilter first = onlyFilter(t);
    assertEquals(sized(200, 200).serialize(), first.serialize(),
        "the filter is the one a 200-key filter would be after the same keys");

    // 300 more keys go into the same (small) file group: the rewrite is sized for 500 and holds every key
    t.upsert(it(trips(200, 300, 1, 1)));
    BloomFilter second = onlyFilter(t);
    assertEquals(sized(500, 500).serialize(), second.serialize());

    // updates only: the same size, so the old filter is continued and still equals one built from the keys
    List<GenericRecord> updates = new ArrayList<>();
    for (int i = 0; i < 500; i += 10) {
      updates.add(trip(String.format("id-%06d", i), 2, "p0", "u", 0));
    }
    assertEquals(updates.size(), t.upsert(it(updates)).updated());
    assertEquals(second.serialize(), onlyFilter(t).serialize());
  }

  @Test
  void aFileWithMoreKeysThanTheConfiguredEntriesKeepsTheConfiguredRows() {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of("hoodie.index.bloom.num_entries", "100"));
    t.insert(it(trips(0, 250, 1, 1)));
    BloomFilter f = onlyFilter(t);
    assertEquals(sized(100, 250).serialize(), f.serialize(), "three rows of 100 keys, as Hudi sizes it");
  }

  @Test
  void aSimpleFilterIsSizedForItsKeysToo() {
    Table t = TripFixture.create(dir, TripFixture.spec().build(),
        Map.of("hoodie.index.bloom.num_entries", "60000", "hoodie.bloom.index.filter.type", "SIMPLE"));
    t.insert(it(trips(0, 120, 1, 1)));
    assertEquals(filled(BloomFilterType.SIMPLE, 120, 120).serialize(), onlyFilter(t).serialize());
  }

  @Test
  void aCompactedFileIsSizedForItsBaseAndLogKeys() {
    Table t = TripFixture.create(dir, MorFixture.spec().build(), Map.of("hoodie.index.bloom.num_entries", "60000"));
    t.insert(it(trips(0, 150, 1, 1)));
    List<GenericRecord> updates = new ArrayList<>();
    for (int i = 0; i < 150; i += 3) {
      updates.add(trip(String.format("id-%06d", i), 2, "p0", "u", 0));
    }
    t.upsert(it(updates));
    String instant = t.compaction().scheduleNow().orElseThrow();
    t.compaction().run(instant);
    BloomFilter compacted = onlyFilter(Tables.open(dir.toString(), t.options()));
    // 150 base rows + 50 logged keys bound the file's keys; every key is in it
    for (int i = 0; i < 150; i++) {
      String key = String.format("id-%06d", i);
      assertTrue(compacted.mightContain(key), key);
    }
    assertEquals(sized(200, 150).serialize(), compacted.serialize());
  }

  /** A dynamic filter sized for {@code entries} per row, holding id-000000.. id-(keys-1). */
  private static BloomFilter sized(int entries, int keys) {
    return filled(BloomFilterType.DYNAMIC_V0, entries, keys);
  }

  /** A filter of {@code type} sized for {@code entries}, holding id-000000.. id-(keys-1). */
  private static BloomFilter filled(BloomFilterType type, int entries, int keys) {
    BloomFilter f = BloomFilters.create(type, entries, FPP, MAX);
    for (int i = 0; i < keys; i++) {
      f.add(String.format("id-%06d", i));
    }
    return f;
  }

  private static BloomFilter onlyFilter(Table t) {
    Table fresh = Tables.open(t.location(), t.options());
    List<BaseFile> files = fresh.fileSystemView().latestBaseFiles("p0");
    assertEquals(1, files.size(), "one file group: " + files);
    try (BaseFileReader r = BaseFileReader.open(fresh.storage(), files.get(0).path())) {
      return r.bloomFilter().orElseThrow();
    }
  }
}
