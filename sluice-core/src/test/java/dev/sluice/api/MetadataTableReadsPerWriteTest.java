package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What one upsert reads of the metadata table (on by default) on a table of five partitions: tagging asks for the
 * files of all five in one batched lookup, so the {@code files} partition's base HFile is opened once and its log
 * files once each (plus one reopen of a delete block's content), not once per data partition; the metadata timeline
 * is listed a bounded number of times (the services' check, the view's, and the mirror's, under the lock).
 */
class MetadataTableReadsPerWriteTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(TableType.class)
  void anUpsertReadsTheMetadataTablesFilesOnceNotOncePerPartition(TableType type) {
    String location = dir.toString();
    Table created = Tables.create(location, TripFixture.spec().type(type).build(), Config.empty());
    created.insert(TripFixture.trips(0, 300, 5, 1).iterator());
    created.upsert(TripFixture.trips(0, 50, 5, 2).iterator());
    created.upsert(TripFixture.trips(50, 50, 5, 3).iterator());

    Map<String, Integer> opens = new TreeMap<>();
    int[] timelineListings = new int[1];
    InterceptedStorage counting = new InterceptedStorage(new LocalStorage(), call -> {
      String rel = call.path().substring(location.length());
      if (call.op() == InterceptedStorage.Op.OPEN && rel.startsWith("/.hoodie/metadata/files/")) {
        opens.merge(rel.substring(rel.lastIndexOf('/') + 1), 1, Integer::sum);
      }
      if (call.op() == InterceptedStorage.Op.LIST && rel.equals("/.hoodie/metadata/.hoodie")) {
        timelineListings[0]++;
      }
    });
    Tables.open(counting, location, Config.empty()).upsert(TripFixture.trips(0, 50, 5, 4).iterator());

    long bases = opens.keySet().stream().filter(n -> n.endsWith(".hfile")).count();
    assertEquals(1, bases, "one base file: " + opens);
    opens.forEach((name, n) -> assertTrue(n <= (name.endsWith(".hfile") ? 1 : 2),
        name + " opened " + n + " times in one upsert: " + opens));
    assertTrue(opens.keySet().stream().filter(n -> n.contains(".log.")).count() >= 3, "the logs were read: " + opens);
    assertTrue(timelineListings[0] <= 4, "metadata timeline listed " + timelineListings[0] + " times");
  }
}
