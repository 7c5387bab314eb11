package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.fsview.FileGroupId;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.log.DeleteRecord;
import dev.sluice.internal.log.HeaderKey;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogBlockType;
import dev.sluice.internal.log.LogDump.BlockSummary;
import dev.sluice.internal.log.LogReader;
import dev.sluice.internal.log.DeleteBlock;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.CommitMetadata;
import dev.sluice.internal.timeline.InstantTimes;
import dev.sluice.internal.timeline.TimelineFixture;
import dev.sluice.internal.timeline.WriteStat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merge-on-Read writes: what lands in log files, what stays untouched, and where inserts go. The tests of log file
 * names and versions run on version 6 (a slice's log versions, named after its base instant); version 9's one log
 * file per delta commit is Version9WriteTest's.
 */
class MergeOnReadWriteTest {
  private static final Map<String, String> NO_SMALL_FILES = Map.of("hoodie.parquet.small.file.limit", "0");

  @TempDir
  Path dir;

  @Test
  void upsertAndDeleteAppendLogBlocksAndLeaveBaseFilesUntouched() {
    Table t = TripFixture.create(dir, MorFixture.spec().tableVersion(6).build(), NO_SMALL_FILES);
    CommitResult c1 = t.insert(it(trips(0, 20, 2, 10)));
    assertTrue(Files.exists(dir.resolve(".hoodie").resolve(c1.instantTime() + ".deltacommit")));
    Map<String, byte[]> before = MorFixture.dataFiles(dir);
    assertTrue(MorFixture.logFiles(dir).isEmpty(), "inserts go to base files");
    assertEquals(2, MorFixture.baseFiles(dir).size());

    CommitResult c2 = t.upsert(it(List.of(trip("id-000000", 11, "p0", "upd", 1), trip("id-000002", 11, "p0", "upd2", 2))));
    assertEquals(2, c2.updated());
    CommitResult c3 = t.delete(it(List.of(trip("id-000004", 0, "p0", null, 0))));
    assertEquals(1, c3.deleted());

    Map<String, byte[]> after = MorFixture.dataFiles(dir);
    for (Map.Entry<String, byte[]> e : before.entrySet()) {
      assertArrayEquals(e.getValue(), after.get(e.getKey()), "base file unchanged: " + e.getKey());
    }
    assertEquals(MorFixture.baseFiles(dir), List.copyOf(before.keySet()), "no base file was added");
    List<String> logs = MorFixture.logFiles(dir);
    assertEquals(2, logs.size(), "one new log version per delta commit on local disk: " + logs);
    String p0Base = before.keySet().stream().filter(p -> p.startsWith("p0/")).findFirst().orElseThrow();
    String fileId = p0Base.substring(3, p0Base.indexOf('_'));
    assertEquals(List.of("p0/.%s_%s.log.1_0-0-0".formatted(fileId, c1.instantTime()),
        "p0/.%s_%s.log.2_0-0-0".formatted(fileId, c1.instantTime())), logs);

    List<BlockSummary> upsertBlocks = MorFixture.blocks(dir, logs.get(0));
    assertEquals(1, upsertBlocks.size());
    assertEquals(LogBlockType.AVRO_DATA_BLOCK, upsertBlocks.get(0).type());
    assertEquals(c2.instantTime(), upsertBlocks.get(0).instantTime().orElseThrow());
    assertEquals(2, upsertBlocks.get(0).records().getAsLong());
    assertEquals(List.of(HeaderKey.INSTANT_TIME, HeaderKey.SCHEMA), upsertBlocks.get(0).headerKeys());
    List<BlockSummary> deleteBlocks = MorFixture.blocks(dir, logs.get(1));
    assertEquals(1, deleteBlocks.size());
    assertEquals(LogBlockType.DELETE_BLOCK, deleteBlocks.get(0).type());
    assertEquals(List.of(HeaderKey.INSTANT_TIME, HeaderKey.SCHEMA), deleteBlocks.get(0).headerKeys());

    List<GenericRecord> logged = dataRecords(dir.resolve(logs.get(0)));
    GenericRecord r = logged.get(0);
    assertEquals(c2.instantTime(), r.get("_hoodie_commit_time").toString());
    assertEquals(fileId, r.get("_hoodie_file_name").toString(), "log records carry the file id");
    assertEquals("p0", r.get("_hoodie_partition_path").toString());
    assertTrue(r.get("_hoodie_commit_seqno").toString().matches(c2.instantTime() + "_0_\\d+"), r.toString());
    assertEquals("upd", r.get("name").toString(), "the full row after the update");

    List<DeleteRecord> deleted = deleteRecords(dir.resolve(logs.get(1)));
    assertEquals(List.of(new DeleteRecord("id-000004", "p0", 0)), deleted, "the delete API's ordering is Integer 0");

    Map<String, GenericRecord> rows = rows(t);
    assertEquals(19, rows.size());
    assertEquals("upd", rows.get("id-000000").get("name").toString());
  }

  @Test
  void deltaCommitStatsCarryTheLogFields() {
    Table t = TripFixture.create(dir, MorFixture.spec().tableVersion(6).build(), NO_SMALL_FILES);
    CommitResult c1 = t.insert(it(trips(0, 4, 1, 10)));
    CommitResult c2 = t.upsert(it(List.of(trip("id-000001", 11, "p0", "x", 0))));
    CommitResult c3 = t.upsert(it(List.of(trip("id-000002", 11, "p0", "y", 0))));
    assertEquals(Action.DELTACOMMIT, t.timeline().find(c3.instantTime()).orElseThrow().action());
    CommitMetadata md = MorFixture.metadata(t, c3.instantTime());
    WriteStat s = md.allStats().get(0);
    String base = MorFixture.baseFiles(dir).get(0);
    String fileId = Path.of(base).getFileName().toString().split("_")[0];
    String log2 = ".%s_%s.log.2_0-0-0".formatted(fileId, c1.instantTime());
    assertTrue(s.delta());
    assertEquals("p0/" + log2, s.path().orElseThrow());
    assertEquals(c1.instantTime(), s.prevCommit(), "prevCommit is the slice's base instant");
    assertEquals(2, s.logVersion());
    assertEquals(0, s.logOffset(), "a new version on local disk: the blocks start at 0");
    assertEquals(Path.of(base).getFileName().toString(), s.baseFile());
    assertEquals(List.of(".%s_%s.log.1_0-0-0".formatted(fileId, c1.instantTime()), log2), s.logFiles());
    assertEquals(1, s.numWrites());
    assertEquals(1, s.numUpdateWrites());
    assertEquals(0, s.numInserts());
    long size = dir.resolve("p0").resolve(log2).toFile().length();
    assertEquals(size, s.fileSizeInBytes());
    assertEquals(size, s.totalWriteBytes());
    assertEquals("UPSERT", md.operationType().name());
    assertTrue(md.schema().isPresent());
    assertTrue(MorFixture.metadata(t, c2.instantTime()).allStats().get(0).delta());
  }

  @Test
  void smallFileRuleMergesOneCandidatePerPartitionWithoutLogs() {
    // 1-record base files: every one is "small"; the candidates limit (default 1) picks the smallest per partition
    Map<String, String> o = Map.of("hoodie.parquet.max.file.size", "2000000", "hoodie.copyonwrite.record.size.estimate", "10");
    Table t = TripFixture.create(dir, MorFixture.spec().build(), o);
    t.bulkInsert(it(List.of(trip("a", 1, "p0", "a", 0))));
    t.bulkInsert(it(List.of(trip("b", 1, "p0", "b", 0))));
    t.bulkInsert(it(List.of(trip("c", 1, "p1", "c", 0))));
    assertEquals(3, MorFixture.baseFiles(dir).size());
    assertTrue(MorFixture.logFiles(dir).isEmpty(), "bulk insert writes base files");
    FileGroupId groupA = groupOf(t, "a");
    FileGroupId groupB = groupOf(t, "b");

    // b's group gets a log file: it is no longer a small-file candidate
    t.upsert(it(List.of(trip("b", 2, "p0", "b2", 0))));
    assertEquals(1, MorFixture.logFiles(dir).size());
    // an update of a and b plus two inserts in p0: a's group (no logs) is merged, b's update appended
    CommitResult r = t.upsert(it(List.of(trip("a", 3, "p0", "a3", 0), trip("b", 3, "p0", "b3", 0),
        trip("d", 3, "p0", "d", 0), trip("e", 3, "p0", "e", 0))));
    assertEquals(2, r.inserted());
    assertEquals(2, r.updated());
    FileSystemView view = t.fileSystemView();
    FileSlice a = view.fileGroup(groupA).orElseThrow().latestSlice().orElseThrow();
    assertEquals(r.instantTime(), a.baseInstant(), "the small file group got a new base file version");
    assertTrue(a.logFiles().isEmpty());
    FileSlice b = view.fileGroup(groupB).orElseThrow().latestSlice().orElseThrow();
    assertEquals(2, b.logFiles().size(), "the group with logs got another log file");
    assertEquals(groupA, groupOf(t, "d"), "inserts went to the small file group");
    assertEquals(groupA, groupOf(t, "e"));
    assertEquals(2, view.fileGroups("p0").size(), "no new file group");

    // two groups in p1 with no logs, both small: only one candidate, the other stays as it is
    t.bulkInsert(it(List.of(trip("f", 1, "p1", "f", 0), trip("g", 1, "p1", "g", 0))));
    FileGroupId groupC = groupOf(t, "c");
    FileGroupId groupF = groupOf(t, "f");
    String fBefore = t.fileSystemView().fileGroup(groupF).orElseThrow().latestSlice().orElseThrow().baseInstant();
    String cBefore = t.fileSystemView().fileGroup(groupC).orElseThrow().latestSlice().orElseThrow().baseInstant();
    CommitResult r2 = t.insert(it(List.of(trip("h", 4, "p1", "h", 0))));
    FileSystemView v2 = t.fileSystemView();
    String fAfter = v2.fileGroup(groupF).orElseThrow().latestSlice().orElseThrow().baseInstant();
    String cAfter = v2.fileGroup(groupC).orElseThrow().latestSlice().orElseThrow().baseInstant();
    assertEquals(1, (fAfter.equals(r2.instantTime()) ? 1 : 0) + (cAfter.equals(r2.instantTime()) ? 1 : 0),
        "exactly one small file group of p1 took the insert");
    assertTrue(fAfter.equals(fBefore) || cAfter.equals(cBefore));
    assertEquals(8, rows(t).size());
  }

  @Test
  void candidatesLimitAllowsMoreSmallFileGroups() {
    Map<String, String> o = Map.of("hoodie.parquet.max.file.size", "2000000", "hoodie.copyonwrite.record.size.estimate", "10",
        "hoodie.merge.small.file.group.candidates.limit", "2");
    Table t = TripFixture.create(dir, MorFixture.spec().build(), o);
    t.bulkInsert(it(List.of(trip("a", 1, "p0", "a", 0))));
    t.bulkInsert(it(List.of(trip("b", 1, "p0", "b", 0))));
    CommitResult r = t.upsert(it(List.of(trip("a", 2, "p0", "a2", 0), trip("b", 2, "p0", "b2", 0), trip("c", 2, "p0", "c", 0))));
    assertTrue(MorFixture.logFiles(dir).isEmpty(), "both groups are candidates: both updates are merged");
    assertEquals(2, t.fileSystemView().fileGroups("p0").stream()
        .filter(g -> g.latestSlice().orElseThrow().baseInstant().equals(r.instantTime())).count());
  }

  @Test
  void appendsToAGroupUnderPendingCompactionGoToTheCompactionSlice() {
    Map<String, String> o = Map.of("hoodie.parquet.max.file.size", "2000000", "hoodie.copyonwrite.record.size.estimate", "10");
    Table t = TripFixture.create(dir, MorFixture.spec().tableVersion(6).build(), o);
    CommitResult c1 = t.bulkInsert(it(List.of(trip("a", 1, "p0", "a", 0), trip("b", 1, "p0", "b", 0))));
    t.upsert(it(List.of(trip("a", 2, "p0", "a2", 0))));
    FileGroupId group = groupOf(t, "a");
    String compaction = InstantTimes.newInstantTime();
    TimelineFixture.at(dir).requestedCompaction(compaction, group);

    // an update and an insert: the group under compaction is no small-file candidate, its update goes to a new
    // log-only slice at the compaction instant, the insert to a new file group
    CommitResult r = t.upsert(it(List.of(trip("b", 3, "p0", "b3", 0), trip("c", 3, "p0", "c", 0))));
    assertEquals(1, r.inserted());
    FileSystemView view = t.fileSystemView();
    FileSlice latest = view.fileGroup(group).orElseThrow().latestSlice().orElseThrow();
    assertEquals(compaction, latest.baseInstant());
    assertTrue(latest.baseFile().isEmpty());
    assertEquals(1, latest.logFiles().size());
    assertEquals(".%s_%s.log.1_0-0-0".formatted(group.fileId(), compaction), latest.logFiles().get(0).fileName());
    FileSlice previous = view.fileGroup(group).orElseThrow().latestSliceBefore(compaction).orElseThrow();
    assertEquals(c1.instantTime(), previous.baseInstant());
    assertEquals(1, previous.logFiles().size(), "the compacted slice got nothing");
    WriteStat stat = MorFixture.metadata(t, r.instantTime()).allStats().stream()
        .filter(s -> s.fileId().equals(group.fileId())).findFirst().orElseThrow();
    assertEquals(compaction, stat.prevCommit());
    assertEquals("", stat.baseFile());
    assertEquals(2, view.fileGroups("p0").size());
    Map<String, GenericRecord> rows = rows(t);
    assertEquals("a2", rows.get("a").get("name").toString());
    assertEquals("b3", rows.get("b").get("name").toString(), "snapshot merges both slices' logs");
    assertEquals(3, rows.size());
  }

  @Test
  void softDeleteGoesToADeleteBlockWithItsOrderingValue() {
    Schema withFlag = SchemaBuilder.record("trip").namespace("test").fields()
        .requiredString("id").requiredLong("ts").requiredString("part").optionalString("name").requiredDouble("amount")
        .name("_hoodie_is_deleted").type().booleanType().booleanDefault(false).endRecord();
    Table t = TripFixture.create(dir, MorFixture.spec().schema(withFlag).build(), NO_SMALL_FILES);
    t.insert(it(List.of(flagged(withFlag, "k1", 5, false), flagged(withFlag, "k2", 5, false))));
    t.upsert(it(List.of(flagged(withFlag, "k1", 7, true), flagged(withFlag, "k2", 8, false))));
    List<String> logs = MorFixture.logFiles(dir);
    assertEquals(1, logs.size());
    List<BlockSummary> blocks = MorFixture.blocks(dir, logs.get(0));
    assertEquals(List.of(LogBlockType.AVRO_DATA_BLOCK, LogBlockType.DELETE_BLOCK), blocks.stream().map(BlockSummary::type).toList(),
        "data and delete block appended in one commit");
    assertEquals(List.of(new DeleteRecord("k1", "p0", 7L)), deleteRecords(dir.resolve(logs.get(0))));
    assertEquals(List.of("k2"), List.copyOf(rows(t).keySet()));
  }

  @Test
  void bulkInsertOnMergeOnReadWritesBaseFiles() {
    Table t = TripFixture.create(dir, MorFixture.spec().build(), Map.of());
    CommitResult r = t.bulkInsert(it(trips(0, 10, 2, 1)));
    assertEquals(10, r.inserted());
    assertTrue(MorFixture.logFiles(dir).isEmpty());
    assertEquals(Action.DELTACOMMIT, t.timeline().find(r.instantTime()).orElseThrow().action());
  }

  private static GenericRecord flagged(Schema s, String id, long ts, boolean deleted) {
    GenericData.Record r = new GenericData.Record(s);
    r.put("id", id);
    r.put("ts", ts);
    r.put("part", "p0");
    r.put("name", id);
    r.put("amount", 1.0);
    r.put("_hoodie_is_deleted", deleted);
    return r;
  }

  static FileGroupId groupOf(Table t, String key) {
    GenericRecord row = rows(t.newScan().withMetaColumns(true).open()).get(key);
    String partition = row.get("_hoodie_partition_path").toString();
    String file = row.get("_hoodie_file_name").toString();
    return new FileGroupId(partition, file.contains("_") ? file.substring(0, file.indexOf('_')) : file);
  }

  static List<GenericRecord> dataRecords(Path logFile) {
    List<GenericRecord> out = new ArrayList<>();
    try (LogReader reader = LogReader.open(new LocalStorage(), logFile.toString())) {
      while (reader.hasNext()) {
        LogBlock b = reader.next();
        if (b instanceof DataBlock d) {
          try (CloseableIterator<GenericRecord> recs = d.records(d.writerSchema())) {
            recs.forEachRemaining(out::add);
          }
        }
      }
    }
    return out;
  }

  static List<DeleteRecord> deleteRecords(Path logFile) {
    List<DeleteRecord> out = new ArrayList<>();
    try (LogReader reader = LogReader.open(new LocalStorage(), logFile.toString())) {
      while (reader.hasNext()) {
        LogBlock b = reader.next();
        if (b instanceof DeleteBlock d) {
          try (CloseableIterator<DeleteRecord> recs = d.records()) {
            recs.forEachRemaining(out::add);
          }
        }
      }
    }
    return out;
  }
}
