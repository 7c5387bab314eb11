package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.mdt.write.RecordIndexChecks;
import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.InterceptedStorage;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice keeps the metadata table's record index ({@code hoodie.metadata.record.index.enable=true}) and Hudi 0.15's
 * own reader ({@code HoodieBackedTableMetadata.readRecordIndex}, HBase's HFile reader and Hudi's native one) finds
 * every live key of the table at its partition and file group, and no deleted key, after each kind of action; Hudi's
 * Java client with the record index on writes on top (its metadata writer appends to Sluice's shards and its metadata
 * compaction reads Sluice's HFiles and logs), after which Sluice continues and its index still matches.
 */
class RecordIndexWriteInteropTest {
  private static final Map<String, String> ON = Map.of("hoodie.metadata.enable", "true",
      "hoodie.metadata.record.index.enable", "true", "hoodie.index.bloom.num_entries", "1000");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  private static Map<String, String> with(Map<String, String> more) {
    Map<String, String> options = new HashMap<>(ON);
    options.putAll(more);
    return options;
  }

  private Table create(Path table, TableType type, Map<String, String> more) {
    return Tables.create(table.toString(), TripFixture.spec().type(type).tableVersion(6).build(), Config.of(with(more)));
  }

  /** Every key the tests write ({@code id-000000} ... {@code id-000199}). */
  private static List<String> keys() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      out.add(String.format("id-%06d", i));
    }
    return out;
  }

  private void assertHudiFindsEveryLiveKey(Path table, Table t, String step, String... readers) {
    Map<String, String> truth = RecordIndexChecks.truth(t);
    assertFalse(truth.isEmpty(), step);
    // the readers in one oracle JVM (a JVM start is most of a check's time)
    OracleBatch batch = oracle.batch();
    List<OracleBatch.Pending<Map<String, String>>> found = new ArrayList<>();
    for (String reader : readers) {
      found.add(batch.metadataRecordIndex(table, keys(), reader));
    }
    batch.run();
    for (int i = 0; i < readers.length; i++) {
      assertEquals(truth, found.get(i).get(), step + ", " + readers[i] + " reader");
    }
    assertEquals(truth, RecordIndexChecks.indexed(new LocalStorage(), table.toString(), keys()), step + ", Sluice");
  }

  @Test
  void copyOnWriteInsertsUpsertsDeletesAndPartitionMoves() {
    Path table = dir.resolve("cow");
    Table t = create(table, TableType.COPY_ON_WRITE, Map.of("hoodie.index.type", "GLOBAL_SIMPLE",
        "hoodie.simple.index.update.partition.path", "true"));
    t.insert(TripFixture.trips(0, 40, 3, 1).iterator());
    assertHudiFindsEveryLiveKey(table, t, "after the bootstrap and an insert", "hbase");
    t.upsert(TripFixture.trips(30, 20, 3, 2).iterator());
    t.delete(TripFixture.trips(0, 6, 3, 3).iterator());
    // keys 10 and 11 move to another partition (a global index with update.partition.path)
    t.upsert(List.of(TripFixture.trip("id-000010", 9, "p2", "moved", 1.0),
        TripFixture.trip("id-000011", 9, "p0", "moved", 2.0)).iterator());
    assertHudiFindsEveryLiveKey(table, t, "after upserts, deletes and partition moves", "hbase", "native");
  }

  @Test
  void mergeOnReadCompactionsRollbackAndRestore() {
    Path table = dir.resolve("mor");
    Table t = create(table, TableType.MERGE_ON_READ, Map.of("hoodie.compact.inline", "false",
        "hoodie.metadata.compact.max.delta.commits", "3"));
    String first = t.insert(TripFixture.trips(0, 30, 3, 1).iterator()).instantTime();
    t.savepoint(Optional.of(first));
    t.upsert(TripFixture.trips(20, 20, 3, 2).iterator());
    t.delete(TripFixture.trips(0, 4, 3, 3).iterator());
    String compaction = t.compaction().scheduleNow().orElseThrow();
    t.compaction().run(compaction);
    t.upsert(TripFixture.trips(50, 10, 3, 4).iterator());
    assertTrue(hasMetadataCompaction(table), "the metadata table was compacted");
    assertHudiFindsEveryLiveKey(table, t, "after data and metadata compactions", "hbase");

    FailingStorage failing = new FailingStorage(new LocalStorage());
    failing.failOn(InterceptedStorage.Op.CREATE_EXCLUSIVE, 1, p -> p.endsWith(".deltacommit")
        && !p.contains("/metadata/"));
    Table broken = Tables.open(failing.storage(), table.toString(), Config.of(ON));
    assertThrows(SluiceException.class, () -> broken.upsert(TripFixture.trips(55, 40, 3, 5).iterator()));
    assertHudiFindsEveryLiveKey(table, t, "after the rollback of a failed write", "hbase");

    t.restore(first);
    t.upsert(TripFixture.trips(25, 10, 3, 6).iterator());
    assertHudiFindsEveryLiveKey(table, t, "after a restore and a write", "hbase", "native");
  }

  @Test
  void hudiWritesOnTopOfSluicesRecordIndexThenSluiceContinues() throws IOException {
    Path table = dir.resolve("both");
    Table t = create(table, TableType.COPY_ON_WRITE, Map.of());
    t.insert(TripFixture.trips(0, 30, 3, 1).iterator());
    t.upsert(TripFixture.trips(20, 10, 3, 2).iterator());
    Map<String, String> hudi = Map.of("hoodie.metadata.record.index.enable", "true",
        "hoodie.metadata.compact.max.delta.commits", "2", "hoodie.parquet.small.file.limit", "0");
    OracleBatch writes = oracle.batch();
    writes.write(table, "upsert", TripFixture.SCHEMA, TripFixture.trips(25, 15, 3, 3), hudi);
    writes.write(table, "delete", TripFixture.SCHEMA, TripFixture.trips(0, 3, 3, 4), hudi);
    writes.write(table, "insert", TripFixture.SCHEMA, TripFixture.trips(60, 6, 3, 5), hudi);
    writes.run();
    assertTrue(hasMetadataCompaction(table), "Hudi compacted the metadata table, record index shards included");
    assertEquals(List.of("files", "record_index"), metadataPartitions(table));
    assertHudiFindsEveryLiveKey(table, t, "after Hudi's writes", "hbase", "native");

    t.upsert(TripFixture.trips(58, 10, 3, 6).iterator());
    t.delete(TripFixture.trips(10, 2, 3, 7).iterator());
    assertHudiFindsEveryLiveKey(table, t, "Sluice after Hudi", "hbase", "native");
  }

  private static boolean hasMetadataCompaction(Path table) {
    try (Stream<Path> files = Files.list(table.resolve(".hoodie/metadata/.hoodie"))) {
      return files.anyMatch(p -> p.getFileName().toString().endsWith("001.commit"));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static List<String> metadataPartitions(Path table) throws IOException {
    for (String line : Files.readAllLines(table.resolve(".hoodie/hoodie.properties"))) {
      if (line.startsWith("hoodie.table.metadata.partitions=")) {
        return List.of(line.substring(line.indexOf('=') + 1).split(","));
      }
    }
    return List.of();
  }
}
