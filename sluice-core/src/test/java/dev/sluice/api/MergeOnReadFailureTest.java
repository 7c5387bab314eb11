package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.log.LogBlockType;
import dev.sluice.internal.log.LogDump.BlockSummary;
import dev.sluice.storage.AppendingStorage;
import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.WriteStat;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Failed delta commits and log roll-over, on local disk and on storage that appends (HDFS). */
class MergeOnReadFailureTest {
  @TempDir
  Path dir;

  private Table create(FailingStorage failing, boolean appending, Map<String, String> extra) {
    Map<String, String> o = new HashMap<>(Map.of("hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000",
        "sluice.write.parallelism", "1"));
    o.putAll(extra);
    return Tables.create(appending ? new AppendingStorage(failing.storage()) : failing.storage(), dir.toString(), MorFixture.spec().build(),
        Config.of(o));
  }

  /**
   * The failed write's blocks are in a log file of its own, which its rollback deletes (as Hudi 1.x's rollback does)
   * instead of appending a rollback command block that would leave them in place.
   */
  @Test
  void aFailedDeltaCommitLeavesTheSnapshotAsItWasAndItsRollbackDeletesItsLogFile() {
    FailingStorage storage = new FailingStorage(new LocalStorage());
    Table t = create(storage, false, Map.of());
    t.insert(it(trips(0, 6, 1, 10)));
    t.upsert(it(List.of(trip("id-000000", 11, "p0", "committed", 0))));
    Map<String, GenericRecord> before = rows(t);
    List<String> logsBefore = MorFixture.logFiles(dir);
    storage.failOn(InterceptedStorage.Op.CREATE_EXCLUSIVE, 1, p -> p.endsWith(".deltacommit"));
    SluiceException e = assertThrows(SluiceException.class,
        () -> t.upsert(it(List.of(trip("id-000001", 12, "p0", "failed", 0)))));
    assertTrue(e.getMessage().contains("injected failure"), e.getMessage());
    storage.heal();
    assertEquals(logsBefore, MorFixture.logFiles(dir), "the failed write's log file is deleted, no command block added");
    assertEquals(before.toString(), rows(t).toString());
    assertEquals(3, t.timeline().instants().size(), "two commits and the rollback: " + t.timeline());
    String[] markers = dir.resolve(".hoodie/.temp").toFile().list();
    assertTrue(markers == null || markers.length == 0, "no markers left");
    t.upsert(it(List.of(trip("id-000002", 12, "p0", "next", 0))));
    Map<String, GenericRecord> after = rows(t);
    assertEquals("name-1", after.get("id-000001").get("name").toString(), "the failed update is never read");
    assertEquals("next", after.get("id-000002").get("name").toString());
  }

  /** Where the store can append (HDFS), each write still gets a log file of its own, which a rollback can delete. */
  @Test
  void onStorageThatAppendsEachWriteHasItsOwnLogFileAndARollbackDeletesIt() {
    FailingStorage failing = new FailingStorage(new LocalStorage());
    Table t = create(failing, true, Map.of());
    t.insert(it(trips(0, 6, 1, 10)));
    CommitResult c2 = t.upsert(it(List.of(trip("id-000000", 11, "p0", "committed", 0))));
    Map<String, GenericRecord> before = rows(t);
    failing.failOn(InterceptedStorage.Op.CREATE_EXCLUSIVE, 1, p -> p.endsWith(".deltacommit"));
    assertThrows(SluiceException.class, () -> t.upsert(it(List.of(trip("id-000001", 12, "p0", "failed", 0)))));
    failing.heal();
    List<String> logs = MorFixture.logFiles(dir);
    assertEquals(1, logs.size(), "the committed write's log file only: " + logs);
    List<BlockSummary> blocks = MorFixture.blocks(dir, logs.get(0));
    assertEquals(List.of(LogBlockType.AVRO_DATA_BLOCK), blocks.stream().map(BlockSummary::type).toList());
    assertEquals(c2.instantTime(), blocks.get(0).instantTime().orElseThrow());
    assertEquals(before.toString(), rows(t).toString());
    assertEquals(3, t.timeline().instants().size(), "two commits and the rollback: " + t.timeline());

    CommitResult c4 = t.upsert(it(List.of(trip("id-000002", 12, "p0", "next", 0))));
    List<String> now = MorFixture.logFiles(dir);
    assertEquals(2, now.size(), now.toString());
    assertEquals(logs.get(0), now.get(0), "the committed file is not appended to");
    WriteStat stat = MorFixture.metadata(t, c4.instantTime()).allStats().get(0);
    assertEquals(2, stat.logVersion());
    assertEquals(0, stat.logOffset());
    assertEquals(dir.resolve(now.get(1)).toFile().length(), stat.fileSizeInBytes());
    Map<String, GenericRecord> after = rows(t);
    assertEquals("committed", after.get("id-000000").get("name").toString());
    assertEquals("name-1", after.get("id-000001").get("name").toString());
    assertEquals("next", after.get("id-000002").get("name").toString());
  }

  @Test
  void logFilesRollOverAtTheSizeLimit() {
    Table t = create(new FailingStorage(new LocalStorage()), true, Map.of("hoodie.logfile.max.size", "600"));
    t.insert(it(trips(0, 6, 1, 10)));
    CommitResult c2 = t.upsert(it(List.of(trip("id-000000", 11, "p0", "a", 0))));
    CommitResult c3 = t.upsert(it(List.of(trip("id-000001", 11, "p0", "b", 0))));
    WriteStat s2 = MorFixture.metadata(t, c2.instantTime()).allStats().get(0);
    WriteStat s3 = MorFixture.metadata(t, c3.instantTime()).allStats().get(0);
    assertTrue(s2.fileSizeInBytes() > 600, "one block with the schema header is past 600 bytes");
    assertEquals(1, s2.logVersion());
    assertEquals(2, s3.logVersion(), "the file past the limit is not appended to");
    assertEquals(0, s3.logOffset());
    assertEquals(2, s3.logFiles().size());
    assertEquals(2, MorFixture.logFiles(dir).size());

    Path other = dir.resolve("big");
    Table roomy = Tables.create(new AppendingStorage(new LocalStorage()), other.toString(), MorFixture.spec().build(),
        Config.of(Map.of("hoodie.parquet.small.file.limit", "0")));
    roomy.insert(it(trips(0, 6, 1, 10)));
    roomy.upsert(it(List.of(trip("id-000000", 11, "p0", "a", 0))));
    CommitResult r = roomy.upsert(it(List.of(trip("id-000001", 11, "p0", "b", 0))));
    WriteStat s = MorFixture.metadata(roomy, r.instantTime()).allStats().get(0);
    assertEquals(2, s.logVersion(), "below the limit too, each write makes a file of its own where the store appends");
    assertEquals(0, s.logOffset());
    assertEquals(2, MorFixture.logFiles(other).size());
  }
}
