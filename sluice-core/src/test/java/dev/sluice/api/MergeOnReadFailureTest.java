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

  /**
   * A table of version 6, whose log files these tests are about (versions of a slice's log, appends where the store
   * appends, rollback command blocks); version 9's one log file per delta commit: Version9WriteTest.
   */
  private Table create(FailingStorage failing, boolean appending, Map<String, String> extra) {
    return create(failing, appending, extra, 6);
  }

  private Table create(FailingStorage failing, boolean appending, Map<String, String> extra, int version) {
    Map<String, String> o = new HashMap<>(Map.of("hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000",
        "sluice.write.parallelism", "1"));
    o.putAll(extra);
    return Tables.create(appending ? new AppendingStorage(failing.storage()) : failing.storage(), dir.toString(),
        MorFixture.spec().tableVersion(version).build(), Config.of(o));
  }

  /**
   * The failed write's blocks are in a log file of its own, which its rollback deletes (as Hudi 1.x's rollback does)
   * instead of appending a rollback command block that would leave them in place; on version 9 every log file is
   * the write's own.
   */
  @org.junit.jupiter.params.ParameterizedTest(name = "version {0}")
  @org.junit.jupiter.params.provider.ValueSource(ints = {6, 9})
  void aFailedDeltaCommitLeavesTheSnapshotAsItWasAndItsRollbackDeletesItsLogFile(int version) {
    FailingStorage storage = new FailingStorage(new LocalStorage());
    Table t = create(storage, false, Map.of(), version);
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

  /**
   * A failed write whose blocks share a file with committed blocks (a Hudi 0.15 writer appended them to the slice's
   * latest log on HDFS): the file cannot be deleted, so its rollback appends Hudi's rollback command block, in a new
   * log version.
   */
  @Test
  void aFailedWritesBlocksInAFileWithCommittedBlocksGetARollbackCommandBlock() {
    Table t = create(new FailingStorage(new LocalStorage()), true, Map.of());
    t.insert(it(trips(0, 6, 1, 10)));
    CommitResult c2 = t.upsert(it(List.of(trip("id-000000", 11, "p0", "committed", 0))));
    Map<String, GenericRecord> before = rows(t);
    String log = MorFixture.logFiles(dir).get(0);
    dev.sluice.internal.fsview.LogFileName name = dev.sluice.internal.fsview.FileNames.parseLog(Path.of(log)
        .getFileName().toString()).orElseThrow();
    // a pending write that appended to c2's file (as Hudi 0.15 does where the store appends), with its marker
    String failed = dev.sluice.internal.timeline.InstantTimes.newInstantTime();
    dev.sluice.internal.timeline.TimelineStore store = new dev.sluice.internal.timeline.TimelineStore(t.storage(),
        t.location());
    dev.sluice.internal.timeline.Instant requested = new dev.sluice.internal.timeline.Instant(failed,
        dev.sluice.internal.timeline.Action.DELTACOMMIT, dev.sluice.internal.timeline.State.REQUESTED);
    store.createRequested(requested, new byte[0]);
    store.transitionToInflight(requested, new byte[0]);
    new dev.sluice.internal.commit.Markers(t.storage(), t.location(), failed)
        .create("p0", Path.of(log).getFileName().toString(), dev.sluice.internal.commit.IOType.APPEND);
    org.apache.avro.Schema writer = dev.sluice.internal.basefile.MetaFields.withMetaFields(t.schema());
    org.apache.avro.generic.GenericData.Record row = new org.apache.avro.generic.GenericData.Record(writer);
    GenericRecord user = trip("id-000001", 12, "p0", "failed", 0);
    row.put("_hoodie_commit_time", failed);
    row.put("_hoodie_commit_seqno", failed + "_0_1");
    row.put("_hoodie_record_key", "id-000001");
    row.put("_hoodie_partition_path", "p0");
    row.put("_hoodie_file_name", name.fileId());
    user.getSchema().getFields().forEach(f -> row.put(f.name(), user.get(f.name())));
    try (dev.sluice.internal.log.LogWriter w = dev.sluice.internal.log.LogWriter.open(new AppendingStorage(
        new LocalStorage()), dir.resolve("p0").toString(), name.fileId(), name.baseInstant(), "0-0-0", 1L << 30)) {
      w.appendBlocks(List.of(dev.sluice.internal.log.DataBlock.of(failed, writer, List.of(row))));
    }
    assertEquals(List.of(log), MorFixture.logFiles(dir), "the failed block went into the committed file");

    // the next write rolls the pending one back first (EAGER)
    t.upsert(it(List.of(trip("id-000002", 12, "p0", "next", 0))));
    List<String> logs = MorFixture.logFiles(dir);
    assertEquals(log, logs.get(0), "the shared file stays");
    assertEquals(List.of(LogBlockType.AVRO_DATA_BLOCK, LogBlockType.AVRO_DATA_BLOCK),
        MorFixture.blocks(dir, log).stream().map(BlockSummary::type).toList());
    List<BlockSummary> command = MorFixture.blocks(dir, logs.get(1));
    assertEquals(List.of(LogBlockType.COMMAND_BLOCK), command.stream().map(BlockSummary::type).toList(), logs.toString());
    assertEquals(failed, command.get(0).header().get(dev.sluice.internal.log.HeaderKey.TARGET_INSTANT_TIME));
    assertTrue(logs.get(1).endsWith("_1-0-1"), logs.toString());
    Map<String, GenericRecord> after = rows(t);
    assertEquals(before.get("id-000001").toString(), after.get("id-000001").toString(), "the failed update is not read");
    assertEquals("committed", after.get("id-000000").get("name").toString());
    assertEquals("next", after.get("id-000002").get("name").toString());
    assertTrue(c2.instantTime().compareTo(failed) < 0);
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
    Table roomy = Tables.create(new AppendingStorage(new LocalStorage()), other.toString(), MorFixture.spec().tableVersion(6).build(),
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
