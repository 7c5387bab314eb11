package dev.sluice.interop;

import static dev.sluice.interop.MergeOnReadInteropTest.SCHEMA;
import static dev.sluice.interop.MergeOnReadInteropTest.byKey;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static dev.sluice.interop.MergeOnReadInteropTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.internal.mdt.write.RecordIndexChecks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record index of a version-9 table, both ways with Hudi 1.1.1's Java client (the 1.x oracle JVM): Hudi's
 * {@code HoodieBackedTableMetadata} finds every key of the record index Sluice built and kept (inserts, upserts, a
 * delete, a rollback, a data compaction, metadata compactions) where a snapshot says it lives and no deleted key;
 * Hudi's writer with the record index on continues that index (a key moved to another partition, a new key, no
 * duplicate), and Sluice then tags through the index Hudi extended ({@code RECORD_INDEX}, global).
 */
class Hudi1RecordIndexInteropTest {
  private static final Map<String, String> SLUICE = Map.of("hoodie.metadata.enable", "true",
      "hoodie.metadata.record.index.enable", "true", "hoodie.metadata.record.index.min.filegroup.count", "4",
      "hoodie.index.type", "RECORD_INDEX", "hoodie.metadata.compact.max.delta.commits", "3",
      "hoodie.parquet.small.file.limit", "0", "hoodie.compact.inline", "false");
  /**
   * Hudi 1.1.1's Java client has no {@code RECORD_INDEX} tagging ({@code JavaHoodieIndexFactory} knows BLOOM, SIMPLE,
   * GLOBAL_SIMPLE and INMEMORY only; Spark's writer has it): it tags globally by a simple index and keeps the record
   * index with its metadata writer, which is what continues Sluice's index here.
   */
  private static final Map<String, String> HUDI = Map.of("hoodie.metadata.enable", "true",
      "hoodie.metadata.record.index.enable", "true", "hoodie.metadata.record.index.min.filegroup.count", "4",
      "hoodie.index.type", "GLOBAL_SIMPLE", "hoodie.simple.index.update.partition.path", "true",
      "hoodie.parquet.small.file.limit", "0");
  private static final List<String> KEYS = List.of("k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10",
      "absent");

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locateHudi1();
  }

  /** Each live key to "partition/fileId" as a snapshot with meta columns says. */
  private static Map<String, String> truth(Table t) {
    return RecordIndexChecks.truth(t);
  }

  private static void assertNoDuplicates(List<GenericRecord> rows, String step) {
    Set<String> keys = new HashSet<>();
    for (GenericRecord r : rows) {
      assertTrue(keys.add(r.get("_hoodie_record_key").toString()), step + ": duplicate " + r);
    }
  }

  @Test
  void hudiReadsAndContinuesSluicesRecordIndexAndSluiceTagsThroughHudis() throws IOException {
    Path p = dir.resolve("mor_v9_ri");
    Table t = Tables.create(p.toString(), TableSpec.builder("mor_v9_ri").type(TableType.MERGE_ON_READ)
        .recordKey("id").precombine("ts").schema(SCHEMA).partitionBy("part").tableVersion(9).build(),
        Config.of(SLUICE));
    t.insert(List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p1", "b"), row("k3", 1, "p1", "c"),
        row("k4", 1, "p2", "d"), row("k5", 1, "p2", "e"), row("k6", 1, "p2", "f")).iterator());
    t.upsert(List.of(row("k1", 5, "p1", "a5"), row("k7", 2, "p1", "g")).iterator());
    t.delete(List.of(row("k3", 0, "p1", null)).iterator());
    String undone = t.upsert(List.of(row("k2", 9, "p1", "never"), row("k9", 9, "p2", "never")).iterator())
        .instantTime();
    t.rollback(undone);
    t.compaction().run(t.compaction().scheduleNow().orElseThrow());
    t.upsert(List.of(row("k6", 7, "p2", "f7"), row("k8", 3, "p3", "h")).iterator());
    t.upsert(List.of(row("k4", 8, "p1", "d8 arriving in p1")).iterator());
    assertTrue(Files.list(p.resolve(".hoodie/metadata/.hoodie/timeline")).anyMatch(f -> f.getFileName().toString()
        .matches("\\d{17}_\\d{17}\\.commit")), "the metadata table was compacted");
    Map<String, String> sluice = truth(t);
    assertEquals(7, sluice.size(), sluice.toString());
    assertTrue(sluice.get("k4").startsWith("p2/"), "global: k4 stays in p2");

    OracleBatch read = oracle.batch();
    OracleBatch.Pending<Map<String, String>> hudiIndex = read.metadataRecordIndex(p, KEYS, Optional.empty());
    read.run();
    assertEquals(sluice, hudiIndex.get(), "Hudi 1.1.1's record-index lookups of Sluice's index vs a snapshot");

    // Hudi 1.1.1 writes on top, keeping the record index: k1 arriving in p2 moves there (deleted in p1)
    OracleBatch hudiWrites = oracle.batch();
    hudiWrites.write(p, "upsert", SCHEMA, List.of(row("k1", 10, "p2", "a10"), row("k10", 1, "p2", "j")),
        new HashMap<>(HUDI));
    OracleBatch.Pending<List<GenericRecord>> afterHudi = hudiWrites.read(p, "snapshot", Optional.empty(), true);
    OracleBatch.Pending<Map<String, String>> hudiIndexAfter = hudiWrites.metadataRecordIndex(p, KEYS,
        Optional.empty());
    hudiWrites.run();
    assertNoDuplicates(afterHudi.get(), "after Hudi's write");
    List<String> mdtTimeline;
    try (Stream<Path> files = Files.list(p.resolve(".hoodie/metadata/.hoodie/timeline"))) {
      mdtTimeline = files.map(f -> f.getFileName().toString()).sorted().toList();
    }
    assertEquals(1, mdtTimeline.stream().filter(n -> n.matches("00000000000000001_\\d{17}\\.deltacommit")).count(),
        "Hudi continued the record index Sluice built, no rebuild: " + mdtTimeline);
    assertTrue(Files.readString(p.resolve(".hoodie/hoodie.properties")).matches(
        "(?s).*hoodie\\.table\\.metadata\\.partitions=[^\\n]*record_index.*"), "still listed");
    Table reopened = Tables.open(p.toString(), Config.of(SLUICE));
    Map<String, String> afterHudiTruth = truth(reopened);
    assertEquals(8, afterHudiTruth.size(), afterHudiTruth.toString());
    assertTrue(afterHudiTruth.get("k1").startsWith("p2/"), "k1 moved to p2: " + afterHudiTruth);
    assertEquals(afterHudiTruth, hudiIndexAfter.get(), "Hudi continued Sluice's record index");
    assertEquals(byKey(afterHudi.get()), byKey(rows(reopened.newScan())), "Sluice reads Hudi's write");
    assertEquals(List.of(), RecordIndexChecks.problems(reopened, KEYS), "Sluice's reader of the index Hudi extended");

    // Sluice tags through the index Hudi extended: k10 (Hudi's insert) arriving in p3 is an update in p2
    List<String> warnings = new ArrayList<>();
    Logger jul = Logger.getLogger("dev.sluice.internal.index.RecordLevelIndex");
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord r) {
        warnings.add(r.getMessage());
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    jul.addHandler(capture);
    try {
      reopened.upsert(List.of(row("k10", 2, "p3", "j2"), row("k2", 3, "p2", "b3"), row("k11", 1, "p3", "k"))
          .iterator());
    } finally {
      jul.removeHandler(capture);
    }
    assertEquals(List.of(), warnings, "tagged through the record index, no fallback to a global lookup");
    OracleBatch last = oracle.batch();
    OracleBatch.Pending<List<GenericRecord>> finalRows = last.read(p, "snapshot", Optional.empty(), true);
    OracleBatch.Pending<Map<String, String>> finalIndex = last.metadataRecordIndex(p,
        List.of("k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11", "absent"), Optional.empty());
    last.run();
    assertNoDuplicates(finalRows.get(), "after Sluice's write through Hudi's index");
    Map<String, String> finalTruth = truth(reopened);
    assertEquals(9, finalTruth.size(), finalTruth.toString());
    assertTrue(finalTruth.get("k10").startsWith("p2/"), finalTruth.toString());
    assertEquals(finalTruth, finalIndex.get(), "Hudi's lookups after Sluice's write");
    assertEquals(new TreeMap<>(byKey(finalRows.get())), new TreeMap<>(byKey(rows(reopened.newScan()))));
  }
}
