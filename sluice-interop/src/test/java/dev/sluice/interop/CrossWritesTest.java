package dev.sluice.interop;

import dev.sluice.internal.service.TableInternals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import dev.sluice.api.MergeMode;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Sluice and Hudi's Java client take turns writing one Copy-on-Write table; after every turn both readers return
 * the rows the test computes from the inputs.
 */
class CrossWritesTest {

  private static final Map<String, String> NO_METADATA = Map.of("hoodie.metadata.enable", "false",
      "hoodie.index.bloom.num_entries", "1000");
  private static final String[] PARTS = {"north", "south"};

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  /** Both readers hold exactly the model's rows, and Sluice's rows name latest base files. */
  private static void assertBothRead(Path location, Table table, ExpectedTable model, String when) {
    assertBothRead(oracle.read(location, "snapshot", Optional.empty()), table, model, when);
  }

  /** Like {@link #assertBothRead(Path, Table, ExpectedTable, String)} with Hudi's rows already read. */
  private static void assertBothRead(List<GenericRecord> hudi, Table table, ExpectedTable model, String when) {
    model.assertHeldBy(hudi, "Hudi, " + when);
    List<GenericRecord> sluice = Rows.scan(table, Optional.empty());
    model.assertHeldBy(sluice, "Sluice, " + when);
    Rows.assertSameRows(hudi, sluice, "Hudi vs Sluice, " + when);
    InteropChecks.assertRowsInLatestFiles(sluice, table);
  }

  @Test
  void sluiceWritesIntoHudisTableThenHudiWritesAgain() {
    Path location = dir.resolve("hudi_made");
    oracle.create(location, KeyLayout.PARTITIONED.oracleSpec("hudi_made"));
    // Hudi's CoW tables store no payload class: the default OverwriteWithLatestAvroPayload (latest write wins).
    ExpectedTable model = KeyLayout.PARTITIONED.model(false);
    List<GenericRecord> first = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      first.add(WideRows.row("h" + i, 10, PARTS[i % 2], i + 1));
    }
    String hudiInsert = model.upsert(first, rs -> oracle.write(location, "insert", WideRows.SCHEMA, rs, NO_METADATA));

    Table table = WideRows.open(location, WideRows.NO_METADATA_TABLE);
    // h0: higher ts; h1: LOWER ts, which still wins under the table's (default) commit-time ordering
    List<GenericRecord> upserts = List.of(WideRows.update(first.get(0), 11, 50), WideRows.update(first.get(1), 3, 51),
        WideRows.row("s1", 11, PARTS[0], 52), WideRows.row("s2", 11, PARTS[1], 53));
    String sluiceUpsert = model.upsert(upserts, rs -> table.upsert(rs.iterator()).instantTime());
    model.delete(List.of(first.get(2), first.get(5)), rs -> table.delete(rs.iterator()).instantTime());
    assertBothRead(location, table, model, "after Sluice's upsert and delete");
    assertSameFooterAsHudi(location, PARTS[0], hudiInsert, sluiceUpsert);

