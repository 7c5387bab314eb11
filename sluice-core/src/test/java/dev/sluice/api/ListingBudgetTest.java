package dev.sluice.api;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.LocalStorage;
import dev.sluice.internal.timeline.Action;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How many listings a write and a query make on local disk, counted at the Storage interface (issue 7). */
class ListingBudgetTest {
  /** The metadata table off: the tests that count what listing storage costs. */
  private static final Map<String, String> NO_MDT = Map.of("hoodie.metadata.enable", "false");

  @TempDir
  Path dir;

  private Table open(FailingStorage counting, Map<String, String> options) {
    Map<String, String> o = new java.util.HashMap<>(Map.of("hoodie.index.bloom.num_entries", "1000"));
    o.putAll(options);
    return Tables.open(counting.storage(), dir.toString(), Config.of(o));
  }

  /** Listings by directory relative to the table ({@code ""} for the table itself); forgets them. */
  private Map<String, Integer> listings(FailingStorage counting) {
    Map<String, Integer> out = new TreeMap<>();
    String base = dir.toString();
    for (String d : counting.listed()) {
      String rel = d.equals(base) ? "" : d.substring(base.length() + 1);
      out.merge(rel, 1, Integer::sum);
    }
    counting.forgetListed();
    return out;
  }

  /** The folder of the timeline of a table of {@code version}, relative to the table (layout 1 or 2). */
  private static String timeline(int version) {
    return version >= 8 ? ".hoodie/timeline" : ".hoodie";
  }

  /** As {@link #timeline(int)} for the metadata table's timeline. */
  private static String metadataTimeline(int version) {
    return ".hoodie/metadata/" + timeline(version);
  }

  @ParameterizedTest(name = "version {0}")
  @ValueSource(ints = {6, 9})
  void anUpsertListsTheTimelineOnceAndItsPartitionOnce(int version) {
    // the budget of listing storage, without the metadata table (on by default; its budget is the next test's); the
    // same on both layouts: version 9's completion time comes from the timeline listed under the lock, not another
    // listing, and the planner reads commit metadata by the completion times the write's listing saw
    TripFixture.create(dir, TripFixture.spec().tableVersion(version).build(), NO_MDT).insert(it(trips(0, 30, 3, 1)));
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table t = open(counting, NO_MDT);

    t.upsert(it(List.of(trip("id-000001", 2, "p1", "x", 1))));
    // the timeline twice: at the start, and once more under the lock at publish for the conflict check (every
    // concurrency mode checks for writes that completed meanwhile)
    Map<String, Integer> budget = Map.of(timeline(version), 2, "p1", 1);
    assertEquals(budget, listings(counting), "no .temp, no .heartbeat, no other partition");
    assertEquals("x", rows(t).get("id-000001").get("name").toString());
    counting.forgetListed();

    t.upsert(it(List.of(trip("id-000004", 2, "p1", "y", 1))));
    assertEquals(budget, listings(counting), "the same for the next write");
  }

  @ParameterizedTest(name = "version {0}")
  @ValueSource(ints = {6, 9})
  void anUpsertWithTheDefaultsListsNoDataPartition(int version) {
    TripFixture.create(dir, TripFixture.spec().tableVersion(version).build(), Map.of()).insert(it(trips(0, 30, 3, 1)));
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table t = open(counting, Map.of());
    t.upsert(it(List.of(trip("id-000001", 2, "p1", "x", 1))));
    Map<String, Integer> first = listings(counting);
    // the data table's timeline as without the metadata table; the metadata table's timeline once for the services'
    // check, once for the view, once for the mirror under the lock and once for the cleaner's view; its files
    // partition for the view, the mirror's slice and log, and the cleaner; no data partition
    assertEquals(Map.of(timeline(version), 2, metadataTimeline(version), 4, ".hoodie/metadata/files", 5), first);
    assertEquals("x", rows(t).get("id-000001").get("name").toString());
    counting.forgetListed();
    t.upsert(it(List.of(trip("id-000004", 2, "p1", "y", 1))));
    assertEquals(first, listings(counting), "the same for the next write");
  }

