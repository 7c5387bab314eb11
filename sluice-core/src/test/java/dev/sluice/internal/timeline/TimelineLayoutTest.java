package dev.sluice.internal.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.timeline.avro.AvroContainer;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Timeline layouts 1 and 2: which a table gets, file names both ways, Avro commit metadata, refused changes. */
class TimelineLayoutTest {

  private static final TimelineLayout V2 = layoutOf(9);

  @TempDir
  Path dir;

  private static TimelineLayout layoutOf(int version) {
    return TimelineLayout.of(TableConfig.of(Map.of(TableConfig.NAME, "t", TableConfig.VERSION,
        Integer.toString(version))));
  }

  @Test
  void versionsPickTheirLayoutAndOthersAreRefusedNamingTheVersion() {
    assertEquals(TimelineLayout.V1, layoutOf(6));
    assertEquals(8, layoutOf(8).tableVersion());
    assertEquals(9, V2.tableVersion());
    for (int version : new int[] {5, 7, 10}) {
      SluiceException e = assertThrows(SluiceException.class, () -> layoutOf(version));
      assertEquals(SluiceException.Kind.UNSUPPORTED, e.kind());
      assertTrue(e.getMessage().contains("version " + version), e.getMessage());
    }
  }

  @Test
  void layout2NamesCompletedInstantsWithTheirCompletionTime() {
    TimelineLayout.InstantFile done = V2.parse("20261205051804758_20261205051813596.deltacommit").orElseThrow();
    assertEquals(Instant.completed("20261205051804758", Action.DELTACOMMIT), done.instant());
    assertEquals(Optional.of("20261205051813596"), done.completionTime());
    assertEquals("20261205051804758_20261205051813596.deltacommit",
        V2.fileName(done.instant(), done.completionTime()));
    // a compaction completes as a commit
    assertEquals(Instant.completed("20261205051856786", Action.COMMIT),
        V2.parse("20261205051856786_20261205051915849.commit").orElseThrow().instant());
    // pending states keep the layout-1 names
    assertEquals(Instant.inflight("20261205051943302", Action.COMMIT), V2.parse("20261205051943302.inflight")
        .orElseThrow().instant());
    assertEquals(Instant.requested("20261205051856786", Action.COMPACTION),
        V2.parse("20261205051856786.compaction.requested").orElseThrow().instant());
    assertEquals("20261205051856786.compaction.requested",
        V2.fileName(Instant.requested("20261205051856786", Action.COMPACTION), Optional.empty()));
    // a completed file an upgrade left without completion time
    assertEquals(Optional.empty(), V2.parse("20261205051804758.commit").orElseThrow().completionTime());
    // a pending clustering (layout 2's own action), completing as a replacecommit
    Instant clustering = V2.parse("20261205051804758.clustering.requested").orElseThrow().instant();
    assertEquals(Instant.requested("20261205051804758", Action.CLUSTERING), clustering);
    assertEquals(Instant.completed("20261205051804758", Action.REPLACECOMMIT), clustering.toState(State.COMPLETED));
    // not instants: a completion time on a pending state, a completed clustering (it completes as a replacecommit),
    // side files
    for (String name : List.of("20261205051804758_20261205051813596.deltacommit.inflight",
        "20261205051804758_20261205051813596.clustering", ".20261205051804758.deltacommit.crc", "history")) {
      assertEquals(Optional.empty(), V2.parse(name), name);
    }
    // layout 1 does not read layout-2 names
    assertEquals(Optional.empty(), TimelineLayout.V1.parse("20261205051804758_20261205051813596.deltacommit"));
  }

