package dev.sluice.interop;

import static dev.sluice.interop.MergeOnReadInteropTest.SCHEMA;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Config;
import dev.sluice.api.MergeMode;
import dev.sluice.api.MetadataFileInfo;
import dev.sluice.api.MetadataTableView;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.storage.FailingStorage;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables Hudi 0.15's Java client wrote with its metadata table (on by default): inserts, upserts, deletes, a
 * Merge-on-Read compaction, cleans and a rolled-back failed write. Sluice's reader of the metadata table lists what
 * Hudi's own {@code HoodieBackedTableMetadata} lists (HBase's HFile reader, Hudi 0.15's default) and what storage
 * holds (and, on one table, what Hudi lists with its native HFile reader); Sluice's queries return the same rows
 * through it as from a storage listing, and list no data partition.
 */
class MetadataTableInteropTest {
  /** The metadata table on (Hudi's default), one commit retained so that cleans run, updates to log files. */
  private static final Map<String, String> HUDI = Map.of("hoodie.parquet.small.file.limit", "0",
      "hoodie.index.bloom.num_entries", "1000", "hoodie.cleaner.commits.retained", "1",
      "hoodie.keep.min.commits", "20", "hoodie.keep.max.commits", "30");
  private static final Map<String, String> DELETES = with(HUDI, "hoodie.datasource.write.payload.class",
      "org.apache.hudi.common.model.EmptyHoodieRecordPayload");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  private static Map<String, String> with(Map<String, String> m, String k, String v) {
    Map<String, String> out = new HashMap<>(m);
    out.put(k, v);
    return Map.copyOf(out);
  }

  @Test
  void mergeOnReadWithUpsertsDeletesCompactionAndCleans() {
    Path path = dir.resolve("mor");
    oracle.create(path, OracleTableSpec.builder("mdt_mor", SCHEMA).mergeOnRead().partitionBy("part")
        .payload(MergeMode.EVENT_TIME_ORDERING.payloadClass()).build());
    OracleBatch batch = oracle.batch();
    batch.write(path, "insert", SCHEMA, List.of(row("a", 1, "p1", "a"), row("b", 1, "p1", "b"), row("c", 1, "p2", "c"),
        row("d", 1, "p3", "d")), HUDI);
    batch.write(path, "upsert", SCHEMA, List.of(row("a", 2, "p1", "a2"), row("c", 2, "p2", "c2"), row("e", 2, "p2", "e")),
        HUDI);
    batch.write(path, "upsert", SCHEMA, List.of(row("b", 3, "p1", null)), DELETES);
    batch.write(path, "compact", SCHEMA, List.of(), with(HUDI, "hoodie.compact.inline.max.delta.commits", "1"));
    batch.write(path, "upsert", SCHEMA, List.of(row("a", 4, "p1", "a4"), row("d", 4, "p3", "d4")), HUDI);
    batch.write(path, "upsert", SCHEMA, List.of(row("f", 5, "p4", "f")), HUDI);
    batch.run();
    assertTrue(hasCompletedAction(path, "clean"), "a clean ran");
    checkAgainstHudiAndStorage(path, 4, true);
  }

  @Test
  void copyOnWriteWithARolledBackFailedWrite() throws IOException {
    Path path = dir.resolve("cow");
    oracle.create(path, OracleTableSpec.builder("mdt_cow", SCHEMA).partitionBy("part")
        .payload(MergeMode.EVENT_TIME_ORDERING.payloadClass()).build());
    OracleBatch first = oracle.batch();
    first.write(path, "insert", SCHEMA, List.of(row("a", 1, "p1", "a"), row("b", 1, "p1", "b"), row("c", 1, "p2", "c")),
        HUDI);
    OracleBatch.Pending<String> failed = first.write(path, "upsert", SCHEMA, List.of(row("a", 2, "p1", "lost"),
        row("x", 2, "p3", "lost")), HUDI);
    first.run();
    // The write "crashes" after its metadata deltacommit completed and before its own commit did: the commit file goes,
    // and the markers a running write has are put back (Hudi deletes them after committing) so that Hudi's next
    // write rolls it back from them, and rolls back its metadata deltacommit too.
    String instant = failed.get();
    Files.delete(path.resolve(".hoodie/" + instant + ".commit"));
    try (Stream<Path> s = Files.walk(path)) {
      for (Path f : s.filter(p -> p.getFileName().toString().endsWith("_" + instant + ".parquet")).toList()) {
        Path rel = path.relativize(f.getParent());
        Path marker = path.resolve(".hoodie/.temp/" + instant).resolve(rel).resolve(f.getFileName() + ".marker.MERGE");
        Files.createDirectories(marker.getParent());
        Files.write(marker, new byte[0]);
      }
    }
    Table pending = Tables.open(path.toString());
    assertTrue(pending.metadataTable().usedForListings(), pending.metadataTable().status());
    assertFalse(rows(pending, true).get("a").get("name").toString().equals("lost"),
        "the failed write's metadata block is not trusted while its commit is pending");
    assertEquals(rows(pending, false), rows(pending, true));

    OracleBatch second = oracle.batch();
    second.write(path, "upsert", SCHEMA, List.of(row("b", 3, "p1", "b3"), row("d", 3, "p2", "d")), HUDI);
    second.run();
    assertTrue(hasCompletedAction(path, "rollback"), "Hudi rolled the failed write back");
    assertTrue(hasCompletedAction(path.resolve(".hoodie/metadata"), "rollback"), "and its metadata deltacommit");
    assertFalse(Files.exists(path.resolve(".hoodie/metadata/.hoodie/" + instant + ".deltacommit")));
    Map<String, GenericRecord> rows = checkAgainstHudiAndStorage(path, 2, false);
    assertEquals("a", rows.get("a").get("name").toString());
    assertFalse(rows.containsKey("x"));
  }

