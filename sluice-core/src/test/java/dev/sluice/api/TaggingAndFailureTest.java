package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaggingAndFailureTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"BLOOM", "SIMPLE", "GLOBAL_BLOOM", "GLOBAL_SIMPLE"})
  void everyIndexTagsUpdatesAcrossManyFileGroups(String index) {
    Map<String, String> o = Map.of("hoodie.index.type", index, "hoodie.parquet.max.file.size", "20000",
        "hoodie.copyonwrite.record.size.estimate", "1000", "hoodie.parquet.small.file.limit", "0");
    Table t = TripFixture.create(dir, TripFixture.spec().build(), o);
    t.insert(it(trips(0, 300, 3, 1)));
    // every 7th key updated: scattered over file groups
    List<GenericRecord> updates = new java.util.ArrayList<>();
    for (int i = 0; i < 300; i += 7) {
      updates.add(trip(String.format("id-%06d", i), 2, "p" + (i % 3), "u" + i, -1));
    }
    var r = Tables.open(dir.toString(), Config.of(o)).upsert(it(updates));
    assertEquals(updates.size(), r.updated(), "every update found its file group");
    assertEquals(0, r.inserted());
    Map<String, GenericRecord> rows = rows(t);
    assertEquals(300, rows.size());
    assertEquals("u14", rows.get("id-000014").get("name").toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"GLOBAL_BLOOM", "GLOBAL_SIMPLE"})
  void globalIndexMovesARecordThatChangesPartition(String index) {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of("hoodie.index.type", index));
    t.insert(it(trips(0, 6, 2, 1)));
    t.upsert(it(List.of(trip("id-000000", 2, "p1", "moved", 0))));
    Map<String, GenericRecord> rows = rows(t.newScan().withMetaColumns(true).open());
    assertEquals(6, rows.size(), "the key is unique across partitions");
    assertEquals("p1", rows.get("id-000000").get("_hoodie_partition_path").toString());
    assertEquals("moved", rows.get("id-000000").get("name").toString());
  }

  /**
   * On Merge-on-Read a key that moved partition is still in its old base file, deleted only by a log block until
   * compaction: the global lookup finds it in both file groups, and the newer base file holds the live copy. Taking
   * the old one sent the next update and the delete to the stale copy (the key outlived its delete).
   */
  @ParameterizedTest
  @ValueSource(strings = {"GLOBAL_BLOOM", "GLOBAL_SIMPLE"})
  void globalIndexOnMergeOnReadFindsTheLiveCopyOfAMovedKey(String index) {
    Map<String, String> o = Map.of("hoodie.index.type", index, "hoodie.compact.inline", "false");
    Table t = TripFixture.create(dir, TripFixture.spec().type(TableType.MERGE_ON_READ).build(), o);
    t.insert(it(trips(0, 6, 2, 1)));
    t.upsert(it(List.of(trip("id-000000", 2, "p1", "moved", 0))));
    t.upsert(it(List.of(trip("id-000000", 3, "p1", "again", 0))));
    Map<String, GenericRecord> rows = rows(t.newScan().withMetaColumns(true).open());
    assertEquals(6, rows.size(), "the key is unique across partitions");
    assertEquals("p1", rows.get("id-000000").get("_hoodie_partition_path").toString());
    assertEquals("again", rows.get("id-000000").get("name").toString());
    t.delete(it(List.of(trip("id-000000", 4, "p1", "gone", 0))));
    rows = rows(t.newScan().open());
    assertEquals(5, rows.size(), "the delete found the live copy: " + rows.keySet());
    assertFalse(rows.containsKey("id-000000"));
  }

  @Test
  void nonGlobalIndexKeepsTheSameKeyInTwoPartitions() {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of());
    t.insert(it(List.of(trip("k", 1, "p0", "a", 0))));
    t.upsert(it(List.of(trip("k", 2, "p1", "b", 0))));
    long count = 0;
    try (var rows = t.newScan().open()) {
      while (rows.hasNext()) {
        rows.next();
        count++;
      }
    }
    assertEquals(2, count);
  }

  @Test
  void complexKeyHiveStyleAndNonPartitioned() throws IOException {
    Table t = TripFixture.create(dir.resolve("complex"), TripFixture.spec().recordKey("id", "part").partitionBy("part", "name")
        .hiveStyle(true).build(), Map.of());
    t.insert(it(List.of(trip("a", 1, "p0", "x", 0), trip("b", 1, "p0", null, 0))));
    assertTrue(Files.isDirectory(dir.resolve("complex/part=p0/name=x")));
    assertTrue(Files.isDirectory(dir.resolve("complex/part=p0/name=__HIVE_DEFAULT_PARTITION__")));
    Map<String, GenericRecord> rows = rows(t.newScan().withMetaColumns(true).select("name").open());
    assertTrue(rows.containsKey("id:a,part:p0"), rows.keySet().toString());
    t.upsert(it(List.of(trip("a", 2, "p0", "x", 5))));
    assertEquals(2, rows(t).size());

    Table flat = TripFixture.create(dir.resolve("flat"), TripFixture.spec().partitionBy().build(), Map.of());
    flat.insert(it(trips(0, 3, 1, 1)));
    assertTrue(Files.exists(dir.resolve("flat/.hoodie_partition_metadata")));
    assertEquals(3, rows(flat).size());
  }

  @ParameterizedTest(name = "version {0}")
  @ValueSource(ints = {6, 9})
  void aFailedWriteLeavesTheTableAsItWasAndTheNextWriteSucceeds(int version) throws IOException {
    FailingStorage storage = new FailingStorage(new LocalStorage());
    Map<String, String> o = Map.of("hoodie.parquet.max.file.size", "20000", "hoodie.copyonwrite.record.size.estimate", "1000",
        "hoodie.index.bloom.num_entries", "1000", "sluice.write.parallelism", "1");
    Table t = Tables.create(storage.storage(), dir.toString(), TripFixture.spec().tableVersion(version).build(),
        Config.of(o));
    t.insert(it(trips(0, 100, 2, 1)));
    Map<String, GenericRecord> before = rows(t);
    long parquetBefore = countFiles(".parquet");
    storage.failOn(InterceptedStorage.Op.CREATE, 3, p -> p.endsWith(".parquet"));
    List<GenericRecord> batch = new java.util.ArrayList<>(trips(100, 100, 2, 2));
    batch.add(trip("id-000001", 5, "p1", "changed", 0));
    SluiceException e = assertThrows(SluiceException.class, () -> t.upsert(it(batch)));
    assertEquals(SluiceException.Kind.STORAGE, e.kind());
    assertTrue(e.getMessage().contains("injected failure"), e.getMessage());
    storage.heal();
    assertEquals(before.keySet(), rows(t).keySet(), "readers see the table as it was");
    assertEquals(parquetBefore, countFiles(".parquet"), "the failed write's files are gone");
    List<dev.sluice.internal.timeline.Instant> instants = t.timeline().instants();
    assertEquals(2, instants.size(), "the first commit and the rollback of the failed write: " + instants);
    assertEquals(dev.sluice.internal.timeline.Action.ROLLBACK, instants.get(1).action());
    assertTrue(instants.get(1).isCompleted());
    t.upsert(it(batch));
    assertEquals(200, rows(t).size());
  }

  @Test
  void aLargeInputPreparedInChunksReportsItsFirstBadRecordByNumberAndCombinesAcrossChunks() throws IOException {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of("sluice.write.parallelism", "2"));
    List<GenericRecord> batch = new ArrayList<>(trips(0, 20_000, 3, 1));
    // two bad records in different chunks: the first in input order is the one reported
    GenericRecord late = trip("bad-late", 1, "p0", "n", 0);
    late.put("ts", null);
    GenericRecord early = trip("bad-early", 1, "p0", "n", 0);
    early.put("amount", "not a double");
    batch.set(15_000, late);
    batch.set(9_000, early);
    SluiceException e = assertThrows(SluiceException.class, () -> t.upsert(it(batch)));
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    assertTrue(e.getMessage().contains("record 9001") && e.getMessage().contains("'amount'"), e.getMessage());
    assertEquals(0, rows(t).size());
    // a key in the first chunk and again (same ordering value) in a later one: the later record wins
    List<GenericRecord> dups = new ArrayList<>(trips(0, 12_000, 3, 1));
    dups.add(trip("id-000010", 1, "p1", "later", 15.0));
    t.upsert(it(dups));
    Map<String, GenericRecord> rows = rows(t);
    assertEquals(12_000, rows.size());
    assertEquals("later", rows.get("id-000010").get("name").toString());
  }

  @Test
  void aBadRecordFailsTheWholeWriteBeforeAnythingIsWritten() throws IOException {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of());
    t.insert(it(trips(0, 5, 1, 1)));
    GenericRecord bad = trip("x", 1, "p0", "n", 0);
    bad.put("ts", null);
    SluiceException e = assertThrows(SluiceException.class,
        () -> t.upsert(it(List.of(trip("y", 1, "p0", "n", 0), bad))));
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    assertTrue(e.getMessage().contains("record 2") && e.getMessage().contains("'ts'"), e.getMessage());
    assertEquals(1, t.timeline().instants().size());
    assertEquals(5, rows(t).size());

    GenericRecord emptyKey = trip("", 1, "p0", "n", 0);
    SluiceException k = assertThrows(SluiceException.class, () -> t.upsert(it(List.of(emptyKey))));
    assertTrue(k.getMessage().contains("'id'"), k.getMessage());
  }

  @Test
  void openingSomethingThatIsNotATableNamesThePath() {
    SluiceException e = assertThrows(SluiceException.class, () -> Tables.open(dir.resolve("nothing").toString()));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains("nothing"), e.getMessage());
  }

  @Test
  void writingWithTheMetadataTableOffRemovesAStaleOne() throws IOException {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of("hoodie.metadata.enable", "false"));
    t.insert(it(trips(0, 3, 1, 1)));
    staleMetadataTable(t);
    t.insert(it(trips(3, 3, 1, 1)));
    assertFalse(Files.exists(dir.resolve(".hoodie/metadata")));
    assertTrue(t.config().metadataPartitions().isEmpty());
    assertEquals(6, rows(t).size());
  }

  @Test
  void writingWithTheDefaultsReplacesAStaleMetadataTable() throws IOException {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of());
    t.insert(it(trips(0, 3, 1, 1)));
    staleMetadataTable(t);
    t.insert(it(trips(3, 3, 1, 1)));
    // listed but with no completed instant: not trusted, removed and built again from a listing (the default keeps one)
    assertTrue(t.config().metadataPartitions().contains("files"));
    assertEquals(java.util.List.of(), dev.sluice.internal.mdt.write.MetadataTableChecks.problems(t.storage(),
        t.location()));
    assertEquals(6, rows(t).size());
  }

  /** A metadata table listed in hoodie.properties whose folder holds nothing (no timeline, no completed instant). */
  private void staleMetadataTable(Table t) throws IOException {
    dev.sluice.internal.table.MetadataTable.removeIfPresent(t.storage(), t.location());
    Files.createDirectories(dir.resolve(".hoodie/metadata/files"));
    dev.sluice.internal.table.TableConfigStore.update(t.storage(), t.location(),
        c -> c.with("hoodie.table.metadata.partitions", "files"));
  }

  private long countFiles(String suffix) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
    }
  }
}