  @Test
  void layout2CommitMetadataIsAnAvroContainerReadByFieldName() {
    Schema stat = SchemaBuilder.record("HoodieWriteStat").fields()
        .optionalString("fileId").optionalString("path").optionalString("prevCommit").optionalLong("numWrites")
        .optionalLong("numUpdateWrites").optionalString("partitionPath").optionalInt("logVersion")
        .optionalString("baseFile").name("logFiles").type().optional().array().items().stringType()
        .optionalLong("numUpdates").endRecord();
    Schema md = SchemaBuilder.record("HoodieCommitMetadata").fields()
        .name("partitionToWriteStats").type().optional().map().values().array().items(stat)
        .optionalBoolean("compacted")
        .name("extraMetadata").type().optional().map().values().stringType()
        .optionalInt("version").optionalString("operationType").endRecord();
    GenericRecord log = new GenericData.Record(stat);
    log.put("fileId", "f1-0");
    log.put("path", "p1/.f1-0_20261205051818061.log.1_0-0-0");
    log.put("prevCommit", "20261205051818061");
    log.put("numWrites", 2L);
    log.put("numUpdateWrites", 2L);
    log.put("partitionPath", "p1");
    log.put("logVersion", 1);
    log.put("baseFile", "");
    log.put("logFiles", List.of(".f1-0_20261205051818061.log.1_0-0-0"));
    GenericRecord base = new GenericData.Record(stat);
    base.put("fileId", "f2-0");
    base.put("path", "p1/f2-0_0-0-0_20261205051818061.parquet");
    base.put("prevCommit", "null");
    base.put("numWrites", 3L);
    base.put("partitionPath", "p1");
    GenericRecord r = new GenericData.Record(md);
    r.put("partitionToWriteStats", Map.of("p1", List.of(log, base)));
    r.put("compacted", false);
    r.put("extraMetadata", Map.of("schema", "{\"type\":\"record\",\"name\":\"r\",\"fields\":[]}"));
    r.put("operationType", "UPSERT");

    CommitMetadata read = V2.commitMetadata(AvroContainer.write(r), "test");
    assertEquals(WriteOperationType.UPSERT, read.operationType());
    assertEquals(5, read.totalRecordsWritten());
    assertTrue(read.schema().isPresent());
    List<WriteStat> stats = read.partitionToWriteStats().get("p1");
    assertTrue(stats.get(0).delta(), "a stat with log fields is a delta stat");
    assertEquals(List.of(".f1-0_20261205051818061.log.1_0-0-0"), stats.get(0).logFiles());
    assertTrue(!stats.get(1).delta(), "null log fields (an Avro base-file stat) are absent, not a delta stat");
    assertEquals(CommitMetadata.empty(), V2.commitMetadata(new byte[0], "empty requested file"));
    SluiceException e = assertThrows(SluiceException.class,
        () -> V2.commitMetadata("{\"partitionToWriteStats\":{}}".getBytes(), "json.deltacommit"));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    // by the name, as Hudi 1.x's CommitMetadataSerDeV2 decides: a completed file without completion time (left by
    // Hudi's upgrade from 6) is JSON, written and read so; one with a completion time is Avro, JSON there refused
    Instant done = Instant.completed("20261205051818061", Action.DELTACOMMIT);
    TimelineLayout.InstantFile legacy = new TimelineLayout.InstantFile(done, Optional.empty());
    TimelineLayout.InstantFile named = new TimelineLayout.InstantFile(done, Optional.of("20261205051818099"));
    byte[] legacyBytes = V2.encode(read, legacy);
    assertEquals('{', (char) legacyBytes[0]);
    assertEquals(5, V2.commitMetadata(legacyBytes, legacy, "legacy").totalRecordsWritten());
    assertEquals(5, V2.commitMetadata(V2.encode(read, named), named, "named").totalRecordsWritten());
    assertEquals(SluiceException.Kind.BAD_TABLE, assertThrows(SluiceException.class,
        () -> V2.commitMetadata(legacyBytes, named, "named")).kind());
  }

  @Test
  void aLayout2StoreLoadsCompletionTimesAndRefusesServiceInstants() throws IOException {
    Path timeline = Files.createDirectories(dir.resolve(".hoodie/timeline"));
    Files.write(timeline.resolve("20261205051804758.deltacommit.requested"), new byte[0]);
    Files.write(timeline.resolve("20261205051804758.deltacommit.inflight"), new byte[0]);
    Files.write(timeline.resolve("20261205051804758_20261205051813596.deltacommit"), new byte[0]);
    Files.write(timeline.resolve("20261205051818061.deltacommit.requested"), new byte[0]);
    TimelineStore store = new TimelineStore(new LocalStorage(), dir.toString(), V2);
    Timeline loaded = store.load();
    assertEquals(List.of(Instant.completed("20261205051804758", Action.DELTACOMMIT),
        Instant.requested("20261205051818061", Action.DELTACOMMIT)), loaded.instants());
    assertEquals(Optional.of("20261205051813596"), loaded.completionTime("20261205051804758"));
    assertEquals(Optional.empty(), loaded.completionTime("20261205051818061"));
    assertEquals(V2, loaded.layout());
    assertTrue(store.pathOf(Instant.completed("20261205051804758", Action.DELTACOMMIT))
        .endsWith(".hoodie/timeline/20261205051804758_20261205051813596.deltacommit"));
    // the layout-1 store of the same table sees no instants: the layout decides where to look
    assertTrue(new TimelineStore(new LocalStorage(), dir.toString(), TimelineLayout.V1).load().isEmpty());

    // table services Sluice does not run on version 9 cannot put an instant into its timeline
    for (Action service : List.of(Action.LOGCOMPACTION, Action.INDEXING)) {
      Instant pending = Instant.requested("20261205060000000", service);
      SluiceException e = assertThrows(SluiceException.class, () -> store.createRequested(pending, new byte[0]));
      assertEquals(SluiceException.Kind.UNSUPPORTED, e.kind());
      assertTrue(e.getMessage().contains("version 9"), e.getMessage());
    }
    try (var files = Files.list(timeline)) {
      assertEquals(4, files.count(), "nothing was written or deleted");
    }
    // compaction, clean, savepoint and restore run on version 9: their instants are written
    store.createRequested(Instant.requested("20261205060000001", Action.COMPACTION), new byte[0]);
    store.createRequested(Instant.requested("20261205060000002", Action.CLEAN), new byte[0]);
    assertTrue(Files.exists(timeline.resolve("20261205060000001.compaction.requested")));
    assertTrue(Files.exists(timeline.resolve("20261205060000002.clean.requested")));
  }

