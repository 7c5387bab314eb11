package dev.sluice.storageit;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.fsview.FileNames;
import dev.sluice.interop.RemoteHudi;
import dev.sluice.internal.log.LogBlockType;
import dev.sluice.internal.log.LogDump;
import dev.sluice.api.QueryType;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.storage.InterceptedStorage.Op;
import dev.sluice.api.TableType;
import dev.sluice.api.CloseableIterator;
import dev.sluice.api.CommitResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * Merge-on-Read on a remote store: delta commits append log blocks to the current log file where the store can
 * append (HDFS) and write a new log file version per delta commit where it cannot (S3); snapshot, read-optimized
 * and time-travel reads, by Sluice and by Hudi 0.15; a delta commit killed before it publishes.
 */
interface MergeOnReadScenarios {
  /** A location no table uses yet. */
  String newLocation(String name);

  /** The settings that reach the store. */
  Map<String, String> settings();

  /** True if the store appends to files (HDFS). */
  boolean appends();

  private Map<String, String> morSettings() {
    Map<String, String> s = new HashMap<>(settings());
    // updates go to log files of the existing file groups, not to new base file versions of small files
    s.put("hoodie.parquet.small.file.limit", "0");
    return s;
  }

  private Table createMor(String location) {
    return Tables.create(location, TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(6).build(),
        RemoteTables.options(morSettings()));
  }

  private static List<String> logFiles(Storage storage, String location, String partition) {
    return RemoteTables.names(storage, StoragePaths.join(location, partition)).stream()
        .filter(n -> FileNames.parseLog(n).isPresent()).sorted().toList();
  }

  private static Map<String, String> readOptimizedView(Table t) {
    List<GenericRecord> rows = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().queryType(QueryType.READ_OPTIMIZED).withMetaColumns(true)
        .open()) {
      it.forEachRemaining(rows::add);
    }
    return HudiReadsScenarios.view(rows);
  }

  @Test
  default void deltaCommitsGoToLogFilesThatSluiceAndHudiMergeOnRead() {
    String location = newLocation("mor");
    Table t = createMor(location);
    CommitResult c1 = t.insert(it(trips(0, 20, 2, 10)));
    CommitResult c2 = t.upsert(it(List.of(trip("id-000000", 11, "p0", "upd", 1), trip("id-000002", 11, "p0", "upd2", 2))));
    CommitResult c3 = t.delete(it(List.of(RemoteTables.key(t, "id-000004", "p0"))));
    assertEquals(2, c2.updated());
    assertEquals(1, c3.deleted());

    Storage storage = RemoteTables.storage(location, settings());
    List<String> logs = logFiles(storage, location, "p0");
    List<List<LogBlockType>> blocks = new ArrayList<>();
    for (String log : logs) {
      blocks.add(LogDump.list(storage, StoragePaths.join(location, "p0", log)).stream().map(LogDump.BlockSummary::type)
          .toList());
    }
    // also where the store appends (HDFS): each delta commit's blocks are in a file of its own, so that a rollback
    // can delete them
    assertEquals(2, logs.size(), "one new log file version per delta commit: " + logs);
    assertTrue(logs.get(0).contains(".log.1_") && logs.get(1).contains(".log.2_"), logs.toString());
    assertEquals(List.of(List.of(LogBlockType.AVRO_DATA_BLOCK), List.of(LogBlockType.DELETE_BLOCK)), blocks);

    Table reader = RemoteTables.reopen(location, morSettings());
    Map<String, GenericRecord> snapshot = rows(reader);
    assertEquals(19, snapshot.size());
    assertEquals("upd", snapshot.get("id-000000").get("name").toString());
    Map<String, String> readOptimized = readOptimizedView(reader);
    assertEquals(20, readOptimized.size(), "base files only");
    Map<String, GenericRecord> asOfC2 = rows(reader.newScan().asOf(c2.instantTime()).open());
    assertEquals(20, asOfC2.size());
    assertEquals("upd2", asOfC2.get("id-000002").get("name").toString());

    RemoteHudi.Reads hudi = RemoteHudi.locate(settings()).reads(location, List.of(c2.instantTime()));
    assertEquals(HudiReadsScenarios.sluiceView(reader, Optional.empty()), HudiReadsScenarios.view(hudi.latest()));
    assertEquals(readOptimized, HudiReadsScenarios.view(hudi.readOptimized()));
    assertEquals(HudiReadsScenarios.sluiceView(reader, Optional.of(c2.instantTime())), HudiReadsScenarios.view(hudi.asOf().get(0)));
    assertEquals(List.of(c1.instantTime(), c2.instantTime(), c3.instantTime()), HudiReadsScenarios.completed(hudi.timeline()));
  }

  @Test
  default void aDeltaCommitKilledBeforePublishingIsNeverMergedIn() {
    String location = newLocation("mor-killed");
    Table t = createMor(location);
    t.insert(it(trips(0, 20, 2, 10)));
    t.upsert(it(List.of(trip("id-000000", 11, "p0", "first", 1))));
    Map<String, String> before = HudiReadsScenarios.sluiceView(t, Optional.empty());

    // the log blocks are written (appended on HDFS, a new log file on S3), the delta commit is not
    RecordingStorage dying = new RecordingStorage(RemoteTables.storage(location, settings()))
        .crashAt(c -> c.op() == Op.CREATE_EXCLUSIVE && c.path().endsWith(".deltacommit"));
    Table doomed = Tables.open(dying.storage(), location, RemoteTables.options(morSettings()));
    assertThrows(SluiceException.class, () -> doomed.upsert(it(List.of(trip("id-000000", 12, "p0", "lost", 0),
        trip("id-000002", 12, "p0", "lost", 0)))));
    assertTrue(dying.crashed());

    Table reader = RemoteTables.reopen(location, morSettings());
    assertEquals(before, HudiReadsScenarios.sluiceView(reader, Optional.empty()), "the dead blocks are skipped");

    // the next delta commit lands after the dead one's blocks (in the same log file on HDFS)
    CommitResult next = RemoteTables.reopen(location, morSettings()).upsert(it(List.of(trip("id-000002", 13, "p0", "kept", 0))));
    assertEquals(1, next.updated());
    Table after = RemoteTables.reopen(location, morSettings());
    Map<String, GenericRecord> rows = rows(after);
    assertEquals("first", rows.get("id-000000").get("name").toString());
    assertEquals("kept", rows.get("id-000002").get("name").toString());
    RemoteHudi.Reads hudi = RemoteHudi.locate(settings()).reads(location, List.of());
    assertEquals(HudiReadsScenarios.sluiceView(after, Optional.empty()), HudiReadsScenarios.view(hudi.latest()));
  }
}
