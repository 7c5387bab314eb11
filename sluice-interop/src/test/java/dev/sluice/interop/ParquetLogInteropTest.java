package dev.sluice.interop;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.interop.MergeOnReadInteropTest.byKey;
import static dev.sluice.interop.MergeOnReadInteropTest.row;
import static dev.sluice.interop.MergeOnReadInteropTest.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.Tables;
import dev.sluice.api.Config;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.fsview.LogFile;
import dev.sluice.internal.log.LogBlockType;
import dev.sluice.internal.log.LogDump;
import dev.sluice.api.MergeMode;
import dev.sluice.api.QueryType;
import dev.sluice.api.TableType;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MoR log data blocks as Parquet ({@code hoodie.logfile.data.block.format=parquet}) across Hudi 0.15.0 and Sluice. */
class ParquetLogInteropTest {
  private static final Schema SCHEMA = MergeOnReadInteropTest.SCHEMA;
  private static final String FORMAT = "hoodie.logfile.data.block.format";
  private static final Map<String, String> HUDI = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000", FORMAT, "parquet");
  /** On a table Sluice created: Sluice records Spark's key generator class, which the Java client cannot load. */
  private static final Map<String, String> HUDI_ON_SLUICE = Map.of("hoodie.metadata.enable", "false",
      "hoodie.parquet.small.file.limit", "0", "hoodie.index.bloom.num_entries", "1000", FORMAT, "parquet",
      "hoodie.datasource.write.keygenerator.class", "org.apache.hudi.keygen.SimpleAvroKeyGenerator");
  private static final Config SLUICE = Config.of(Map.of("hoodie.index.bloom.num_entries", "1000",
      "hoodie.parquet.small.file.limit", "0", "hoodie.clean.automatic", "false", FORMAT, "parquet"));

  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  @Test
  void sluiceReadsParquetLogBlocksHudiWrote() {
    Path path = dir.resolve("hudi_plog");
    // Hudi's create and writes in one oracle JVM
    OracleBatch hudi = oracle.batch();
    hudi.create(path, OracleTableSpec.builder("hudi_plog", SCHEMA).mergeOnRead().partitionBy("part")
        .payload(MergeMode.EVENT_TIME_ORDERING.payloadClass()).build(), List.of());
    hudi.write(path, "insert", SCHEMA, List.of(row("h1", 1, "p1", "a"), row("h2", 1, "p1", "b"), row("h3", 1, "p2", "c"),
        row("h4", 1, "p2", "d")), HUDI);
    OracleBatch.Pending<String> second = hudi.write(path, "upsert", SCHEMA, List.of(row("h1", 4, "p1", "a4", "t1",
        "t2"), row("h3", 0, "p2", "late"), row("h5", 4, "p2", "e")), HUDI);
    hudi.write(path, "upsert", SCHEMA, List.of(row("h1", 2, "p1", "a2"), row("h2", 7, "p1", null)), HUDI);
    hudi.run();
    String c2 = second.get();

    Table t = Tables.open(path.toString());
    assertEquals(Set.of(LogBlockType.PARQUET_DATA_BLOCK), blockTypes(t), "Hudi wrote Parquet data blocks");
    Map<String, Map<String, String>> sluice = byKey(rows(t.newScan()));
    OracleBatch reads = oracle.batch();
    OracleBatch.Pending<List<GenericRecord>> snapshot = reads.read(path, "snapshot", Optional.empty(), false);
    OracleBatch.Pending<List<GenericRecord>> timeTravel = reads.read(path, "snapshot", Optional.of(c2), false);
    reads.run();
    assertEquals(byKey(snapshot.get()), sluice);
    assertEquals("\"a4\"", sluice.get("h1").get("name"), "event-time ordering across Parquet log blocks");
    assertEquals("null", sluice.get("h2").get("name"), "the later update with a null name wins");
    assertEquals(byKey(timeTravel.get()), byKey(rows(t.newScan().asOf(c2))));
  }

  @Test
  void hudiReadsAndCompactsParquetLogBlocksSluiceWrote() {
    Path path = dir.resolve("sluice_plog");
    Table t = Tables.create(path.toString(), TableSpec.builder("sluice_plog").type(TableType.MERGE_ON_READ).recordKey("id")
        .precombine("ts").partitionBy("part").schema(SCHEMA).mergeMode(MergeMode.EVENT_TIME_ORDERING).tableVersion(6).build(), SLUICE);
    t.insert(List.of(row("k1", 1, "p1", "a"), row("k2", 1, "p1", "b"), row("k3", 1, "p1", "c"), row("k4", 1, "p2", "d"),
        row("k5", 1, "p2", "e")).iterator());
    t.upsert(List.of(row("k1", 5, "p1", "a5", "x"), row("k4", 5, "p2", "d5"), row("k5", 0, "p2", "late")).iterator());
    t.delete(List.of(row("k3", 0, "p1", null)).iterator());
    t.upsert(List.of(row("k2", 7, "p1", null), row("k1", 3, "p1", "a3")).iterator());
    assertTrue(blockTypes(t).contains(LogBlockType.PARQUET_DATA_BLOCK), "Sluice wrote Parquet data blocks");

    Map<String, Map<String, String>> sluice = byKey(rows(t.newScan()));
    assertEquals(Set.of("k1", "k2", "k4", "k5"), sluice.keySet());
    assertEquals(byKey(oracle.read(path, "snapshot", Optional.empty())), sluice, "Hudi merges Sluice's Parquet blocks");

    String instant = t.compaction().scheduleNow().orElseThrow();
    OracleBatch batch = oracle.batch();
    OracleBatch.Pending<String> ran = batch.compact(path, Optional.of(instant), HUDI_ON_SLUICE);
    batch.run();
    // the oracle prints the instant it ran and the number of files it wrote
    assertEquals(instant, ran.get().trim().split(" ")[0]);
    Table again = Tables.open(path.toString(), SLUICE);
    assertEquals(withoutFileName(sluice), withoutFileName(byKey(rows(again.newScan().queryType(QueryType.READ_OPTIMIZED)))),
        "Hudi's compaction of the Parquet blocks gives the snapshot rows");
  }

  private static Set<LogBlockType> blockTypes(Table t) {
    FileSystemView view = TableInternals.fileSystemView(t);
    Set<LogBlockType> types = new HashSet<>();
    for (String p : view.partitions()) {
      view.latestSlices(p).forEach(s -> {
        for (LogFile l : s.logFiles()) {
          LogDump.list(t.storage(), l.path()).forEach(b -> types.add(b.type()));
        }
      });
    }
    types.remove(LogBlockType.DELETE_BLOCK);
    return types;
  }

  private static Map<String, Map<String, String>> withoutFileName(Map<String, Map<String, String>> rows) {
    Map<String, Map<String, String>> out = new TreeMap<>();
    rows.forEach((k, v) -> {
      Map<String, String> copy = new LinkedHashMap<>(v);
      copy.remove("_hoodie_file_name");
      out.put(k, copy);
    });
    return out;
  }
}
