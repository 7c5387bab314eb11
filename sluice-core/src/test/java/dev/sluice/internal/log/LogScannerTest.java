package dev.sluice.internal.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.api.MergeMode;
import dev.sluice.internal.merge.RecordMerger;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.Action;
import dev.sluice.internal.timeline.Instant;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The merge of a slice's log blocks (reference §7.6). */
class LogScannerTest {
  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();

  /** Deltacommits 001..009 completed unless listed as inflight. */
  private static Timeline timeline(String... inflight) {
    List<Instant> out = new ArrayList<>();
    for (int i = 1; i <= 9; i++) {
      String t = "00" + i;
      out.add(List.of(inflight).contains(t) ? Instant.inflight(t, Action.DELTACOMMIT) : Instant.completed(t, Action.DELTACOMMIT));
    }
    return Timeline.of(out);
  }

  private static GenericRecord rec(String key, long ts, int tag) {
    return LogFixture.trip(key, "p1", ts, tag);
  }

  private static DataBlock data(String instant, GenericRecord... records) {
    return DataBlock.of(instant, LogFixture.SCHEMA, List.of(records));
  }

  private static DeleteBlock deletes(String instant, DeleteRecord... keys) {
    return DeleteBlock.of(instant, List.of(keys));
  }

  /** Writes one writer session (a new log version on local storage). */
  private void session(LogBlock... blocks) {
    try (LogWriter w = LogWriter.open(storage, dir.toString(), LogFixture.FILE_ID, LogFixture.BASE, "0-0-0", 1 << 30)) {
      w.appendBlocks(List.of(blocks));
    }
  }

  private MergedLogRecords scan(Timeline t, String latest, Optional<String> precombine) throws IOException {
    return LogScanner.builder(storage).logFiles(LogFixture.logFiles(storage, dir.toString())).timeline(t).latestInstant(latest)
        .readerSchema(LogFixture.SCHEMA).precombineField(precombine).merger(new RecordMerger(MergeMode.EVENT_TIME_ORDERING))
        .build().scan();
  }

  private MergedLogRecords scan() throws IOException {
    return scan(timeline(), "009", Optional.of("ts"));
  }

  /** The {@code count} field that tells versions of a key apart, or -1 for a delete. */
  private static int tag(MergedLogRecords m, String key) {
    LogRecord r = m.get(key).orElseThrow(() -> new AssertionError("no entry for " + key));
    return r.isDelete() ? -1 : (int) r.record().get("count");
  }

  @Test
  void preCombineAcrossBlocksKeepsTheLargestOrderingAndTiesGoToTheLaterBlock() throws IOException {
    session(data("001", rec("k1", 5, 1), rec("k2", 5, 1), rec("k3", 1, 1)));
    session(data("002", rec("k1", 3, 2), rec("k2", 5, 2)), data("003", rec("k3", 2, 3), rec("k4", 1, 3)));
    try (MergedLogRecords m = scan()) {
      assertEquals(1, tag(m, "k1"), "lower ordering in a later block loses");
      assertEquals(2, tag(m, "k2"), "equal ordering: the later block wins");
      assertEquals(3, tag(m, "k3"));
      assertEquals(3, tag(m, "k4"));
      assertEquals(5L, m.get("k1").get().ordering());
      assertEquals(4, m.size());
      assertEquals(new ScanStats(2, 3, 0, 0, 7, 0), m.stats());
    }
  }

  @Test
  void withoutPrecombineFieldTheLaterRecordWins() throws IOException {
    session(data("001", rec("k1", 5, 1)), data("002", rec("k1", 3, 2)));
    try (MergedLogRecords m = scan(timeline(), "009", Optional.empty())) {
      assertEquals(2, tag(m, "k1"));
      assertEquals(0, m.get("k1").get().ordering());
    }
  }

  @Test
  void aDeleteAfterDataRemovesTheRecordUnlessItCarriesASmallerOrderingOfTheSameClass() throws IOException {
    session(data("001", rec("k1", 5, 1), rec("k2", 5, 1), rec("k3", 5, 1), rec("k4", 5, 1), rec("k5", 5, 1), rec("k6", 5, 1)));
    session(deletes("002",
        DeleteRecord.of("k1", "p1"),
        new DeleteRecord("k2", "p1", 3L),
        new DeleteRecord("k3", "p1", 9L),
        new DeleteRecord("k4", "p1", 5L),
        new DeleteRecord("k5", "p1", 3),
        new DeleteRecord("k6", "p1", null),
        new DeleteRecord("k7", "p9", 1L)));
    try (MergedLogRecords m = scan()) {
      assertEquals(-1, tag(m, "k1"), "natural-order delete");
      assertEquals(1, tag(m, "k2"), "the stored record's ordering is larger");
      assertEquals(-1, tag(m, "k3"));
      assertEquals(-1, tag(m, "k4"), "a tie deletes");
      assertEquals(-1, tag(m, "k5"), "Integer vs Long: not the same class, the delete wins");
      assertEquals(-1, tag(m, "k6"), "a delete without ordering value");
      LogRecord k7 = m.get("k7").get();
      assertTrue(k7.isDelete() && k7.hardDelete());
      assertEquals("p9", k7.partitionPath());
      assertEquals(9L, m.get("k3").get().ordering());
      assertEquals(new ScanStats(2, 2, 0, 0, 6, 7), m.stats());
    }
  }

