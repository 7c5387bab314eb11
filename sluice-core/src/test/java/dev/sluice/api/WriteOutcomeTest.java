package dev.sluice.api;

import static dev.sluice.api.TripFixture.trip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A write's {@link WriteOutcome}: what it received and did not apply, and why (older than the stored version,
 * duplicates combined in the batch, deletes of keys not found, deletes without a partition path), and an empty
 * input that commits nothing. Each on Copy-on-Write and Merge-on-Read, table versions 6 and 9, in memory and spilled.
 */
class WriteOutcomeTest {
  @TempDir
  Path dir;

  private Table table(String type, int version, Map<String, String> options) {
    TableSpec spec = TripFixture.spec().type(TableType.valueOf(type)).tableVersion(version).build();
    return TripFixture.create(dir.resolve("t"), spec, options);
  }

  /** Ten trips id-000000..id-000009 at ts 5 over partitions p0, p1. */
  private static List<GenericRecord> stored() {
    return TripFixture.trips(0, 10, 2, 5);
  }

  /** Three keys older than stored (ts 1), two newer (ts 9), one of them twice (ts 9, then 10). */
  private static List<GenericRecord> mixedUpsert() {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      out.add(trip(String.format("id-%06d", i), 1, "p" + (i % 2), "older", 0));
    }
    out.add(trip("id-000003", 9, "p1", "newer", 0));
    out.add(trip("id-000004", 9, "p0", "newer", 0));
    out.add(trip("id-000004", 10, "p0", "newest", 0));
    return out;
  }

  @ParameterizedTest
  @CsvSource({"COPY_ON_WRITE,6,false", "COPY_ON_WRITE,9,false", "COPY_ON_WRITE,6,true"})
  void copyOnWriteCountsVersionsOlderThanStoredAndDuplicates(String type, int version, boolean spill) {
    Table t = table(type, version, spill ? Map.of("hoodie.memory.merge.max.size", "1") : Map.of());
    t.insert(stored().iterator());
    CommitResult r = t.upsert(mixedUpsert().iterator());
    assertTrue(r.committed());
    WriteOutcome o = r.outcome();
    assertEquals(6, o.received());
    assertEquals(1, o.combined(), "id-000004 twice in the batch");
    assertEquals(3, o.olderThanStored(), "ts 1 against the stored ts 5");
    assertEquals(0, o.deletesNotFound());
    assertEquals(Optional.of("ts"), o.orderingField());
    assertEquals(2, r.updated());
    assertEquals(0, r.inserted());
    assertEquals(o.received(), r.inserted() + r.updated() + r.deleted() + o.olderThanStored() + o.combined()
        + o.deletesNotFound(), "every record received is accounted for");
    Map<String, GenericRecord> rows = TripFixture.rows(t);
    assertEquals("name-0", rows.get("id-000000").get("name").toString(), "the stored version stayed");
    assertEquals("newest", rows.get("id-000004").get("name").toString());
  }

  @ParameterizedTest
  @CsvSource({"6", "9"})
  void mergeOnReadLogAppendsLeaveTheComparisonToTheRead(int version) {
    // small files off: updates go to log files, whose versions are weighed when read or compacted, not written
    Table t = table("MERGE_ON_READ", version, Map.of("hoodie.parquet.small.file.limit", "0"));
    t.insert(stored().iterator());
    CommitResult r = t.upsert(mixedUpsert().iterator());
    WriteOutcome o = r.outcome();
    assertEquals(6, o.received());
    assertEquals(1, o.combined());
    assertEquals(0, o.olderThanStored(), "a log append does not read the stored rows");
    assertEquals(5, r.updated(), "every version appended to a log counts as updated");
    assertTrue(r.files().stream().allMatch(f -> f.logAppend().isPresent()), r.files().toString());
    assertEquals("name-0", TripFixture.rows(t).get("id-000000").get("name").toString(), "the read keeps the stored one");
  }

  @Test
  void mergeOnReadSmallFileRewriteCountsVersionsOlderThanStored() {
    // a small file of a partition taking inserts is rewritten whole, so its updates meet the stored rows
    Table t = table("MERGE_ON_READ", 6, Map.of());
    t.insert(stored().iterator());
    List<GenericRecord> batch = new ArrayList<>(mixedUpsert());
    batch.add(trip("id-000100", 1, "p0", "new", 0));
    batch.add(trip("id-000101", 1, "p1", "new", 0));
    CommitResult r = t.upsert(batch.iterator());
    assertTrue(r.files().stream().noneMatch(f -> f.logAppend().isPresent()), r.files().toString());
    assertEquals(3, r.outcome().olderThanStored());
    assertEquals(2, r.updated());
    assertEquals(2, r.inserted());
  }

  @Test
  void combiningCountsWithCombineOffToo() {
    // without combining, an update's versions still collapse into the later one per file group: counted as combined
    Table t = table("COPY_ON_WRITE", 6, Map.of("hoodie.combine.before.upsert", "false"));
    t.insert(stored().iterator());
    CommitResult r = t.upsert(mixedUpsert().iterator());
    assertEquals(1, r.outcome().combined());
    assertEquals("newest", TripFixture.rows(t).get("id-000004").get("name").toString());
  }

  @ParameterizedTest
  @CsvSource({"COPY_ON_WRITE,6,false", "MERGE_ON_READ,6,false", "COPY_ON_WRITE,9,false", "MERGE_ON_READ,9,false",
      "COPY_ON_WRITE,6,true", "MERGE_ON_READ,6,true"})
  void deletesOfKeysNotFoundAreCounted(String type, int version, boolean spill) {
    Table t = table(type, version, spill ? Map.of("hoodie.memory.merge.max.size", "1") : Map.of());
    t.insert(stored().iterator());
    List<GenericRecord> keys = new ArrayList<>();
    keys.add(key(t, "id-000001", "p1"));
    keys.add(key(t, "id-000002", "p0"));
    keys.add(key(t, "id-000003", "p1"));
    keys.add(key(t, "nope-1", "p0"));
    keys.add(key(t, "nope-2", "p1"));
    keys.add(key(t, "id-000004", "p1")); // the key lives in p0: not found in p1
    CommitResult r = t.delete(keys.iterator());
    assertEquals(3, r.deleted());
    assertEquals(3, r.outcome().deletesNotFound());
    assertEquals(0, r.outcome().deletesWithoutPartition());
    assertEquals(7, TripFixture.rows(t).size());
  }

  @Test
  void softDeletesOfUnknownKeysAreCounted() {
    TableSpec spec = TableSpec.builder("trips").type(TableType.COPY_ON_WRITE).recordKey("id").precombine("ts")
        .partitionBy("part").schema(SoftDeletes.SCHEMA).build();
    Table t = TripFixture.create(dir.resolve("t"), spec, Map.of());
    t.insert(List.of(SoftDeletes.row("a", false), SoftDeletes.row("b", false)).iterator());
    CommitResult r = t.upsert(List.of(SoftDeletes.row("a", true), SoftDeletes.row("zz", true)).iterator());
    assertEquals(1, r.deleted());
    assertEquals(1, r.outcome().deletesNotFound());
  }

  @ParameterizedTest
  @CsvSource({"COPY_ON_WRITE,6", "MERGE_ON_READ,6", "COPY_ON_WRITE,9"})
  void deleteByKeyAloneOnAPartitionedTableIsRefusedNamingTheField(String type, int version) throws IOException {
    Table t = table(type, version, Map.of());
    t.insert(stored().iterator());
    List<String> before = timelineFiles();
    List<GenericRecord> keys = List.of(key(t, "id-000001", null), key(t, "id-000002", null));
    SluiceException e = assertThrows(SluiceException.class, () -> t.delete(keys.iterator()));
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    assertTrue(e.getMessage().contains("field 'part'") && e.getMessage().contains("none of the 2 rows")
        && e.getMessage().contains("BLOOM"), e.getMessage());
    assertEquals(before, timelineFiles(), "nothing requested, nothing rolled back");
    assertEquals(10, TripFixture.rows(t).size());
  }

  @Test
  void deleteByKeyAloneBesideKeysWithPartitionsIsCountedNotRefused() {
    Table t = table("COPY_ON_WRITE", 6, Map.of());
    t.insert(stored().iterator());
    CommitResult r = t.delete(List.of(key(t, "id-000001", "p1"), key(t, "id-000002", null)).iterator());
    assertEquals(1, r.deleted());
    assertEquals(1, r.outcome().deletesWithoutPartition());
    assertEquals(1, r.outcome().deletesNotFound());
  }

  @Test
  void deleteByKeyAloneWithAGlobalIndexFindsTheKeys() {
    Table t = table("COPY_ON_WRITE", 6, Map.of("hoodie.index.type", "GLOBAL_BLOOM"));
    t.insert(stored().iterator());
    CommitResult r = t.delete(List.of(key(t, "id-000001", null), key(t, "id-000002", null)).iterator());
    assertEquals(2, r.deleted());
    assertEquals(0, r.outcome().deletesWithoutPartition());
    assertEquals(0, r.outcome().deletesNotFound());
  }

  @ParameterizedTest
  @CsvSource({"COPY_ON_WRITE,6", "MERGE_ON_READ,6", "COPY_ON_WRITE,9", "MERGE_ON_READ,9"})
  void anEmptyInputCommitsNothing(String type, int version) throws IOException {
    Table t = table(type, version, Map.of());
    t.insert(stored().iterator());
    List<String> before = timelineFiles();
    for (WriteOperation op : WriteOperation.values()) {
      CommitResult r = t.write(op, Collections.emptyIterator());
      assertFalse(r.committed(), op.name());
      assertEquals(Optional.empty(), r.instant());
      assertEquals("", r.instantTime());
      assertEquals(0, r.outcome().received());
      assertTrue(r.files().isEmpty());
    }
    assertEquals(before, timelineFiles(), "no instant for an empty input");
  }

  @Test
  void anEmptyFirstWriteBuildsNoMetadataTable() {
    Table t = table("COPY_ON_WRITE", 6, Map.of());
    assertFalse(t.upsert(Collections.emptyIterator()).committed());
    assertFalse(Files.exists(dir.resolve("t/.hoodie/metadata")), "no metadata table bootstrapped for nothing");
  }

  private List<String> timelineFiles() throws IOException {
    try (Stream<Path> s = Files.walk(dir.resolve("t/.hoodie"))) {
      return s.filter(Files::isRegularFile).map(p -> dir.resolve("t/.hoodie").relativize(p).toString())
          .filter(p -> !p.startsWith("metadata/") && !p.startsWith(".heartbeat") && !p.startsWith(".aux")
              && !p.contains(".lock") && !p.equals("lock"))
          .sorted().toList();
    }
  }

  private static GenericRecord key(Table t, String id, String part) {
    GenericData.Record k = new GenericData.Record(t.keySchema());
    k.put("id", id);
    k.put("part", part);
    return k;
  }

  /** A schema with Hudi's soft delete flag. */
  private static final class SoftDeletes {
    static final org.apache.avro.Schema SCHEMA = org.apache.avro.SchemaBuilder.record("r").fields()
        .requiredString("id").requiredLong("ts").requiredString("part").requiredBoolean("_hoodie_is_deleted")
        .endRecord();

    static GenericRecord row(String id, boolean deleted) {
      GenericData.Record r = new GenericData.Record(SCHEMA);
      r.put("id", id);
      r.put("ts", 5L);
      r.put("part", "p0");
      r.put("_hoodie_is_deleted", deleted);
      return r;
    }
  }
}
