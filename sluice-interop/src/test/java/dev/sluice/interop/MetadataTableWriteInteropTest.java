package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice keeps the metadata table ({@code hoodie.metadata.enable=true}) and Hudi 0.15's own metadata reader
 * ({@code HoodieBackedTableMetadata}, with HBase's HFile reader and with Hudi's native one) lists exactly what a listing
 * of the table's folders finds, after each kind of action; and Hudi's Java client, whose metadata table is on by
 * default, writes on top of it without rebuilding it, after which Sluice continues.
 */
class MetadataTableWriteInteropTest {
  private static final Map<String, String> ON = Map.of("hoodie.metadata.enable", "true",
      "hoodie.index.bloom.num_entries", "1000");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  private Table create(Path table, TableType type, Map<String, String> more) {
    Map<String, String> options = new HashMap<>(ON);
    options.putAll(more);
    return Tables.create(table.toString(), TripFixture.spec().type(type).tableVersion(6).build(), Config.of(options));
  }

  private void assertHudiListsWhatIsOnDisk(Path table, String step, String... readers) throws IOException {
    InteropChecks.assertHudiListsWhatIsOnDisk(oracle.batch(), table, step, readers);
  }

  @Test
  void mergeOnReadWritesCompactionRollbackAndRestore() throws IOException {
    Path table = dir.resolve("mor");
    Table t = create(table, TableType.MERGE_ON_READ, Map.of("hoodie.compact.inline", "false"));
    String first = t.insert(TripFixture.trips(0, 30, 3, 1).iterator()).instantTime();
    t.savepoint(Optional.of(first));
    t.upsert(TripFixture.trips(0, 12, 3, 2).iterator());
    t.delete(TripFixture.trips(20, 4, 3, 3).iterator());
    assertHudiListsWhatIsOnDisk(table, "after insert, upsert, delete", "hbase", "native");

    String compaction = t.compaction().scheduleNow().orElseThrow();
    t.compaction().run(compaction);
    t.upsert(TripFixture.trips(5, 10, 3, 4).iterator());
    assertHudiListsWhatIsOnDisk(table, "after a compaction", "hbase");

    // a write that fails before its instant completes: its metadata deltacommit was completed and is rolled back
    FailingStorage failing = new FailingStorage(new LocalStorage());
    failing.failOn(InterceptedStorage.Op.CREATE_EXCLUSIVE, 1, p -> p.endsWith(".deltacommit")
        && !p.contains("/metadata/"));
    Table broken = Tables.open(failing.storage(), table.toString(), Config.of(ON));
    assertThrows(SluiceException.class, () -> broken.upsert(TripFixture.trips(0, 40, 3, 5).iterator()));
    assertHudiListsWhatIsOnDisk(table, "after the rollback of a failed write", "hbase", "native");

    t.restore(first);
    assertHudiListsWhatIsOnDisk(table, "after a restore", "hbase", "native");
    t.upsert(TripFixture.trips(0, 5, 3, 6).iterator());
    assertHudiListsWhatIsOnDisk(table, "a write after the restore", "hbase");
  }

  @Test
  void copyOnWriteCleansAndBootstrapsAnExistingTable() throws IOException {
    Path table = dir.resolve("cow");
    Table off = Tables.create(table.toString(), TripFixture.spec().tableVersion(6).build(), Config.of(Map.of(
        "hoodie.index.bloom.num_entries", "1000")));
    off.insert(TripFixture.trips(0, 20, 2, 1).iterator());
    off.upsert(TripFixture.trips(0, 10, 2, 2).iterator());
    Table t = Tables.open(table.toString(), Config.of(withOn(Map.of("hoodie.cleaner.commits.retained", "1"))));
    for (int ts = 3; ts < 7; ts++) {
      t.upsert(TripFixture.trips(0, 10, 2, ts).iterator());
    }
    assertTrue(Files.list(table.resolve(".hoodie")).anyMatch(p -> p.getFileName().toString().endsWith(".clean")),
        "the cleaner ran");
    assertHudiListsWhatIsOnDisk(table, "after cleans", "hbase", "native");
  }

  @Test
  void hudiWritesOnTopOfSluicesMetadataTableThenSluiceContinues() throws IOException {
    Path table = dir.resolve("both");
    Table t = create(table, TableType.MERGE_ON_READ, Map.of());
    t.insert(TripFixture.trips(0, 20, 2, 1).iterator());
    t.upsert(TripFixture.trips(0, 5, 2, 2).iterator());
    String init = InteropChecks.metadataInitializations(table).get(0);

    OracleBatch writes = oracle.batch();
    writes.write(table, "upsert", TripFixture.SCHEMA, TripFixture.trips(3, 10, 2, 3), Map.of(
        "hoodie.parquet.small.file.limit", "0"));
    writes.write(table, "insert", TripFixture.SCHEMA, TripFixture.trips(100, 6, 3, 4), Map.of());
    InteropChecks.assertHudiListsWhatIsOnDisk(writes, table, "after Hudi's writes", "hbase", "native");
    // Hudi kept Sluice's metadata table: no new initialization
    assertEquals(List.of(init), InteropChecks.metadataInitializations(table));

    t.upsert(TripFixture.trips(0, 8, 3, 5).iterator());
    assertHudiListsWhatIsOnDisk(table, "Sluice after Hudi", "hbase", "native");

    // enough deltacommits for Hudi's metadata compaction (hoodie.metadata.compact.max.delta.commits, 10): Hudi's next
    // write compacts Sluice's log files into a new base file, and Sluice's later writes go to that new slice
    for (int ts = 6; ts < 14; ts++) {
      t.upsert(TripFixture.trips(ts, 2, 3, ts).iterator());
    }
    oracle.write(table, "upsert", TripFixture.SCHEMA, TripFixture.trips(0, 4, 3, 20), Map.of());
    List<String> compactions = Files.list(table.resolve(".hoodie/metadata/.hoodie")).map(p -> p.getFileName()
        .toString()).filter(n -> n.endsWith("001.commit")).toList();
    assertEquals(1, compactions.size(), "Hudi compacted the metadata table: " + compactions);
    t.upsert(TripFixture.trips(0, 6, 3, 21).iterator());
    String compactionTime = compactions.get(0).substring(0, compactions.get(0).indexOf('.'));
    assertTrue(Files.list(table.resolve(".hoodie/metadata/files")).anyMatch(p -> p.getFileName().toString()
        .startsWith(".files-0000-0_" + compactionTime + ".log.")), "Sluice writes to the compacted slice");
    assertHudiListsWhatIsOnDisk(table, "Sluice after Hudi's metadata compaction", "hbase", "native");
  }