  @Test
  void aStringOrderingNeverKeepsARecordAgainstADeleteBecauseHudiComparesUtf8WithString() throws IOException {
    Schema s = SchemaBuilder.record("S").fields().optionalString("_hoodie_record_key").optionalString("_hoodie_partition_path")
        .requiredString("ver").endRecord();
    GenericRecord r = new GenericData.Record(s);
    r.put("_hoodie_record_key", "k1");
    r.put("_hoodie_partition_path", "p1");
    r.put("ver", "zzz");
    session(DataBlock.of("001", s, List.of(r)));
    session(deletes("002", new DeleteRecord("k1", "p1", "aaa")));
    try (MergedLogRecords m = LogScanner.builder(storage).logFiles(LogFixture.logFiles(storage, dir.toString())).timeline(timeline())
        .latestInstant("009").readerSchema(s).precombineField(Optional.of("ver"))
        .merger(new RecordMerger(MergeMode.EVENT_TIME_ORDERING)).build().scan()) {
      assertTrue(m.get("k1").get().isDelete());
    }
  }

  @Test
  void dataAfterADeleteAlwaysComesBackAndDeletesCompareAmongThemselves() throws IOException {
    session(deletes("001", new DeleteRecord("k1", "p1", 100L), new DeleteRecord("k2", "p1", 10L)));
    session(data("002", rec("k1", 1, 2)), deletes("002", new DeleteRecord("k2", "p1", 5L)));
    try (MergedLogRecords m = scan()) {
      assertEquals(2, tag(m, "k1"), "a record after a delete wins whatever its ordering");
      assertFalse(m.get("k1").get().hardDelete());
      assertTrue(m.get("k2").get().isDelete());
      assertEquals(10L, m.get("k2").get().ordering(), "the earlier delete with the larger ordering stays");
    }
  }

  @Test
  void blocksOfInflightOrUnknownInstantsAreIgnoredAndArchivedOnesKept() throws IOException {
    // timeline 001..009 with 004 inflight; 000 is before the timeline starts (archived), 012 is unknown
    session(data("000", rec("old", 1, 0)), data("004", rec("k1", 9, 4)), data("001", rec("k1", 1, 1)));
    session(data("012", rec("k2", 1, 12)), deletes("004", DeleteRecord.of("old", "p1")));
    try (MergedLogRecords m = scan(timeline("004"), "099", Optional.of("ts"))) {
      assertEquals(0, tag(m, "old"), "archived instants count as committed; the inflight delete does not");
      assertEquals(1, tag(m, "k1"));
      assertTrue(m.get("k2").isEmpty());
      assertEquals(5, m.stats().blocks());
      assertEquals(2, m.stats().records());
    }
  }

  @Test
  void anInflightInstantOlderThanTheTimelineIsStillIgnored() throws IOException {
    Timeline t = Timeline.of(List.of(Instant.inflight("001", Action.DELTACOMMIT), Instant.completed("005", Action.DELTACOMMIT)));
    session(data("001", rec("k1", 1, 1)), data("005", rec("k2", 1, 5)));
    try (MergedLogRecords m = scan(t, "009", Optional.of("ts"))) {
      assertTrue(m.get("k1").isEmpty());
      assertTrue(m.get("k2").isPresent());
    }
  }