  /** Commit metadata Sluice encodes for layout 2 decodes to the same metadata (Avro, Hudi 1.x's schema). */
  @Test
  void layout2CommitMetadataRoundTrips() {
    WriteStat log = WriteStat.builder().fileId("f1").path("p1/.f1_20261205060000000.log.1_0-0-0")
        .prevCommit("20261205060000000").partitionPath("p1").numWrites(2).numUpdateWrites(2).totalWriteBytes(99)
        .fileSizeInBytes(99).delta(true).logVersion(1).logOffset(0).baseFile("").logFiles(List.of(".f1_20261205060000000.log.1_0-0-0"))
        .build();
    WriteStat base = WriteStat.builder().fileId("f2").path("p1/f2_0-0-0_20261205060000000.parquet").partitionPath("p1")
        .numWrites(3).numInserts(3).totalWriteBytes(400).fileSizeInBytes(400).build();
    CommitMetadata md = new CommitMetadata(Map.of("p1", List.of(log, base)), false, Map.of("schema", "{}"),
        WriteOperationType.UPSERT, Optional.empty());
    byte[] bytes = V2.encode(md);
    assertEquals('O', bytes[0], "an Avro object container");
    assertEquals(md, V2.commitMetadata(bytes, "round trip"));
  }

  /**
   * A layout-2 completion is named {@code <requested>_<completion>}, the completion taken when the file is created:
   * after the clock and after every time already in the timeline folder, so that completion times only grow even if
   * another writer's clock ran ahead.
   */
  @Test
  void aLayout2CompletionTimeIsPastEveryTimeInTheTimeline() throws IOException {
    Path timeline = Files.createDirectories(dir.resolve(".hoodie/timeline"));
    // another writer, its clock far ahead, completed an instant
    Files.write(timeline.resolve("20991231235959998_20991231235959999.deltacommit"), new byte[0]);
    TimelineStore store = new TimelineStore(new LocalStorage(), dir.toString(), V2);
    Instant requested = Instant.requested("20261205060000000", Action.DELTACOMMIT);
    store.createRequested(requested, new byte[0]);
    Instant inflight = store.transitionToInflight(requested, new byte[] {1});
    Instant completed = store.complete(inflight, new byte[] {2});
    assertTrue(Files.exists(timeline.resolve("20261205060000000_21000101000000000.deltacommit")),
        "one millisecond past the latest completion: " + List.of(timeline.toFile().list()));
    assertEquals(Optional.of("21000101000000000"), store.load().completionTime(completed.time()));
    assertTrue(Files.exists(timeline.resolve("20261205060000000.deltacommit.requested")), "earlier states are kept");
    assertTrue(Files.exists(timeline.resolve("20261205060000000.deltacommit.inflight")));

    // with nothing ahead of the clock, the completion is the clock's time, after the requested time
    Instant next = store.transitionToInflight(store.createRequestedAtNewTime(Action.COMMIT,
        dev.sluice.internal.timeline.InstantTimes::newInstantTime, store.load(), new byte[0], false), new byte[0]);
    Files.delete(timeline.resolve("20991231235959998_20991231235959999.deltacommit"));
    Files.delete(timeline.resolve("20261205060000000_21000101000000000.deltacommit"));
    store.complete(next, new byte[0]);
    String completion = store.load().completionTime(next.time()).orElseThrow();
    assertTrue(completion.compareTo(next.time()) > 0 && completion.compareTo("2099") < 0, completion);
  }
}