    List<GenericRecord> again = List.of(WideRows.update(upserts.get(2), 20, 60), WideRows.update(first.get(0), 20, 61),
        WideRows.update(first.get(7), 20, 62), WideRows.row("h9", 20, PARTS[1], 63));
    model.upsert(again, rs -> oracle.write(location, "upsert", WideRows.SCHEMA, rs, NO_METADATA));
    assertBothRead(location, table, model, "after Hudi's second upsert");
  }

  @ParameterizedTest
  @EnumSource(KeyLayout.class)
  void hudiUpsertsIntoSluiceTablesOfEveryLayout(KeyLayout layout) {
    Path location = dir.resolve("layout_" + layout.name().toLowerCase());
    Table table = WideRows.create(location, layout.spec("layout", MergeMode.EVENT_TIME_ORDERING),
        WideRows.NO_METADATA_TABLE);
    ExpectedTable model = layout.model(true);
    // a partition value with a space, a null region (hive style: __HIVE_DEFAULT_PARTITION__), shared ids
    String[] parts = {"north", "east wing"};
    List<GenericRecord> rows = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      rows.add(WideRows.row("id" + (i / 2), i % 2, 1, parts[i / 3], i == 4 ? null : "r" + (i % 2), i + 1));
    }
    if (layout != KeyLayout.COMPLEX_KEY) {
      // ids must be unique when the key is id alone
      rows.replaceAll(r -> WideRows.row(r.get("id") + "_" + r.get("sub"), (Integer) r.get("sub"), 1,
          r.get("part").toString(), r.get("region") == null ? null : r.get("region").toString(), 1));
    }
    model.upsert(rows, rs -> table.insert(rs.iterator()).instantTime());
    // Hudi's key generator must give Sluice's keys and partition paths, or these updates would duplicate rows.
    List<GenericRecord> hudiUpserts = List.of(WideRows.update(rows.get(0), 2, 10), WideRows.update(rows.get(4), 2, 11),
        WideRows.update(rows.get(5), 2, 12), WideRows.row("new", 1, 2, parts[1], null, 13));
    model.upsert(hudiUpserts, rs -> oracle.write(location, "upsert", WideRows.SCHEMA, rs, NO_METADATA));
    model.upsert(List.of(WideRows.update(hudiUpserts.get(3), 3, 14), WideRows.update(rows.get(1), 3, 15)),
        rs -> table.upsert(rs.iterator()).instantTime());
    assertBothRead(location, table, model, layout + " after Sluice, Hudi, Sluice");
  }

  @Test
  void hudisBloomIndexFindsSluicesFileGroups() {
    Path location = dir.resolve("sluice_made");
    // Small-file handling off: the second insert opens new file groups, so each partition has two.
    Table table = WideRows.create(location, KeyLayout.PARTITIONED.spec("sluice_made", MergeMode.EVENT_TIME_ORDERING),
        Map.of("hoodie.parquet.small.file.limit", "0", "hoodie.metadata.enable", "false"));
    ExpectedTable model = KeyLayout.PARTITIONED.model(true);
    List<GenericRecord> batch1 = new ArrayList<>();
    List<GenericRecord> batch2 = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      batch1.add(WideRows.row("a" + i, 1, PARTS[i % 2], i + 1));
      batch2.add(WideRows.row("b" + i, 1, PARTS[i % 2], i + 11));
    }
    model.upsert(batch1, rs -> table.insert(rs.iterator()).instantTime());
    model.upsert(batch2, rs -> table.insert(rs.iterator()).instantTime());
    Map<String, String> groupsBefore = fileIdsByKey(Rows.scan(table, Optional.empty()));
    assertEquals(4, new TreeSet<>(groupsBefore.values()).size(), "two file groups per partition: " + groupsBefore);

    // Updates to keys of all four file groups, and inserts, through Hudi's BLOOM index.
    List<GenericRecord> hudiUpserts = new ArrayList<>();
    for (int i : new int[] {0, 3, 4, 9}) {
      hudiUpserts.add(WideRows.update(batch1.get(i), 5, 30 + i));
      hudiUpserts.add(WideRows.update(batch2.get(i), 5, 40 + i));
    }
    hudiUpserts.add(WideRows.row("c0", 5, PARTS[0], 50));
    model.upsert(hudiUpserts, rs -> oracle.write(location, "upsert", WideRows.SCHEMA, rs, NO_METADATA));
    assertBothRead(location, table, model, "after Hudi's upsert into Sluice's table");
    Map<String, String> groupsAfter = fileIdsByKey(Rows.scan(table, Optional.empty()));
    for (Map.Entry<String, String> e : groupsBefore.entrySet()) {
      assertEquals(e.getValue(), groupsAfter.get(e.getKey()), "file group of " + e.getKey() + " after Hudi's update");
    }

    List<GenericRecord> sluiceUpserts = List.of(WideRows.update(hudiUpserts.get(0), 9, 70),
        WideRows.update(hudiUpserts.get(hudiUpserts.size() - 1), 9, 71), WideRows.update(batch2.get(5), 9, 72));
    model.upsert(sluiceUpserts, rs -> table.upsert(rs.iterator()).instantTime());
    OracleBatch batch = oracle.batch();
    var hudiRows = batch.read(location, "snapshot", Optional.empty(), false);
    var hudiView = batch.fsview(location);
    batch.run();
    assertBothRead(hudiRows.get(), table, model, "after Sluice's upsert over Hudi's");
    InteropChecks.assertSameFileSystemView(hudiView.get(), table);
  }

  @Test
  void hudiCleansAndArchivesSluicesCommits() {
    Path location = dir.resolve("cleaned");
    Table table = WideRows.create(location, KeyLayout.PARTITIONED.spec("cleaned", MergeMode.EVENT_TIME_ORDERING),
        WideRows.NO_METADATA_TABLE);
    ExpectedTable model = KeyLayout.PARTITIONED.model(true);
    List<String> sluiceCommits = new ArrayList<>();
    for (int round = 0; round < 5; round++) {
      List<GenericRecord> batch = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        batch.add(WideRows.row("k" + i, round, PARTS[i % 2], round * 10 + i));
      }
      sluiceCommits.add(model.upsert(batch, rs -> table.upsert(rs.iterator()).instantTime()));
    }
    // Hudi's writer cleans (keeping what the last commit needs) and archives down to two commits.
    Map<String, String> aggressive = new HashMap<>(NO_METADATA);
    aggressive.putAll(Map.of("hoodie.cleaner.commits.retained", "1", "hoodie.keep.min.commits", "2",
        "hoodie.keep.max.commits", "3"));
    String hudiCommit = model.upsert(List.of(WideRows.row("k1", 9, PARTS[1], 99)),
        rs -> oracle.write(location, "upsert", WideRows.SCHEMA, rs, aggressive));

    String sluiceCommit = model.upsert(List.of(WideRows.row("k0", 20, PARTS[0], 100),
        WideRows.row("k7", 20, PARTS[1], 101)), rs -> table.upsert(rs.iterator()).instantTime());

    OracleBatch batch = oracle.batch();
    var hudiTimeline = batch.timeline(location);
    var hudiRows = batch.read(location, "snapshot", Optional.empty(), false);
    var hudiView = batch.fsview(location);
    batch.run();
    List<String> hudiInstants = hudiTimeline.get().stream()
        .map(i -> i.get("time") + " " + i.get("action") + " " + i.get("state")).collect(Collectors.toList());
    assertTrue(hudiInstants.stream().anyMatch(i -> i.contains(" clean COMPLETED")), "Hudi cleaned: " + hudiInstants);
    assertFalse(hudiInstants.stream().anyMatch(i -> i.startsWith(sluiceCommits.get(0))),
        "Hudi archived Sluice's first commit: " + hudiInstants);
    List<String> sluiceInstants = TableInternals.timeline(table).instants().stream().map(i -> i.time() + " " + i.action().id()
        + " " + i.state()).collect(Collectors.toList());
    assertEquals(hudiInstants, sluiceInstants, "active timeline after Hudi's clean and archival and Sluice's commit");
    assertTrue(sluiceInstants.containsAll(List.of(hudiCommit + " commit COMPLETED", sluiceCommit + " commit COMPLETED")));
    assertBothRead(hudiRows.get(), table, model, "after Hudi's clean/archival and Sluice's next upsert");
    InteropChecks.assertSameFileSystemView(hudiView.get(), table);
  }

  @Test
  void fileGroupsEmptiedByDeletesOnEitherSide() {
    Path location = dir.resolve("emptied");
    Table table = WideRows.create(location, KeyLayout.PARTITIONED.spec("emptied", MergeMode.EVENT_TIME_ORDERING),
        WideRows.NO_METADATA_TABLE);
    ExpectedTable model = KeyLayout.PARTITIONED.model(true);
    List<GenericRecord> rows = List.of(WideRows.row("k0", 1, PARTS[0], 1), WideRows.row("k1", 1, PARTS[0], 2),
        WideRows.row("k2", 1, PARTS[1], 3));
    model.upsert(rows, rs -> table.insert(rs.iterator()).instantTime());
    // Sluice empties the north file group; Hudi's bloom index must cope with it and re-insert k0.
    model.delete(rows.subList(0, 2), rs -> table.delete(rs.iterator()).instantTime());
    model.upsert(List.of(WideRows.row("k0", 2, PARTS[0], 4), WideRows.update(rows.get(2), 2, 5)),
        rs -> oracle.write(location, "upsert", WideRows.SCHEMA, rs, NO_METADATA));
    assertBothRead(location, table, model, "after Hudi's upsert next to Sluice's emptied file group");
    // Hudi empties the south file group; Sluice's index and reader must cope with Hudi's empty file.
    model.delete(List.of(rows.get(2)), rs -> oracle.write(location, "delete", WideRows.SCHEMA, rs, NO_METADATA));
    model.upsert(List.of(WideRows.row("k2", 3, PARTS[1], 6), WideRows.row("k1", 3, PARTS[0], 7)),
        rs -> table.upsert(rs.iterator()).instantTime());
    assertBothRead(location, table, model, "after Sluice's upsert next to Hudi's emptied file group");
  }

  @Test
  void sluiceKeepsHudisMetadataTableRemovesItWhenToldAndHudiRebuildsIt() {
    Path location = Golden.copy("cow_with_metadata_table", dir.resolve("with_mdt"));
    assertTrue(Files.isDirectory(location.resolve(".hoodie/metadata")));
    assertEquals("files", InteropChecks.hoodieProperties(location).get("hoodie.table.metadata.partitions"));
    ExpectedTable model = new ExpectedTable(r -> r.get("id").toString(), r -> "", false);
    model.seed(HudiOracle.parseRows(Golden.expectedLines("cow_with_metadata_table")));

    // hoodie.metadata.enable unset: a table that has a metadata table keeps it, mirrored at the write's instant
    Table keeping = Tables.open(location.toString(), Config.empty());
    Schema schema = keeping.schema();
    model.upsert(List.of(goldenRow(schema, "n1", 100, "one-by-sluice"), goldenRow(schema, "n7", 100, "seven")),
        rs -> keeping.upsert(rs.iterator()).instantTime());
    assertEquals("files", InteropChecks.hoodieProperties(location).get("hoodie.table.metadata.partitions"));
    try {
      assertEquals(MetadataListingOracleTest.listing(location), oracle.metadataListing(location, "hbase"),
          "Hudi's metadata table reader lists what is on disk after Sluice's write");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    model.assertHeldBy(oracle.read(location, "snapshot", Optional.empty(), true), "Hudi via the kept metadata table");

    // hoodie.metadata.enable=false: removed as a Hudi writer with the metadata table disabled leaves it
    Table table = Tables.open(location.toString(), Config.of(Map.of("hoodie.metadata.enable", "false")));
    model.upsert(List.of(goldenRow(schema, "n3", 150, "three-by-sluice")),
        rs -> table.upsert(rs.iterator()).instantTime());
    assertFalse(Files.exists(location.resolve(".hoodie/metadata")), ".hoodie/metadata is removed");
    Map<String, String> props = InteropChecks.hoodieProperties(location);
    assertEquals("", props.get("hoodie.table.metadata.partitions"), "hoodie.table.metadata.partitions");
    assertEquals("", props.get("hoodie.table.metadata.partitions.inflight"), "hoodie.table.metadata.partitions.inflight");

    OracleBatch batch = oracle.batch();
    var plain = batch.read(location, "snapshot", Optional.empty(), false);
    var viaMetadataConfig = batch.read(location, "snapshot", Optional.empty(), true);
    batch.run();
    assertBothRead(plain.get(), table, model, "after Sluice's upsert");
    model.assertHeldBy(viaMetadataConfig.get(), "Hudi with the metadata table enabled for reading");

    // A Hudi writer with the metadata table on (its default) rebuilds it from the file listing.
    model.upsert(List.of(goldenRow(schema, "n2", 200, "two-by-hudi"), goldenRow(schema, "n8", 200, "eight")),
        rs -> oracle.write(location, "upsert", schema, rs, Map.of()));
    assertTrue(Files.isDirectory(location.resolve(".hoodie/metadata/files")), "Hudi rebuilt the metadata table");
    assertEquals("files", InteropChecks.hoodieProperties(location).get("hoodie.table.metadata.partitions"));
    model.assertHeldBy(oracle.read(location, "snapshot", Optional.empty(), true), "Hudi via the rebuilt metadata table");
    model.assertHeldBy(Rows.scan(table, Optional.empty()), "Sluice after Hudi rebuilt the metadata table");
  }

  /**
   * The Parquet footer of the base file Sluice rewrote equals that of the version Hudi wrote of the same file
   * group: same Parquet schema (lists, maps, decimals, dates, timestamps), same footer keys, same Avro schema.
   */
  private static void assertSameFooterAsHudi(Path location, String partition, String hudiCommit, String sluiceCommit) {
    Path dirOfPartition = location.resolve(partition);
    List<Path> parquet;
    try (Stream<Path> files = Files.list(dirOfPartition)) {
      parquet = files.filter(p -> p.toString().endsWith(".parquet")).sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path hudiFile = parquet.stream().filter(p -> p.toString().endsWith("_" + hudiCommit + ".parquet")).findFirst()
        .orElseThrow(() -> new AssertionError("no base file of " + hudiCommit + " in " + parquet));
    String fileId = hudiFile.getFileName().toString().substring(0, hudiFile.getFileName().toString().indexOf('_'));
    Path sluiceFile = parquet.stream().filter(p -> p.getFileName().toString().startsWith(fileId + "_")
        && p.toString().endsWith("_" + sluiceCommit + ".parquet")).findFirst()
        .orElseThrow(() -> new AssertionError("no base file of " + sluiceCommit + " for " + fileId + " in " + parquet));
    ParquetFooters hudi = ParquetFooters.read(hudiFile);
    ParquetFooters sluice = ParquetFooters.read(sluiceFile);
    assertEquals(hudi.schema(), sluice.schema(), "Parquet schema: Hudi's " + hudiFile + " vs Sluice's " + sluiceFile);
    assertEquals(hudi.keyValues().keySet(), sluice.keyValues().keySet(), "footer keys");
    for (String key : List.of("hoodie_bloom_filter_type_code", "writer.model.name")) {
      assertEquals(hudi.keyValues().get(key), sluice.keyValues().get(key), "footer " + key);
    }
    assertEquals(new Schema.Parser().parse(hudi.keyValues().get("parquet.avro.schema")),
        new Schema.Parser().parse(sluice.keyValues().get("parquet.avro.schema")), "footer parquet.avro.schema");
  }

  /** A row of the golden {@code row} schema (id, ts, part, name, price, qty, active, address, tags). */
  private static GenericRecord goldenRow(Schema schema, String id, long ts, String name) {
    GenericRecord address = new GenericData.Record(schema.getField("address").schema());
    address.put("city", "Espoo");
    address.put("zip", null);
    GenericRecord r = new GenericData.Record(schema);
    r.put("id", id);
    r.put("ts", ts);
    r.put("part", "none");
    r.put("name", name);
    r.put("price", ts / 4.0);
    r.put("qty", (int) ts);
    r.put("active", false);
    r.put("address", address);
    r.put("tags", List.of("x", id));
    return r;
  }

  /** Record key to file id (the file name's part before the write token). */
  private static Map<String, String> fileIdsByKey(List<GenericRecord> rows) {
    Map<String, String> out = new HashMap<>();
    Set<String> seen = new TreeSet<>();
    for (GenericRecord r : rows) {
      String key = Rows.text(r, Rows.PARTITION) + "|" + Rows.text(r, Rows.RECORD_KEY);
      assertTrue(seen.add(key), "duplicate key " + key);
      String file = Rows.text(r, Rows.FILE_NAME);
      out.put(key, file.substring(0, file.indexOf('_')));
    }
    return out;
  }
}