  @Test
  void aRollbackRemovesEveryBlockOfItsTargetInAllFilesReadSoFarAndCorruptBlocks() throws IOException {
    session(data("001", rec("k1", 1, 1)), data("002", rec("k1", 9, 2)), deletes("002", DeleteRecord.of("k9", "p1")));
    session(data("002", rec("k2", 9, 2)), data("003", rec("k3", 1, 3)));
    // the retried write of 003 died mid-block
    String second = LogFixture.logPath(dir.toString(), 2, "0-0-0");
    try (LogWriter w = LogWriter.builder(LogFixture.appendingStorage(), dir.toString(), LogFixture.FILE_ID, LogFixture.BASE)
        .open()) {
      w.appendBlocks(List.of(data("003", rec("k4", 1, 3))));
    }
    byte[] bytes = Files.readAllBytes(Path.of(second));
    Files.write(Path.of(second), java.util.Arrays.copyOf(bytes, bytes.length - 10));
    // the rollback of 002 is written by instant 004, which is not a commit: command blocks count regardless
    session(CommandBlock.rollback("004", "002"), data("005", rec("k5", 1, 5)));
    try (MergedLogRecords m = scan(timeline("002"), "009", Optional.of("ts"))) {
      assertEquals(1, tag(m, "k1"));
      assertTrue(m.get("k2").isEmpty());
      assertTrue(m.get("k9").isEmpty());
      assertEquals(3, tag(m, "k3"));
      assertTrue(m.get("k4").isEmpty());
      assertEquals(5, tag(m, "k5"));
      // 002's blocks are skipped as uncommitted before the rollback sees them; the corrupt block is rolled back
      assertEquals(new ScanStats(3, 8, 1, 1, 3, 0), m.stats());
    }
    // once 002 is (wrongly) committed, the rollback is what removes its three blocks
    try (MergedLogRecords m = scan(timeline(), "009", Optional.of("ts"))) {
      assertTrue(m.get("k2").isEmpty());
      assertEquals(1, tag(m, "k1"));
      assertEquals(4, m.stats().rolledBackBlocks());
    }
  }

  @Test
  void aRollbackWithoutMatchesIsHarmless() throws IOException {
    session(data("001", rec("k1", 1, 1)), CommandBlock.rollback("003", "002"));
    try (MergedLogRecords m = scan()) {
      assertEquals(1, tag(m, "k1"));
      assertEquals(0, m.stats().rolledBackBlocks());
    }
  }

  /**
   * Hudi 0.15 stops at the first block after the query instant; where a later instant's block sorts before an earlier
   * committed one (two writers at once) that hid 002's committed row from time travel to 002. Skipping is exact.
   */
  @Test
  void aBlockAfterTheQueryInstantIsSkippedAndTheBlocksAfterItAreStillRead() throws IOException {
    session(data("001", rec("k1", 1, 1)), data("003", rec("k1", 5, 3)));
    session(data("002", rec("k2", 1, 2)));
    try (MergedLogRecords m = scan(timeline(), "002", Optional.of("ts"))) {
      assertEquals(1, tag(m, "k1"), "003's update is after the query instant");
      assertEquals(2, tag(m, "k2"), "002's block in the later file is read");
      assertEquals(new ScanStats(2, 3, 0, 0, 2, 0), m.stats());
    }
    try (MergedLogRecords m = scan(timeline(), "003", Optional.of("ts"))) {
      assertEquals(3, tag(m, "k1"));
      assertEquals(2, tag(m, "k2"));
    }
  }

  @Test
  void allGivesEveryEntryAndFilesAreReadInLogOrderWhateverTheInputOrder() throws IOException {
    session(data("001", rec("k1", 1, 1)));
    session(data("002", rec("k1", 1, 2), rec("k2", 1, 2)));
    List<dev.sluice.internal.fsview.LogFile> reversed = new ArrayList<>(LogFixture.logFiles(storage, dir.toString()));
    java.util.Collections.reverse(reversed);
    try (MergedLogRecords m = LogScanner.builder(storage).logFiles(reversed).timeline(timeline()).latestInstant("009")
        .readerSchema(LogFixture.SCHEMA).precombineField(Optional.of("ts")).merger(new RecordMerger(MergeMode.COMMIT_TIME_ORDERING))
        .build().scan()) {
      assertEquals(2, tag(m, "k1"));
      List<String> keys = new ArrayList<>();
      try (CloseableIterator<LogRecord> it = m.all()) {
        it.forEachRemaining(r -> keys.add(r.key()));
      }
      assertEquals(List.of("k1", "k2"), keys);
    }
  }

  @Test
  void unknownCommandsAndMissingKeyFieldsAreErrors() throws IOException {
    Map<HeaderKey, String> h = new EnumMap<>(HeaderKey.class);
    h.put(HeaderKey.INSTANT_TIME, "001");
    h.put(HeaderKey.COMMAND_BLOCK_TYPE, "7");
    session(new CommandBlock(h));
    assertThrows(SluiceException.class, this::scan);
    Schema noKey = SchemaBuilder.record("X").fields().requiredLong("ts").endRecord();
    assertThrows(SluiceException.class, () -> LogScanner.builder(storage).latestInstant("1").readerSchema(noKey)
        .merger(new RecordMerger(MergeMode.EVENT_TIME_ORDERING)).build());
  }