  /** The listings and rows through the metadata table against Hudi's listing, storage's and a storage-listed query. */
  private Map<String, GenericRecord> checkAgainstHudiAndStorage(Path path, int dataPartitions, boolean nativeReader) {
    Table t = Tables.open(path.toString());
    MetadataTableView m = t.metadataTable();
    assertTrue(m.usedForListings(), m.status());
    Map<String, Map<String, Long>> sluice = new TreeMap<>();
    for (Map.Entry<String, List<MetadataFileInfo>> e : m.files().entrySet()) {
      Map<String, Long> files = new TreeMap<>();
      e.getValue().forEach(f -> files.put(f.name(), f.size()));
      sluice.put(e.getKey(), files);
    }
    assertEquals(dataPartitions, sluice.size(), sluice.toString());
    // both readers in one oracle JVM
    OracleBatch batch = oracle.batch();
    OracleBatch.Pending<Map<String, Map<String, Long>>> hbase = batch.metadataListing(path, "hbase");
    Optional<OracleBatch.Pending<Map<String, Map<String, Long>>>> byNative = nativeReader
        ? Optional.of(batch.metadataListing(path, "native")) : Optional.empty();
    batch.run();
    assertEquals(hbase.get(), sluice, "Hudi's HoodieBackedTableMetadata lists the same");
    if (byNative.isPresent()) {
      assertEquals(byNative.get().get(), sluice, "and with Hudi's native HFile reader");
    }
    assertEquals(List.of(), m.validate().differences(), "the metadata table lists what storage holds");

    FailingStorage counting = new FailingStorage(new LocalStorage());
    Table viaMetadata = Tables.open(counting.storage(), path.toString(), Config.empty());
    Map<String, GenericRecord> rows = rows(viaMetadata, true);
    assertEquals(Map.of(".hoodie", 1, ".hoodie/metadata/.hoodie", 1, ".hoodie/metadata/files", 1),
        listings(counting, path), "the timelines and the metadata table's files partition, no data partition");
    assertEquals(rows(viaMetadata, false), rows, "the same rows from a storage listing");
    Map<String, Integer> expected = new TreeMap<>(Map.of(".hoodie", 1, "", 1));
    // every partition folder on storage (the rolled-back write's empty p3 too)
    try (Stream<Path> s = Files.walk(path)) {
      s.filter(f -> f.getFileName().toString().equals(".hoodie_partition_metadata") && !f.startsWith(path.resolve(".hoodie")))
          .forEach(f -> expected.put(path.relativize(f.getParent()).toString(), 1));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertEquals(expected, listings(counting, path), "without the metadata table: the base path and every partition");
    return rows;
  }

  /** Listings by folder relative to the table ({@code ""} for the base path); forgets them. */
  private static Map<String, Integer> listings(FailingStorage counting, Path table) {
    Map<String, Integer> out = new TreeMap<>();
    for (String listed : counting.listed()) {
      out.merge(listed.equals(table.toString()) ? "" : table.relativize(Path.of(listed)).toString(), 1, Integer::sum);
    }
    counting.forgetListed();
    return out;
  }

  private static Map<String, GenericRecord> rows(Table t, boolean metadata) {
    Table table = metadata ? t : Tables.open(t.storage(), t.location(), Config.of(Map.of("hoodie.metadata.enable", "false")));
    Map<String, GenericRecord> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = table.newScan().open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        out.put(r.get("id").toString(), r);
      }
    }
    return out;
  }

  private static boolean hasCompletedAction(Path table, String action) {
    try (Stream<Path> s = Files.list(table.resolve(".hoodie"))) {
      return s.anyMatch(p -> p.getFileName().toString().endsWith("." + action));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