  @Test
  void aQueryListsTheTimelineOnceAndEachPartitionOnce() {
    // the budget of listing storage, without the metadata table (on by default; its budget is the next test's)
    TripFixture.create(dir, TripFixture.spec().build(), NO_MDT).insert(it(trips(0, 30, 3, 1)));
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table t = open(counting, NO_MDT);
    assertEquals(30, rows(t).size());
    // a table of the default version 9: its timeline is .hoodie/timeline
    assertEquals(Map.of(".hoodie/timeline", 1, "", 1, "p0", 1, "p1", 1, "p2", 1), listings(counting));
  }

  @Test
  void aQueryThatAsksForItsSchemaFirstListsThePartitionsOnce() {
    // the command line prints a CSV header from the schema before the rows: the schema comes from the timeline and
    // the latest commit, not from a plan of its own
    TripFixture.create(dir, TripFixture.spec().build(), NO_MDT).insert(it(trips(0, 30, 3, 1)));
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Scan scan = open(counting, NO_MDT).newScan().select("id", "name");
    org.apache.avro.Schema schema = scan.schema();
    assertEquals(List.of("id", "name"), schema.getFields().stream().map(f -> f.name()).toList());
    assertEquals(Map.of(".hoodie/timeline", 1), listings(counting), "the timeline only");
    int n = 0;
    try (CloseableIterator<GenericRecord> rows = scan.open()) {
      while (rows.hasNext()) {
        assertEquals(schema, rows.next().getSchema());
        n++;
      }
    }
    assertEquals(30, n);
    assertEquals(Map.of(".hoodie/timeline", 1, "", 1, "p0", 1, "p1", 1, "p2", 1), listings(counting),
        "the plan: as a query that did not ask");
  }

  @Test
  void aQueryWithTheDefaultsListsTheTimelinesAndTheFilesPartitionOnce() {
    TripFixture.create(dir, TripFixture.spec().build(), Map.of()).insert(it(trips(0, 30, 3, 1)));
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table t = open(counting, Map.of());
    assertEquals(30, rows(t).size());
    assertEquals(Map.of(".hoodie/timeline", 1, ".hoodie/metadata/.hoodie/timeline", 1, ".hoodie/metadata/files", 1),
        listings(counting), "the timeline, the metadata table's timeline (version 9, the default: under timeline/) and "
            + "its files partition; no data partition, not the base path");
  }

  @ParameterizedTest(name = "version {0}")
  @ValueSource(ints = {6, 9})
  void aCommitThatTriggersACleanListsForTheCleanAndSweepsStaleMarkers(int version) throws IOException {
    // the budget of listing storage, without the metadata table (on by default; its budget is the next test's)
    Map<String, String> retainOne = Map.of("hoodie.cleaner.commits.retained", "1", "hoodie.metadata.enable", "false");
    TripFixture.create(dir, TripFixture.spec().tableVersion(version).build(), retainOne)
        .insert(it(trips(0, 30, 3, 1)));
    String tl = timeline(version);
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table t = open(counting, retainOne);
    // with one commit retained the clean is due after every commit, but nothing is deletable yet: the plan (made
    // from the writer's timeline) lists the partitions to find that out, and .hoodie/ is not listed again
    String first = t.upsert(it(List.of(trip("id-000001", 2, "p1", "x", 1)))).instantTime();
    Map<String, Integer> emptyPlan = listings(counting);
    assertEquals(Map.of(tl, 2, "", 1, "p0", 1, "p1", 2, "p2", 1), emptyPlan,
        "the write: .hoodie (at the start and at publish) and p1; the plan: the base path and every partition; no .temp, no .heartbeat");
    assertTrue(t.timeline().filter(i -> i.action() == Action.CLEAN).isEmpty());
    // a crash between publishing and deleting the markers would leave this folder: harmless, and not listed
    Path stale = dir.resolve(".hoodie/.temp/" + first + "/p1");
    Files.createDirectories(stale);
    Files.createFile(stale.resolve("f-0_0-0-0_" + first + ".parquet.marker.MERGE"));
    counting.forgetListed();

    t.upsert(it(List.of(trip("id-000001", 3, "p1", "y", 1))));
    Map<String, Integer> cleaning = listings(counting);
    assertEquals(1, t.timeline().filter(i -> i.action() == Action.CLEAN && i.isCompleted()).instants().size(),
        "this commit leaves the first commit's slice of p1 out of the retained window: a clean ran");
    // the clean plans from a fresh timeline (and lists the partitions it may clean), then sweeps .temp/.heartbeat
    assertTrue(cleaning.get(tl) >= 2, cleaning.toString());
    assertEquals(1, cleaning.get(".hoodie/.temp"), cleaning.toString());
    assertEquals(1, cleaning.get(".hoodie/.heartbeat"), cleaning.toString());
    assertTrue(cleaning.get("p1") >= 2, "the write's listing and the clean plan's: " + cleaning);
    for (String d : cleaning.keySet()) {
      // the base path ("") is listed to find the partitions
      assertTrue(List.of(tl, ".hoodie/.temp", ".hoodie/.heartbeat", "", "p0", "p1", "p2").contains(d),
          d + " in " + cleaning);
    }
    assertFalse(Files.exists(dir.resolve(".hoodie/.temp/" + first)), "the clean swept the stale marker folder");
    assertEquals("y", rows(t).get("id-000001").get("name").toString());
  }