  @Test
  void sluicesMetadataCompactionAndArchivalAreReadByHudi() throws IOException {
    Path table = dir.resolve("compacted");
    Table t = create(table, TableType.COPY_ON_WRITE, Map.of("hoodie.metadata.compact.max.delta.commits", "3",
        "hoodie.keep.min.commits", "2", "hoodie.keep.max.commits", "3", "hoodie.cleaner.commits.retained", "1"));
    for (int ts = 1; ts <= 7; ts++) {
      t.upsert(TripFixture.trips(ts * 3, 8, 2, ts).iterator());
    }
    assertTrue(Files.list(table.resolve(".hoodie/metadata/.hoodie")).anyMatch(p -> p.getFileName().toString()
        .endsWith("001.commit")), "Sluice compacted the metadata table");
    assertTrue(Files.list(table.resolve(".hoodie/archived")).findAny().isPresent(), "the data table archived");
    assertHudiListsWhatIsOnDisk(table, "after Sluice's metadata compactions and archival", "hbase", "native");
    // Hudi's writer reads Sluice's compacted base file and the logs after it
    OracleBatch write = oracle.batch();
    write.write(table, "upsert", TripFixture.SCHEMA, TripFixture.trips(0, 5, 2, 30), Map.of());
    InteropChecks.assertHudiListsWhatIsOnDisk(write, table, "Hudi's write after them", "hbase");
  }

  @Test
  void sluicesMetadataCleanAndArchivalThenHudiAndSluiceContinue() throws IOException {
    // the metadata cleaner retains at least 20 commits: the table keeps 20 so that the metadata timeline (21) holds
    // more, and the metadata table compacts every 3 deltacommits so that old slices pile up
    Map<String, String> small = Map.of("hoodie.metadata.compact.max.delta.commits", "3", "hoodie.keep.min.commits",
        "20", "hoodie.keep.max.commits", "21", "hoodie.cleaner.commits.retained", "1");
    Path table = dir.resolve("services");
    Table t = create(table, TableType.COPY_ON_WRITE, small);
    for (int ts = 1; ts <= 26; ts++) {
      t.upsert(TripFixture.trips(ts % 5, 6, 2, ts).iterator());
    }
    Path mdtTimeline = table.resolve(".hoodie/metadata/.hoodie");
    assertTrue(names(mdtTimeline).stream().anyMatch(n -> n.endsWith("002.clean")), "Sluice cleaned the metadata table");
    List<String> mdtArchive = names(mdtTimeline.resolve("archived"));
    assertTrue(!mdtArchive.isEmpty(), "Sluice archived the metadata timeline");
    assertTrue(!names(table.resolve(".hoodie/archived")).isEmpty(), "and the data timeline");
    assertHudiListsWhatIsOnDisk(table, "after Sluice's metadata clean and archival", "hbase", "native");

    // Hudi's Java client goes on with the same settings: its metadata services run on Sluice's timeline and archive
    Map<String, String> hudi = new HashMap<>(small);
    OracleBatch writes = oracle.batch();
    for (int ts = 30; ts < 32; ts++) {
      writes.write(table, "upsert", TripFixture.SCHEMA, TripFixture.trips(ts % 5, 6, 2, ts), hudi);
    }
    InteropChecks.assertHudiListsWhatIsOnDisk(writes, table, "after Hudi's writes", "hbase");
    List<String> afterHudi = names(mdtTimeline.resolve("archived"));
    assertTrue(afterHudi.containsAll(mdtArchive), "Hudi kept Sluice's metadata archive: " + afterHudi);

    // then Sluice again: its services resume on what Hudi left
    for (int ts = 40; ts < 46; ts++) {
      t.upsert(TripFixture.trips(ts % 5, 6, 2, ts).iterator());
    }
    assertHudiListsWhatIsOnDisk(table, "Sluice after Hudi", "native");
    List<dev.sluice.internal.archive.ArchivedInstant> archived = dev.sluice.internal.archive.ArchiveLog.of(
        new LocalStorage(), table.resolve(".hoodie/metadata").toString()).read();
    assertTrue(!archived.isEmpty(), "the metadata archive reads back");
    assertEquals(10, TripFixture.rows(t).size(), "every key once (ids 0 to 9)");
  }

  private static List<String> names(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (java.util.stream.Stream<Path> s = Files.list(folder)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static Map<String, String> withOn(Map<String, String> more) {
    Map<String, String> m = new HashMap<>(ON);
    m.putAll(more);
    return m;
  }
}