  /** A Hudi 1.x partial-update block as Spark's MERGE INTO writes it: meta fields and the updated columns only. */
  private static DataBlock partial(String instant, String key, long ts, int count) {
    Schema schema = SchemaBuilder.record("Trip").namespace("test").fields()
        .optionalString("_hoodie_commit_time").optionalString("_hoodie_commit_seqno")
        .optionalString("_hoodie_record_key").optionalString("_hoodie_partition_path")
        .optionalString("_hoodie_file_name").requiredLong("ts").requiredInt("count").endRecord();
    GenericRecord r = new GenericData.Record(schema);
    r.put("_hoodie_commit_time", instant);
    r.put("_hoodie_record_key", key);
    r.put("_hoodie_partition_path", "p1");
    r.put("ts", ts);
    r.put("count", count);
    Map<HeaderKey, String> h = new EnumMap<>(HeaderKey.class);
    h.put(HeaderKey.INSTANT_TIME, instant);
    h.put(HeaderKey.SCHEMA, schema.toString());
    h.put(HeaderKey.IS_PARTIAL, "true");
    return new DataBlock(h, schema, List.of(r));
  }

  @Test
  void partialUpdateBlocksMergeColumnWiseByOrdering() throws IOException {
    session(data("001", rec("k1", 1, 1)));
    session(partial("002", "k1", 5, 50), partial("002", "k2", 2, 20));
    // older ordering value than the merged one: the merged version wins, this one only fills columns it lacks
    session(partial("003", "k1", 3, 30));
    try (MergedLogRecords m = scan()) {
      GenericRecord k1 = m.get("k1").orElseThrow().record();
      assertEquals(50, k1.get("count"), "the newest ordering value's columns");
      assertEquals(5L, k1.get("ts"));
      assertEquals(1.5, k1.get("fare"), "a column the partial updates lack keeps the older record's value");
      assertEquals("002", k1.get("_hoodie_commit_time").toString());
      assertTrue(m.get("k1").orElseThrow().partialColumns().isEmpty(), "merged with a whole record: whole");
      LogRecord k2 = m.get("k2").orElseThrow();
      assertEquals(java.util.Set.of("_hoodie_commit_time", "_hoodie_commit_seqno", "_hoodie_record_key",
          "_hoodie_partition_path", "_hoodie_file_name", "ts", "count"), k2.partialColumns().orElseThrow(),
          "no older version in the logs: the base row fills the rest later");
      assertEquals(null, k2.record().get("fare"));
      assertEquals(4, m.stats().records());
      assertTrue(m.stats().partialUpdates());
    }
  }

  /**
   * A query of a few columns decodes only those from the log blocks (with the key, partition and ordering fields the
   * merge needs): the merged records hold the reader's projection, not the columns the writer wrote.
   */
  @Test
  void aProjectedReaderSchemaDecodesOnlyItsColumns() throws IOException {
    session(data("001", rec("k1", 5, 1), rec("k2", 5, 2)));
    session(data("002", rec("k1", 7, 3)));
    List<Schema.Field> kept = new ArrayList<>();
    for (String name : List.of("_hoodie_record_key", "_hoodie_partition_path", "ts", "tags")) {
      Schema.Field f = LogFixture.SCHEMA.getField(name);
      kept.add(new Schema.Field(f, f.schema()));
    }
    Schema projection = Schema.createRecord(LogFixture.SCHEMA.getName(), null, LogFixture.SCHEMA.getNamespace(), false,
        kept);
    try (MergedLogRecords m = LogScanner.builder(storage).logFiles(LogFixture.logFiles(storage, dir.toString()))
        .timeline(timeline()).latestInstant("009").readerSchema(projection).precombineField(Optional.of("ts"))
        .merger(new RecordMerger(MergeMode.EVENT_TIME_ORDERING)).build().scan()) {
      for (String key : List.of("k1", "k2")) {
        GenericRecord r = m.get(key).orElseThrow().record();
        assertEquals(List.of("_hoodie_record_key", "_hoodie_partition_path", "ts", "tags"),
            r.getSchema().getFields().stream().map(Schema.Field::name).toList(), key);
        assertEquals(key.equals("k1") ? 7L : 5L, r.get("ts"));
        GenericRecord written = rec(key, key.equals("k1") ? 7 : 5, key.equals("k1") ? 3 : 2);
        assertEquals(written.get("tags").toString(), r.get("tags").toString());
      }
    }
  }
}
