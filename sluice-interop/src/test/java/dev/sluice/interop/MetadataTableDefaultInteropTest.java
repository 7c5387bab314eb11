package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hoodie.metadata.enable} left unset is on, as in Hudi 0.15's writers: a table Sluice creates and writes with no
 * option has a metadata table that Hudi's {@code HoodieBackedTableMetadata} lists exactly; {@code false} removes it;
 * a table Hudi wrote with its metadata table off gets one on Sluice's next write, as on Hudi's next write with
 * Hudi's default.
 */
class MetadataTableDefaultInteropTest {
  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  private void assertHudiListsWhatIsOnDisk(Path table, String step, String... readers) throws IOException {
    assertHudiListsWhatIsOnDisk(oracle.batch(), table, step, readers);
  }

  private void assertHudiListsWhatIsOnDisk(OracleBatch batch, Path table, String step, String... readers)
      throws IOException {
    assertFalse(MetadataListingOracleTest.listing(table).isEmpty(), step + ": the table has data files");
    InteropChecks.assertHudiListsWhatIsOnDisk(batch, table, step, readers);
  }


  private static String metadataPartitions(Path table) throws IOException {
    Properties p = new Properties();
    try (var in = Files.newInputStream(table.resolve(".hoodie/hoodie.properties"))) {
      p.load(in);
    }
    return p.getProperty("hoodie.table.metadata.partitions", "");
  }

  @Test
  void aTableWrittenWithNoOptionHasAMetadataTableHudiListsExactlyAndFalseRemovesIt() throws IOException {
    Path table = dir.resolve("t");
    Table t = Tables.create(table.toString(), TripFixture.spec().type(TableType.MERGE_ON_READ).tableVersion(6).build(), Config.empty());
    t.insert(TripFixture.trips(0, 30, 3, 1).iterator());
    t.upsert(TripFixture.trips(0, 12, 3, 2).iterator());
    t.delete(TripFixture.trips(25, 3, 3, 3).iterator());
    assertEquals("files", metadataPartitions(table));
    assertEquals(List.of("00000000000000010.deltacommit"), InteropChecks.metadataInitializations(table),
        "built on the empty table before the first write, as Hudi's writer");
    assertHudiListsWhatIsOnDisk(table, "after insert, upsert, delete with no option", "hbase", "native");

    Tables.open(table.toString(), Config.of(Map.of("hoodie.metadata.enable", "false")))
        .upsert(TripFixture.trips(0, 2, 3, 4).iterator());
    assertFalse(Files.exists(table.resolve(".hoodie/metadata")), "false removes it");
    assertEquals("", metadataPartitions(table));
    Rows.assertSameData(oracle.read(table, "snapshot", Optional.empty()), Rows.scan(Tables.open(table.toString()),
        Optional.empty()), "Hudi reads the table without it");
  }

  @Test
  void aHudiTableWrittenWithoutOneGetsOneOnSluicesNextWriteAndHudiKeepsIt() throws IOException {
    Path table = dir.resolve("hudi");
    Map<String, String> off = Map.of("hoodie.metadata.enable", "false");
    // Hudi's steps in one oracle JVM
    OracleBatch hudi = oracle.batch();
    hudi.create(table, OracleTableSpec.builder("hudi_no_mdt", TripFixture.SCHEMA).partitionBy("part").build(),
        List.of());
    hudi.write(table, "insert", TripFixture.SCHEMA, TripFixture.trips(0, 20, 2, 1), off);
    OracleBatch.Pending<String> upsert = hudi.write(table, "upsert", TripFixture.SCHEMA, TripFixture.trips(0, 6, 2,
        2), off);
    hudi.run();
    String last = upsert.get();
    assertFalse(Files.exists(table.resolve(".hoodie/metadata")), "Hudi with it off wrote none");

    String sluice = Tables.open(table.toString()).upsert(TripFixture.trips(3, 6, 2, 3).iterator()).instantTime();
    assertEquals("files", metadataPartitions(table));
    assertEquals(List.of(last + "010.deltacommit"), InteropChecks.metadataInitializations(table),
        "built at Hudi's latest completed instant, as Hudi's own writer would");
    assertTrue(Files.exists(table.resolve(".hoodie/metadata/.hoodie/" + sluice + ".deltacommit")),
        "then Sluice's write mirrored at its instant");
    assertHudiListsWhatIsOnDisk(table, "after Sluice's first write", "hbase", "native");

    // Hudi's writer with its default (on) finds a valid metadata table: no initialization of its own
    OracleBatch write = oracle.batch();
    write.write(table, "upsert", TripFixture.SCHEMA, TripFixture.trips(0, 4, 2, 4), Map.of());
    OracleBatch.Pending<List<GenericRecord>> rows = write.read(table, "snapshot", Optional.empty(), false);
    assertHudiListsWhatIsOnDisk(write, table, "after Hudi's write on it", "hbase");
    assertEquals(List.of(last + "010.deltacommit"), InteropChecks.metadataInitializations(table));
    Rows.assertSameData(rows.get(), Rows.scan(Tables.open(table.toString()), Optional.empty()),
        "both engines read the same rows");
  }
}