  @Test
  void aCommitThatTriggersACleanWithTheDefaultsListsNoDataPartition() {
    Map<String, String> retainOne = Map.of("hoodie.cleaner.commits.retained", "1");
    TripFixture.create(dir, TripFixture.spec().build(), retainOne).insert(it(trips(0, 30, 3, 1)));
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table t = open(counting, retainOne);
    t.upsert(it(List.of(trip("id-000001", 2, "p1", "x", 1))));
    Map<String, Integer> emptyPlan = listings(counting);
    t.upsert(it(List.of(trip("id-000001", 3, "p1", "y", 1))));
    Map<String, Integer> cleaning = listings(counting);
    assertEquals(1, t.timeline().filter(i -> i.action() == Action.CLEAN && i.isCompleted()).instants().size(),
        "this commit leaves the first commit's slice of p1 out of the retained window: a clean ran");
    for (Map<String, Integer> listed : List.of(emptyPlan, cleaning)) {
      for (String p : List.of("", "p0", "p1", "p2")) {
        assertEquals(null, listed.get(p), "data partition '" + p + "' listed: " + listed);
      }
    }
    assertEquals("y", rows(t).get("id-000001").get("name").toString());
  }

  @Test
  void aQueryOnATableWithAValidMetadataTableListsNoDataPartition() {
    // the golden table Hudi 0.15's Java client wrote with its metadata table (non-partitioned: the data partition is
    // the base path itself)
    dev.sluice.internal.mdt.read.MetadataTableReaderTest.golden(dir);
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table viaMetadata = open(counting, Map.of());
    Map<String, GenericRecord> rows = rows(viaMetadata);
    assertEquals(Map.of(".hoodie", 1, ".hoodie/metadata/.hoodie", 1, ".hoodie/metadata/files", 1), listings(counting),
        "the timeline, the metadata table's timeline and its files partition; not the data partition");

    Table viaStorage = open(counting, Map.of("hoodie.metadata.enable", "false"));
    assertEquals(rows.keySet(), rows(viaStorage).keySet());
    assertEquals(Map.of(".hoodie", 1, "", 1), listings(counting), "with the metadata table off: the base path");
    assertEquals(5, rows.size());
  }

