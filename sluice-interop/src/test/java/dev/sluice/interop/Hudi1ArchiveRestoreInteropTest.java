package dev.sluice.interop;

import static dev.sluice.interop.MergeOnReadInteropTest.SCHEMA;
import static dev.sluice.interop.MergeOnReadInteropTest.byKey;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static dev.sluice.interop.MergeOnReadInteropTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.RestoreInfo;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.internal.service.TableInternals;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hudi 1.1.1 and the archival, savepoint and restore Sluice runs on version-9 tables: Hudi loads the active and LSM
 * archived timelines Sluice's automatic archival left (same instants and completion times as Sluice, same rows),
 * continues writing with its own archival on top of Sluice's archive; Hudi reads a table Sluice restored to a
 * savepoint (the savepoint and restore instants with their completion times, the rows as at the savepoint) and
 * writes on. Each test runs the Hudi side in one oracle JVM ({@link OracleBatch}).
 */
class Hudi1ArchiveRestoreInteropTest {
  /** 2 to 3 commits on the active timeline, layers merged every 2 files, for Sluice and Hudi alike. */
  private static final Map<String, String> ARCHIVING = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3",
      "hoodie.cleaner.commits.retained", "1", "hoodie.timeline.compaction.batch.size", "2",
      "hoodie.compact.inline.max.delta.commits", "1", "hoodie.index.bloom.num_entries", "1000");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locateHudi1();
  }

  private Table create(String name, TableType type, Map<String, String> options) {
    TableSpec spec = TableSpec.builder(name).type(type).recordKey("id").precombine("ts").schema(SCHEMA)
        .partitionBy("part").tableVersion(9).build();
    return Tables.create(dir.resolve(name).toString(), spec, Config.of(options));
  }

  /** The upsert of commit {@code i}: an update of a rotating key and a new key. */
  private static List<GenericRecord> commit(int i) {
    return List.of(row("k" + (i % 3), i, "p" + (i % 3 % 2), "v" + i), row("n" + i, i, "p1", "new" + i));
  }

  private static Map<String, String> completionTimes(List<Map<String, String>> hudiTimeline, String action) {
    Map<String, String> out = new TreeMap<>();
    for (Map<String, String> line : hudiTimeline) {
      if (line.get("action").equals(action) && line.containsKey("completionTime")) {
        out.put(line.get("time"), line.get("completionTime"));
      }
    }
    return out;
  }

  private static Map<String, String> completionTimes(Timeline sluice, String action) {
    Map<String, String> out = new TreeMap<>();
    for (Instant i : sluice.completed().instants()) {
      if (i.action().id().equals(action)) {
        out.put(i.time(), sluice.completionTime(i).orElseThrow());
      }
    }
    return out;
  }

  @Test
  void hudiLoadsAndContinuesTheLsmArchiveOfSluicesAutomaticArchival() {
    Path path = dir.resolve("archived_v9");
    Table table = create("archived_v9", TableType.MERGE_ON_READ, ARCHIVING);
    for (int i = 0; i < 7; i++) {
      table.upsert(commit(i).iterator());
    }
    List<Map<String, String>> sluiceArchived = LsmArchivedTimelineInteropTest.sluiceArchived(table);
    assertTrue(sluiceArchived.size() >= 4, "Sluice archived after its writes: " + sluiceArchived);
    Map<String, String> sluiceActive = completionTimes(TableInternals.timeline(table), "deltacommit");
    // archived down to 2 (hoodie.keep.min.commits) after the 4th and the 6th commit, the 7th came on top
    assertEquals(3, sluiceActive.size(), "delta commits left active: " + sluiceActive);
    Map<String, Map<String, String>> sluiceRows = byKey(rows(table.newScan()));

    Map<String, String> hudiConf = new HashMap<>(ARCHIVING);
    OracleBatch batch = oracle.batch();
    OracleBatch.Pending<List<Map<String, String>>> archived = batch.archivedTimeline(path);
    OracleBatch.Pending<List<Map<String, String>>> active = batch.timeline(path);
    OracleBatch.Pending<List<GenericRecord>> snapshot = batch.read(path, "snapshot", Optional.empty(), false);
    for (int i = 7; i < 10; i++) {
      batch.write(path, "upsert", SCHEMA, commit(i), hudiConf);
    }
    OracleBatch.Pending<List<Map<String, String>>> archivedAfter = batch.archivedTimeline(path);
    OracleBatch.Pending<List<GenericRecord>> snapshotAfter = batch.read(path, "snapshot", Optional.empty(), false);
    batch.run();

    assertEquals(sluiceArchived, archived.get(), "Hudi loads Sluice's archive: instants, completion times, records");
    assertEquals(sluiceActive, completionTimes(active.get(), "deltacommit"), "and the active timeline it left");
    assertEquals(sluiceRows, byKey(snapshot.get()), "rows: Hudi 1.1.1 vs Sluice after archival");
    assertEquals(10, byKey(snapshot.get()).size(), "3 rotating keys and 7 new ones: " + byKey(snapshot.get()));

    List<Map<String, String>> after = archivedAfter.get();
    assertTrue(after.size() > sluiceArchived.size(), "Hudi's archival went on: " + after);
    assertEquals(sluiceArchived, after.subList(0, sluiceArchived.size()), "Sluice's archived instants stay");
    Table reopened = Tables.open(path.toString());
    assertEquals(after, LsmArchivedTimelineInteropTest.sluiceArchived(reopened), "Sluice reads the archive Hudi continued");
    assertEquals(byKey(snapshotAfter.get()), byKey(rows(reopened.newScan())), "rows after Hudi continued");
  }

  @Test
  void hudiReadsAndContinuesATableSluiceRestoredToASavepoint() {
    Path path = dir.resolve("restored_v9");
    Map<String, String> options = new HashMap<>(ARCHIVING);
    options.put("hoodie.archive.automatic", "false");
    Table table = create("restored_v9", TableType.MERGE_ON_READ, options);
    table.upsert(commit(0).iterator());
    String saved = table.upsert(commit(1).iterator()).instantTime();
    Map<String, Map<String, String>> atSavepoint = byKey(rows(table.newScan()));
    table.savepoint(Optional.of(saved));
    for (int i = 2; i < 5; i++) {
      table.upsert(commit(i).iterator());
    }
    RestoreInfo restore = table.restore(saved);
    assertEquals(3, restore.instantsToRollback().size());
    assertEquals(atSavepoint, byKey(rows(table.newScan())));
    Timeline sluice = TableInternals.timeline(table);
    List<OracleFileSlice> sluiceSlices = Hudi1ReadsSluiceTablesTest.slices(table);

    OracleBatch batch = oracle.batch();
    OracleBatch.Pending<List<Map<String, String>>> active = batch.timeline(path);
    OracleBatch.Pending<List<GenericRecord>> snapshot = batch.read(path, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<OracleFileSlice>> slices = batch.fsview(path);
    batch.write(path, "upsert", SCHEMA, commit(5), options);
    OracleBatch.Pending<List<GenericRecord>> snapshotAfter = batch.read(path, "snapshot", Optional.empty(), false);
    batch.run();

    assertEquals(atSavepoint, byKey(snapshot.get()), "Hudi 1.1.1 reads the restored table as at the savepoint");
    for (String action : List.of("deltacommit", "savepoint", "restore")) {
      Map<String, String> hudi = completionTimes(active.get(), action);
      assertFalse(hudi.isEmpty(), action + " in " + active.get());
      assertEquals(completionTimes(sluice, action), hudi, action + " instants and completion times, Hudi vs Sluice");
    }
    assertTrue(active.get().stream().noneMatch(l -> l.get("action").equals("rollback")),
        "the restore's rollback instants are gone: " + active.get());
    assertEquals(sluiceSlices, slices.get(), "latest file slices after the restore");
    Table reopened = Tables.open(path.toString());
    assertEquals(byKey(snapshotAfter.get()), byKey(rows(reopened.newScan())), "Sluice reads Hudi's write on top");
  }
}
