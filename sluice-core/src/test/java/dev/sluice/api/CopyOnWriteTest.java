package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.fsview.BaseFile;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.State;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CopyOnWriteTest {
  @TempDir
  Path dir;

  @Test
  void insertWritesPartitionsMetaColumnsAndOneCompletedCommit() throws IOException {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of());
    CommitResult r = t.insert(it(trips(0, 30, 3, 1)));
    assertEquals(30, r.inserted());
    for (String p : List.of("p0", "p1", "p2")) {
      assertTrue(Files.exists(dir.resolve(p).resolve(".hoodie_partition_metadata")), p);
    }
    List<Instant> instants = t.timeline().instants();
    assertEquals(1, instants.size());
    assertEquals(State.COMPLETED, instants.get(0).state());
    // version 9 (the default): .hoodie/timeline/<instant>_<completion time>.commit
    try (Stream<Path> timeline = Files.list(dir.resolve(".hoodie/timeline"))) {
      assertEquals(1, timeline.filter(f -> f.getFileName().toString().matches(r.instantTime() + "_\\d{17}\\.commit"))
          .count());
    }
    assertFalse(Files.exists(dir.resolve(".hoodie/.temp").resolve(r.instantTime())), "markers are removed after commit");

    Map<String, GenericRecord> rows = rows(t.newScan().withMetaColumns(true).open());
    assertEquals(30, rows.size());
    GenericRecord row = rows.get("id-000004");
    assertEquals(r.instantTime(), row.get("_hoodie_commit_time").toString());
    assertEquals("id-000004", row.get("_hoodie_record_key").toString());
    assertEquals("p1", row.get("_hoodie_partition_path").toString());
    assertTrue(row.get("_hoodie_commit_seqno").toString().startsWith(r.instantTime() + "_"));
    String fileName = row.get("_hoodie_file_name").toString();
    assertTrue(Files.exists(dir.resolve("p1").resolve(fileName)), "file name column names the file holding the row");
    assertEquals(6.0, (double) row.get("amount"));
  }

  @Test
  void upsertRewritesOnlyTouchedFileGroupsAndOrdersByPrecombine() {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of("hoodie.parquet.small.file.limit", "0"));
    t.insert(it(trips(0, 30, 3, 10)));
    Map<String, BaseFile> before = latestBaseFiles(t);
    // id-000000 and id-000003 are in p0; a lower ts for id-000003 must lose (event-time ordering)
    CommitResult r = t.upsert(it(List.of(trip("id-000000", 11, "p0", "new", 1.0), trip("id-000003", 9, "p0", "old", 2.0),
        trip("id-999999", 11, "p1", "fresh", 3.0))));
    assertEquals(1, r.updated());
    assertEquals(1, r.inserted());
    Map<String, GenericRecord> rows = rows(t);
    assertEquals(31, rows.size());
    assertEquals("new", rows.get("id-000000").get("name").toString());
    assertEquals("name-3", rows.get("id-000003").get("name").toString(), "stored row with the larger ts is kept");
    assertEquals("fresh", rows.get("id-999999").get("name").toString());
    Map<String, BaseFile> after = latestBaseFiles(t);
    String p2Group = before.keySet().stream().filter(k -> k.startsWith("p2/")).findFirst().orElseThrow();
    assertEquals(before.get(p2Group), after.get(p2Group), "a file group that received nothing is not rewritten");
    String p0Group = before.keySet().stream().filter(k -> k.startsWith("p0/")).findFirst().orElseThrow();
    assertNotEquals(before.get(p0Group).instantTime(), after.get(p0Group).instantTime(), "touched group has a new version");
  }

  @Test
  void commitTimeModeLetsTheLatestWriteWin(@TempDir Path v6) {
    Table t = TripFixture.create(dir, TripFixture.spec().mergeMode(MergeMode.COMMIT_TIME_ORDERING).build(), Map.of());
    t.insert(it(trips(0, 5, 1, 10)));
    t.upsert(it(List.of(trip("id-000001", 1, "p0", "older-but-later", 0.0))));
    assertEquals("older-but-later", rows(t).get("id-000001").get("name").toString());
    // recorded in hoodie.properties as the merge mode (version 9 writes no payload class)
    assertEquals(MergeMode.COMMIT_TIME_ORDERING, t.config().mergeMode());
    assertEquals(MergeMode.COMMIT_TIME_ORDERING, Tables.open(dir.toString()).config().mergeMode());
    // version 6 records it as the payload class, on Copy-on-Write too
    Table six = TripFixture.create(v6, TripFixture.spec().mergeMode(MergeMode.COMMIT_TIME_ORDERING).tableVersion(6).build(),
        Map.of());
    assertEquals(MergeMode.COMMIT_TIME_ORDERING.payloadClass(), six.config().payloadClass().orElseThrow());
  }

  @Test
  void duplicatesInOneBatchAreCombined() {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of());
    t.upsert(it(List.of(trip("k", 5, "p0", "five", 0), trip("k", 7, "p0", "seven", 0), trip("k", 6, "p0", "six", 0),
        trip("j", 1, "p0", "first", 0), trip("j", 1, "p0", "second", 0))));
    Map<String, GenericRecord> rows = rows(t);
    assertEquals(2, rows.size());
    assertEquals("seven", rows.get("k").get("name").toString());
    assertEquals("second", rows.get("j").get("name").toString(), "on a tie the later record wins");
  }

  @Test
  void deleteByKeyOnlyRowsAndByIsDeletedFlag() {
    org.apache.avro.Schema withFlag = org.apache.avro.SchemaBuilder.record("trip").namespace("test").fields()
        .requiredString("id").requiredLong("ts").requiredString("part").optionalString("name").requiredDouble("amount")
        .name("_hoodie_is_deleted").type().booleanType().booleanDefault(false).endRecord();
    Table t = TripFixture.create(dir, TripFixture.spec().schema(withFlag).build(), Map.of());
    List<GenericRecord> base = new java.util.ArrayList<>();
    for (int i = 0; i < 6; i++) {
      org.apache.avro.generic.GenericData.Record r = new org.apache.avro.generic.GenericData.Record(withFlag);
      r.put("id", "k" + i);
      r.put("ts", 10L);
      r.put("part", "p" + (i % 2));
      r.put("name", "n" + i);
      r.put("amount", 1.0);
      r.put("_hoodie_is_deleted", false);
      base.add(r);
    }
    t.insert(it(base));
    org.apache.avro.Schema keys = t.keySchema();
    assertEquals(List.of("id", "part"), keys.getFields().stream().map(f -> f.name()).toList());
    org.apache.avro.generic.GenericData.Record k = new org.apache.avro.generic.GenericData.Record(keys);
    k.put("id", "k0");
    k.put("part", "p0");
    CommitResult d = t.delete(it(List.of(k)));
    assertEquals(1, d.deleted());
    org.apache.avro.generic.GenericData.Record soft = new org.apache.avro.generic.GenericData.Record(withFlag);
    soft.put("id", "k1");
    soft.put("ts", 11L);
    soft.put("part", "p1");
    soft.put("amount", 0.0);
    soft.put("_hoodie_is_deleted", true);
    org.apache.avro.generic.GenericData.Record staleSoft = new org.apache.avro.generic.GenericData.Record(withFlag);
    staleSoft.put("id", "k3");
    staleSoft.put("ts", 9L);
    staleSoft.put("part", "p1");
    staleSoft.put("amount", 0.0);
    staleSoft.put("_hoodie_is_deleted", true);
    t.upsert(it(List.of(soft, staleSoft)));
    Map<String, GenericRecord> rows = rows(t);
    assertEquals(List.of("k2", "k3", "k4", "k5"), List.copyOf(rows.keySet()),
        "k0 deleted by key, k1 by the flag; k3's delete carries an older ts and loses under event-time ordering");
  }

  @Test
  void timeTravelReadsTheSnapshotAsOfAnInstant() {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of());
    CommitResult first = t.insert(it(trips(0, 10, 2, 1)));
    t.upsert(it(List.of(trip("id-000001", 2, "p1", "changed", 9))));
    t.insert(it(trips(10, 5, 2, 1)));
    Map<String, GenericRecord> old = rows(t.newScan().asOf(first.instantTime()).open());
    assertEquals(10, old.size());
    assertEquals("name-1", old.get("id-000001").get("name").toString());
    assertEquals(15, rows(t).size());
    assertEquals("changed", rows(t).get("id-000001").get("name").toString());
  }

  @Test
  void smallFilesReceiveInsertsBeforeNewFileGroupsOpen() {
    Table t = TripFixture.create(dir, TripFixture.spec().partitionBy().build(), Map.of());
    t.insert(it(trips(0, 10, 1, 1)));
    t.insert(it(trips(10, 10, 1, 1)));
    FileSystemView view = t.fileSystemView();
    assertEquals(1, view.latestBaseFiles("").size(), "the second insert filled the small file group");
    assertEquals(20, rows(t).size());

    Path other = dir.resolve("no-small-files");
    Table u = TripFixture.create(other, TripFixture.spec().partitionBy().build(), Map.of("hoodie.parquet.small.file.limit", "0"));
    u.insert(it(trips(0, 10, 1, 1)));
    u.insert(it(trips(10, 10, 1, 1)));
    assertEquals(2, u.fileSystemView().latestBaseFiles("").size());
  }

  @Test
  void newFileGroupsAreSizedByTargetAndRecordSizeEstimate() {
    Table t = TripFixture.create(dir, TripFixture.spec().partitionBy().build(),
        Map.of("hoodie.parquet.max.file.size", "10000", "hoodie.copyonwrite.record.size.estimate", "1000"));
    t.insert(it(trips(0, 95, 1, 1)));
    List<BaseFile> files = t.fileSystemView().latestBaseFiles("");
    assertEquals(10, files.size(), "95 records at 10 per file group");
    assertEquals(95, rows(t).size());
  }

  @Test
  void bulkInsertSortsByKeyAndSizesFiles() {
    Table t = TripFixture.create(dir, TripFixture.spec().build(),
        Map.of("hoodie.parquet.max.file.size", "20000", "hoodie.copyonwrite.record.size.estimate", "1000"));
    List<GenericRecord> input = trips(0, 200, 2, 1);
    java.util.Collections.shuffle(input, new java.util.Random(7));
    CommitResult r = t.bulkInsert(it(input));
    assertEquals(200, r.inserted());
    assertEquals(200, rows(t).size());
    Map<String, List<String>> keysByFile = new HashMap<>();
    try (var rows = t.newScan().withMetaColumns(true).open()) {
      while (rows.hasNext()) {
        GenericRecord row = rows.next();
        keysByFile.computeIfAbsent(row.get("_hoodie_file_name").toString(), f -> new java.util.ArrayList<>())
            .add(row.get("_hoodie_record_key").toString());
      }
    }
    assertTrue(keysByFile.size() >= 10, "files sized to the target: " + keysByFile.size());
    for (List<String> keys : keysByFile.values()) {
      assertEquals(keys.stream().sorted().toList(), keys, "rows of a bulk-inserted file are in key order");
    }
  }

  @Test
  void filterAndProjection() {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of());
    t.insert(it(trips(0, 40, 4, 1)));
    var scan = t.newScan().select("id", "amount").filter(ExpressionParser.parse("part = 'p2' and amount > 20"));
    Map<String, GenericRecord> rows = rows(scan.open());
    assertEquals(List.of("id", "amount"), scan.schema().getFields().stream().map(f -> f.name()).toList());
    // p2 holds ids 2, 6, 10, ...; amount = 1.5 * i > 20 means i >= 14
    assertEquals(List.of("id-000014", "id-000018", "id-000022", "id-000026", "id-000030", "id-000034", "id-000038"),
        List.copyOf(rows.keySet()));
    assertEquals(1, scan.plan().files().size(), "partition pruning leaves the p2 file only");
  }

  @Test
  void nullNameAndTablesReopenFromDisk() {
    Table t = TripFixture.create(dir, TripFixture.spec().build(), Map.of());
    t.insert(it(List.of(trip("a", 1, "p0", null, 1.0))));
    Table again = Tables.open(dir.toString());
    GenericRecord row = rows(again).get("a");
    assertNull(row.get("name"));
    assertEquals(TripFixture.SCHEMA, again.schema());
  }

  static Map<String, BaseFile> latestBaseFiles(Table t) {
    FileSystemView view = t.fileSystemView();
    return view.partitions().stream().flatMap(p -> view.latestBaseFiles(p).stream().map(f -> Map.entry(p + "/" + f.fileId(), f)))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  static long countFiles(Path root, String suffix) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
    }
  }
}