  @Test
  void aQueryOnAVersion9TableWithAValidMetadataTableListsNoDataPartition() {
    // the golden version-9 table Hudi 1.1.1's Java client wrote with its metadata table (partitions p1, p2): its
    // timeline and the metadata table's live under .hoodie/timeline and .hoodie/metadata/.hoodie/timeline
    dev.sluice.internal.mdt.read.MetadataTableVersion9Test.golden(dir);
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table viaMetadata = open(counting, Map.of());
    Map<String, GenericRecord> rows = rows(viaMetadata);
    Map<String, Integer> via = listings(counting);
    Table viaStorage = open(counting, Map.of("hoodie.metadata.enable", "false"));
    assertEquals(rows.keySet(), rows(viaStorage).keySet());
    Map<String, Integer> off = listings(counting);
    assertEquals(Map.of(".hoodie/timeline", 1, ".hoodie/metadata/.hoodie/timeline", 1, ".hoodie/metadata/files", 1),
        via, "the timeline, the metadata table's timeline and its files partition; no data partition (off: " + off + ")");
    assertEquals(Map.of(".hoodie/timeline", 1, "", 1, "p1", 1, "p2", 1), off,
        "with the metadata table off: the base path and both partitions");
    assertEquals(java.util.Set.of("k1", "k3", "k4", "k5", "k6"), rows.keySet());
  }

  @Test
  void anUpsertOnATableWithAValidMetadataTableListsNoDataPartition() {
    TripFixture.create(dir, TripFixture.spec().build(), Map.of("hoodie.metadata.enable", "true"))
        .insert(it(trips(0, 30, 3, 1)));
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table t = open(counting, Map.of());
    t.upsert(it(List.of(trip("id-000001", 2, "p1", "x", 1))));
    Map<String, Integer> listed = listings(counting);
    for (String p : List.of("", "p0", "p1", "p2")) {
      assertEquals(null, listed.get(p), "data partition '" + p + "' listed: " + listed);
    }
    assertEquals("x", rows(t).get("id-000001").get("name").toString());
    counting.forgetListed();
    Table off = open(counting, Map.of("hoodie.metadata.enable", "false"));
    off.upsert(it(List.of(trip("id-000002", 2, "p2", "y", 1))));
    assertEquals(1, listings(counting).get("p2"), "with the metadata table off the write lists its partition");
  }

  @Test
  void aCleanACompactionAndASavepointOnATableWithAValidMetadataTableListNoDataPartition() {
    Map<String, String> on = Map.of("hoodie.metadata.enable", "true", "hoodie.cleaner.commits.retained", "1",
        "hoodie.clean.automatic", "false", "hoodie.parquet.small.file.limit", "0");
    Table t = TripFixture.create(dir, TripFixture.spec().type(TableType.MERGE_ON_READ).build(), on);
    t.insert(it(trips(0, 30, 3, 1)));
    t.upsert(it(List.of(trip("id-000001", 2, "p1", "x", 1))));
    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table viaMetadata = open(counting, on);
    String compaction = viaMetadata.compaction().scheduleNow().orElseThrow();
    Map<String, Integer> planned = listings(counting);
    viaMetadata.compaction().run(compaction);
    counting.forgetListed();
    viaMetadata.upsert(it(List.of(trip("id-000001", 3, "p1", "y", 1))));
    counting.forgetListed();
    viaMetadata.clean();
    Map<String, Integer> cleaned = listings(counting);
    viaMetadata.savepoint(java.util.Optional.empty());
    Map<String, Integer> savepointed = listings(counting);
    assertEquals(1, viaMetadata.timeline().filter(i -> i.action() == Action.CLEAN && i.isCompleted()).instants().size(),
        "the clean deleted the slice the compaction replaced");
    for (Map<String, Integer> listed : List.of(planned, cleaned, savepointed)) {
      for (String p : List.of("", "p0", "p1", "p2")) {
        assertEquals(null, listed.get(p), "data partition '" + p + "' listed: " + listed);
      }
    }
    assertEquals(List.of(), dev.sluice.internal.mdt.write.MetadataTableChecks.problems(new LocalStorage(),
        dir.toString()));

    // the same actions with the metadata table off list the data partitions (the count is what the test measures)
    Table off = open(counting, Map.of("hoodie.metadata.enable", "false", "hoodie.cleaner.commits.retained", "1",
        "hoodie.clean.automatic", "false"));
    off.upsert(it(List.of(trip("id-000002", 2, "p2", "z", 1))));
    counting.forgetListed();
    off.compaction().scheduleNow().orElseThrow();
    assertTrue(listings(counting).containsKey("p2"), "without the metadata table the plan lists the partitions");
  }
}
