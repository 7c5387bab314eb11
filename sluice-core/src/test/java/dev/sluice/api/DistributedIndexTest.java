package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.DistributedWriteTest.DistributedUnits;
import dev.sluice.internal.mdt.write.MetadataTableChecks;
import dev.sluice.internal.mdt.write.RecordIndexChecks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The global indexes and the record index through the public units ({@link DistributedWrite#index},
 * {@link WriteUnits#tagFound}, {@link WriteUnits#recordLocations}, the record-index changes the tasks send back),
 * run by hand as a cluster engine runs them, against {@link Table#write} on a copy of the same table with the same
 * batch: keys that move to another partition, new keys, then deletes, give the same file groups with the same counts,
 * the same rows (partition included) and, with a record index, an index that names exactly the live keys.
 */
class DistributedIndexTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @CsvSource({
      "GLOBAL_BLOOM, COPY_ON_WRITE, true", "GLOBAL_BLOOM, MERGE_ON_READ, true", "GLOBAL_BLOOM, COPY_ON_WRITE, false",
      "GLOBAL_SIMPLE, COPY_ON_WRITE, true", "GLOBAL_SIMPLE, MERGE_ON_READ, false",
      "RECORD_INDEX, COPY_ON_WRITE, true", "RECORD_INDEX, MERGE_ON_READ, true", "RECORD_INDEX, COPY_ON_WRITE, false"})
  void keysMovingPartitionMatchTheEngine(String indexType, TableType type, boolean updatePartitionPath) {
    Config options = options(indexType, updatePartitionPath);
    Path unitsDir = dir.resolve("units");
    Table units = Tables.create(unitsDir.toString(), TableSpec.builder("trip").type(type).recordKey("id")
        .precombine("ts").partitionBy("part").schema(DistributedWriteTest.SCHEMA).build(), options);
    DistributedUnits.write(units, WriteOperation.UPSERT, DistributedWriteTest.rows(0, 300, 1, "a", 0), false);
    if (indexType.equals("RECORD_INDEX")) {
      // the first write built the record index; the later ones look keys up in it
      try (DistributedWrite dw = DistributedWrite.begin(Tables.open(unitsDir.toString(), options),
          WriteOperation.UPSERT)) {
        assertTrue(dw.index().recordIndex(), "the record index is used: " + dw.index());
        dw.abort(new IllegalStateException("only looked"));
      }
    }
    // 100 keys move one partition on, 50 stay and change, 60 are new
    List<GenericRecord> moves = DistributedWriteTest.rows(100, 100, 2, "moved", 1);
    moves.addAll(DistributedWriteTest.rows(200, 50, 2, "same", 0));
    moves.addAll(DistributedWriteTest.rows(1_000, 60, 2, "new", 0));
    step("move", unitsDir, options, WriteOperation.UPSERT, moves);
    // deletes by key in the records' old partition (a global index finds them where they are) and unknown keys
    List<GenericRecord> gone = DistributedWriteTest.rows(90, 20, 3, "x", 0);
    gone.addAll(DistributedWriteTest.rows(5_000, 5, 3, "unknown", 0));
    step("delete", unitsDir, options, WriteOperation.DELETE, gone);
    Table written = Tables.open(unitsDir.toString(), options);
    assertEquals(List.of(), MetadataTableChecks.problems(written.storage(), written.location()));
    if (indexType.equals("RECORD_INDEX")) {
      List<String> keys = new ArrayList<>();
      for (GenericRecord r : DistributedWriteTest.rows(0, 5_005, 0, "", 0)) {
        keys.add(r.get("id").toString());
      }
      assertEquals(List.of(), RecordIndexChecks.problems(written, keys));
      assertEquals(300 + 60 - 20, RecordIndexChecks.indexed(written.storage(), written.location(), keys).size());
    }
  }

  /**
   * With a bloom index and range pruning, the base files carry their key ranges (a file is asked only for keys in
   * it): each range is the smallest and largest key the file holds; with a simple index no range is read.
   */
  @Test
  void bloomBaseFilesCarryTheirKeyRanges() {
    Config options = options("GLOBAL_BLOOM", true);
    Table t = Tables.create(dir.resolve("t").toString(), TableSpec.builder("trip").type(TableType.COPY_ON_WRITE)
        .recordKey("id").precombine("ts").partitionBy("part").schema(DistributedWriteTest.SCHEMA).build(), options);
    t.upsert(DistributedWriteTest.rows(0, 600, 1, "a", 0).iterator());
    Map<String, String[]> actual = new HashMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().withMetaColumns(true).open()) {
      while (it.hasNext()) {
        GenericRecord g = it.next();
        String key = g.get("_hoodie_record_key").toString();
        actual.merge(g.get("_hoodie_file_name").toString(), new String[] {key, key}, (a, b) -> new String[] {
            a[0].compareTo(b[0]) <= 0 ? a[0] : b[0], a[1].compareTo(b[1]) >= 0 ? a[1] : b[1]});
      }
    }
    try (DistributedWrite dw = DistributedWrite.begin(t, WriteOperation.UPSERT)) {
      assertTrue(dw.index().global());
      List<FileRef> files = dw.baseFiles(dw.partitions());
      assertEquals(actual.size(), files.size());
      for (FileRef f : files) {
        String[] range = actual.get(f.fileName());
        assertEquals(range[0], f.minKey(), f.fileName());
        assertEquals(range[1], f.maxKey(), f.fileName());
        assertTrue(f.mayHold(range[0]) && f.mayHold(range[1]));
        assertTrue(!f.mayHold("a") && !f.mayHold("z"), "keys outside " + List.of(range) + " are ruled out");
        WriteUnits units = WriteUnits.open(dw.context());
        assertEquals(List.of(), units.keysInFile(f, List.of("a", "z")));
        assertEquals(List.of(range[0]), units.keysInFile(f, List.of(range[0], "z")));
      }
      dw.abort(new IllegalStateException("only looked"));
    }
    Table simple = Tables.open(t.location(), options("GLOBAL_SIMPLE", true));
    try (DistributedWrite dw = DistributedWrite.begin(simple, WriteOperation.UPSERT)) {
      FileRef f = dw.baseFiles(dw.partitions()).get(0);
      assertNull(f.minKey());
      assertNotNull(f.path());
      assertTrue(f.mayHold("a"));
      dw.abort(new IllegalStateException("only looked"));
    }
  }

  /** One batch through the units and, by the engine, on a copy taken before it: same plan, rows and files. */
  private void step(String name, Path unitsDir, Config options, WriteOperation op, List<GenericRecord> batch) {
    Path twinDir = dir.resolve("twin-" + name);
    DistributedWriteTest.copyTree(unitsDir, twinDir);
    Table twin = Tables.open(twinDir.toString(), options);
    CommitResult byEngine = op == WriteOperation.DELETE ? twin.delete(batch.iterator())
        : twin.upsert(batch.iterator());
    Table units = Tables.open(unitsDir.toString(), options);
    // failed attempts before each file group's last one (a delete's groups are too small to die half way)
    CommitResult r = DistributedUnits.write(units, op, batch, op != WriteOperation.DELETE);
    assertEquals(DistributedWriteTest.shape(twin, byEngine.instantTime()),
        DistributedWriteTest.shape(units, r.instantTime()), name + ": planned apart");
    assertEquals(contents(twin), contents(units), name);
    if (twin.config().metadataPartitions().contains("record_index")) {
      List<String> keys = new ArrayList<>(contents(twin).keySet());
      batch.forEach(g -> keys.add(g.get("id").toString()));
      assertEquals(List.of(), RecordIndexChecks.problems(twin, keys), name + ": the engine's record index");
      assertEquals(List.of(), RecordIndexChecks.problems(units, keys), name + ": the units' record index");
    }
  }

  private static Config options(String indexType, boolean updatePartitionPath) {
    Map<String, String> o = new HashMap<>(Map.of("hoodie.parquet.max.file.size", String.valueOf(40 << 10),
        "hoodie.parquet.small.file.limit", String.valueOf(30 << 10), "hoodie.index.type", indexType,
        "hoodie.bloom.index.update.partition.path", String.valueOf(updatePartitionPath),
        "hoodie.simple.index.update.partition.path", String.valueOf(updatePartitionPath),
        "hoodie.record.index.update.partition.path", String.valueOf(updatePartitionPath)));
    if (indexType.equals("RECORD_INDEX")) {
      o.put("hoodie.metadata.record.index.enable", "true");
      o.put("hoodie.metadata.record.index.min.filegroup.count", "3");
    }
    return Config.of(o);
  }

  /** Key to partition, ordering value and payload; a key returned twice fails. */
  static Map<String, String> contents(Table t) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        assertNull(out.put(r.get("id").toString(), r.get("part") + "/" + r.get("ts") + "/" + r.get("payload")),
            "key returned twice: " + r.get("id"));
      }
    }
    return out;
  }
}
