package dev.sluice.storageit;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.rows;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.Expressions;
import dev.sluice.storage.InterceptedStorage.Op;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * How many listings a timeline load, a query and a write make, counted at the Storage interface (every call)
 * and at the server (the store's own request counter), on each store.
 */
interface ListingScenarios {
  /** A location no table uses yet. */
  String newLocation(String name);

  /** The settings that reach the store. */
  Map<String, String> settings();

  /** The server's count of listing requests so far (NameNode getListing calls, S3 LIST requests). */
  long serverListRequests(String location);

  /** Listings by directory, relative to the table's base path ({@code ""} for the base path itself). */
  private static Map<String, Integer> listingsByDir(RecordingStorage rec, String location) {
    Map<String, Integer> out = new TreeMap<>();
    for (String dir : rec.paths(Op.LIST)) {
      String rel = dir.equals(location) ? "" : dir.substring(location.length() + 1);
      out.merge(rel, 1, Integer::sum);
    }
    rec.reset();
    return out;
  }

  /**
   * The settings with the metadata table off: these scenarios count the listings of a table read and written by
   * listing its folders (with the metadata table, on by default, data partitions are not listed at all: see
   * {@code ListingBudgetTest} in sluice-core).
   */
  default Map<String, String> listingSettings() {
    Map<String, String> o = new java.util.HashMap<>(settings());
    o.put("hoodie.metadata.enable", "false");
    return o;
  }

  @Test
  default void aTimelineLoadIsOneListingAndAQueryListsEachPartitionOnce() {
    String location = newLocation("listings");
    RemoteTables.createTrips(location, listingSettings()).insert(it(trips(0, 30, 3, 1)));
    RecordingStorage rec = new RecordingStorage(RemoteTables.storage(location, settings()));
    Table t = Tables.open(rec.storage(), location, RemoteTables.options(listingSettings()));

    rec.reset();
    long server = serverListRequests(location);
    TableInternals.timeline(t);
    assertEquals(Map.of(".hoodie", 1), listingsByDir(rec, location));
    assertEquals(1, serverListRequests(location) - server, "one request at the server too");

    server = serverListRequests(location);
    assertEquals(30, rows(t).size());
    // the timeline, the base path (to find the partitions), each partition once: no directory twice
    assertEquals(Map.of(".hoodie", 1, "", 1, "p0", 1, "p1", 1, "p2", 1), listingsByDir(rec, location));
    assertEquals(5, serverListRequests(location) - server);

    assertEquals(10, rows(t.newScan().filter(Expressions.eq("part", "p1")).open()).size());
    Map<String, Integer> pruned = listingsByDir(rec, location);
    assertEquals(1, pruned.get("p1"), "the partition read is listed once");
    // partition discovery still lists p0 and p2 to find their partition metadata (see the report: core's
    // FileSystemView.partitions() walks every folder before the filter prunes)
    assertTrue(pruned.values().stream().allMatch(n -> n == 1), "no directory listed twice: " + pruned);
  }

  @Test
  default void aWriteListsEachTouchedPartitionOnce() {
    String location = newLocation("write-listings");
    RemoteTables.createTrips(location, listingSettings()).insert(it(trips(0, 30, 3, 1)));
    RecordingStorage rec = new RecordingStorage(RemoteTables.storage(location, settings()));
    Table t = Tables.open(rec.storage(), location, RemoteTables.options(listingSettings()));

    rec.reset();
    t.upsert(it(List.of(trip("id-000001", 2, "p1", "x", 1))));
    Map<String, Integer> upsert = listingsByDir(rec, location);
    assertEquals(1, upsert.get("p1"), "the one partition the upsert touches, once");
    assertEquals(List.of(".hoodie", "p1"), List.copyOf(upsert.keySet()), "no other folder is listed: " + upsert);
    // Table.write loads the timeline once and hands it to the write and the post-commit services
    assertTrue(upsert.get(".hoodie") <= 2, upsert.toString());

    t.insert(it(trips(100, 6, 3, 1)));
    Map<String, Integer> insert = listingsByDir(rec, location);
    assertEquals(Map.of("p0", 1, "p1", 1, "p2", 1), without(insert, ".hoodie"), "small-file lookup, each partition once");
    assertTrue(insert.get(".hoodie") <= 2, insert.toString());
  }

  @Test
  default void aQueryThroughAValidMetadataTableListsNoDataPartition() throws java.io.IOException {
    // the table Hudi 0.15's Java client wrote with its metadata table (core's golden table), copied to the store
    String location = newLocation("with-metadata-table");
    Path golden = Path.of("../sluice-core/src/test/resources/golden/cow_with_metadata_table").toAbsolutePath().normalize();
    dev.sluice.storage.Storage store = RemoteTables.storage(location, settings());
    try (java.util.stream.Stream<Path> files = Files.walk(golden)) {
      for (Path f : files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().endsWith(".crc")).toList()) {
        try (java.io.OutputStream out = store.create(location + "/" + golden.relativize(f).toString().replace('\\', '/'),
            false)) {
          out.write(Files.readAllBytes(f));
        }
      }
    }
    RecordingStorage rec = new RecordingStorage(RemoteTables.storage(location, settings()));
    Table t = Tables.open(rec.storage(), location, RemoteTables.options(settings()));
    rec.reset();
    long server = serverListRequests(location);
    assertEquals(5, rows(t).size());
    assertEquals(Map.of(".hoodie", 1, ".hoodie/metadata/.hoodie", 1, ".hoodie/metadata/files", 1),
        listingsByDir(rec, location), "the timelines and the metadata table's files partition; not the data partition");
    assertEquals(3, serverListRequests(location) - server);

    Map<String, String> off = new java.util.HashMap<>(settings());
    off.put("hoodie.metadata.enable", "false");
    Table plain = Tables.open(rec.storage(), location, RemoteTables.options(off));
    server = serverListRequests(location);
    assertEquals(5, rows(plain).size());
    assertEquals(Map.of(".hoodie", 1, "", 1), listingsByDir(rec, location), "with the metadata table off: the base path");
    assertEquals(2, serverListRequests(location) - server);
  }

  private static Map<String, Integer> without(Map<String, Integer> m, String key) {
    Map<String, Integer> out = new TreeMap<>(m);
    out.remove(key);
    return out;
  }
}
