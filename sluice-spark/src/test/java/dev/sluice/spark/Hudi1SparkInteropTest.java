package dev.sluice.spark;

import static dev.sluice.spark.InteropRows.byKeyWithCommitTime;
import static dev.sluice.spark.InteropRows.completedInstants;
import static dev.sluice.spark.InteropRows.delete;
import static dev.sluice.spark.InteropRows.json;
import static dev.sluice.spark.InteropRows.options;
import static dev.sluice.spark.InteropRows.rows;
import static dev.sluice.spark.InteropRows.rowsWithCommitTime;
import static dev.sluice.spark.InteropRows.sluiceRead;
import static dev.sluice.spark.InteropRows.upsert;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.QueryType;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.interop.HudiSpark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice-on-Spark beside Hudi 1.1.1 on Spark ({@code hudi-spark3.5-bundle_2.12} 1.1.1, run by sluice-interop's
 * {@link HudiSpark} in its own JVM), on tables of version 9, Sluice-on-Spark's default. Hudi reads the Copy-on-Write
 * and Merge-on-Read tables Sluice-on-Spark wrote (a bulk insert, an insert with keys the table holds, an upsert, a
 * delete; on Merge-on-Read a compaction by {@link SluiceSpark#compact} and an update-only upsert into log files) and
 * gets exactly the rows Sluice reads, snapshot (with and without its metadata-table listing) and read-optimized;
 * Sluice-on-Spark continues the tables Hudi on Spark wrote (insert, upsert, delete; on Merge-on-Read the compaction
 * plan Hudi scheduled, run by {@link SluiceSpark#compact}) with an upsert and a delete, and
 * Hudi then reads Sluice's rows. In the reading session Hudi also runs incremental queries and time travel on
 * Sluice-on-Spark's tables (the rows, commit times included, of Sluice's own scans), then upserts into them, which
 * Sluice reads. Partitioned three ways. The oracle starts twice for the class:
 * Hudi's writes, then all of Hudi's reads.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Hudi1SparkInteropTest {
  private static final String HUDI = "1.1.1";

  // static: JUnit fills an instance field only before each test, after @BeforeAll
  @TempDir
  static Path dir;

  private static final String BEGIN = "hoodie.datasource.read.begin.instanttime";

  private SparkSession spark;
  /** What Sluice's scans read for Hudi's incremental and time-travel queries, in order; what Hudi returned. */
  private final List<Map<String, String>> historySluice = new ArrayList<>();
  private final List<Map<String, String>> historyRead = new ArrayList<>();
  /** What each table must hold after its writes, by table name: key to part/ts/payload. */
  private final Map<String, Map<String, String>> expected = new HashMap<>();
  /** What Sluice's scan read just before Hudi read, by table name and query type. */
  private final Map<String, Map<String, String>> sluiceRead = new HashMap<>();
  /** What Hudi's Spark datasource read, by table name and query type. */
  private final Map<String, Map<String, String>> hudiRead = new HashMap<>();

  @BeforeAll
  void writeAndRead() {
    spark = LocalSpark.builder("sluice-hudi1-spark-interop-test").getOrCreate();
    HudiSpark hudi = HudiSpark.locate(HUDI);

    // Hudi 1.1.1 on Spark writes two version-9 tables (one oracle JVM): an insert, an upsert, a delete
    List<List<String>> hudiWrites = new ArrayList<>();
    for (TableType type : TableType.values()) {
      String name = "hudi-" + type.name();
      Map<String, String> model = new TreeMap<>();
      Path table = dir.resolve(name);
      hudiWrites.add(hudi.writeCommand(table, "insert", json(upsert(model, rows(0, 90, 1, "h1"))), InteropRows.DDL,
          options(type), dir));
      hudiWrites.add(hudi.writeCommand(table, "upsert", json(upsert(model, rows(60, 50, 2, "h2"))), InteropRows.DDL,
          options(type), dir));
      // on Merge-on-Read the delete also schedules a compaction: Hudi 1.1.1's plan, for Sluice-on-Spark to run
      Map<String, String> deleteOptions = new HashMap<>(options(type));
      if (type == TableType.MERGE_ON_READ) {
        deleteOptions.putAll(Map.of("hoodie.compact.inline", "false", "hoodie.compact.schedule.inline", "true",
            "hoodie.compact.inline.max.delta.commits", "1"));
      }
      hudiWrites.add(hudi.writeCommand(table, "delete", json(delete(model, rows(10, 12, 3, "gone"))),
          InteropRows.DDL, deleteOptions, dir));
      expected.put(name, model);
    }
    hudi.batch(hudiWrites, dir);

    // Sluice-on-Spark continues them: an upsert (updates in base and log files, deleted keys written again, new
    // keys), then a delete (with a key the table never had)
    for (TableType type : TableType.values()) {
      String name = "hudi-" + type.name();
      Path table = dir.resolve(name);
      Map<String, String> model = expected.get(name);
      assertEquals("9", Tables.open(table.toString()).tableVersion() + "", name + ": Hudi " + HUDI + " writes 9");
      assertEquals(model, sluiceRead(table, QueryType.SNAPSHOT), name + ": Sluice reads what Hudi wrote");
      if (type == TableType.MERGE_ON_READ) {
        List<String> pending = Tables.open(table.toString()).compaction().pending();
        assertEquals(1, pending.size(), "Hudi " + HUDI + " scheduled a compaction: " + pending);
        assertEquals(pending.get(0), SluiceSpark.compact(spark, table.toString(), options(type)).compaction()
            .orElseThrow().instantTime(), "Sluice-on-Spark runs Hudi's plan");
        assertEquals(model, sluiceRead(table, QueryType.SNAPSHOT), name + ": the same rows after the compaction");
      }
      SluiceSpark.upsert(df(upsert(model, rows(5, 120, 4, "s"))), table.toString(), options(type));
      List<Row> gone = delete(model, rows(40, 15, 5, "gone"));
      gone.add(RowFactory.create("k999999", "p0", 5L, "never written"));
      SluiceSpark.delete(df(gone), table.toString(), options(type));
    }

    // Sluice-on-Spark writes two tables at its default version (9): bulk insert, insert, upsert, delete; on
    // Merge-on-Read a compaction on Spark, then an update-only upsert (log files, so snapshot and read-optimized
    // differ)
    for (TableType type : TableType.values()) {
      String name = "sluice-" + type.name();
      String path = dir.resolve(name).toString();
      Map<String, String> model = new TreeMap<>();
      SluiceSpark.bulkInsert(df(upsert(model, rows(0, 120, 1, "b"))).repartition(3), path, options(type));
      SluiceSpark.insert(df(upsert(model, rows(100, 40, 2, "i"))), path, options(type));
      SluiceSpark.upsert(df(upsert(model, rows(50, 40, 3, "u"))), path, options(type));
      List<Row> gone = delete(model, rows(10, 12, 4, "gone"));
      gone.add(RowFactory.create("k999999", "p0", 4L, "never written"));
      SluiceSpark.delete(df(gone), path, options(type));
      if (type == TableType.MERGE_ON_READ) {
        Map<String, String> force = new HashMap<>(options(type));
        force.put("sluice.spark.compact.force", "true");
        assertTrue(SluiceSpark.compact(spark, path, force).compaction().isPresent(), "a compaction ran");
        SluiceSpark.upsert(df(upsert(model, rows(30, 15, 5, "after"))), path, options(type));
      }
      assertEquals(9, Tables.open(path).tableVersion(), name);
      expected.put(name, model);
    }

    // Hudi 1.1.1 on Spark reads all four (one oracle JVM): snapshot with its default listing and through the
    // metadata table, and read-optimized on Merge-on-Read
    List<HudiSpark.Read> reads = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (String side : List.of("hudi-", "sluice-")) {
      for (TableType type : TableType.values()) {
        Path table = dir.resolve(side + type.name());
        String label = side + type.name();
        sluiceRead.put(label + "/snapshot", sluiceRead(table, QueryType.SNAPSHOT));
        reads.add(new HudiSpark.Read(table, "snapshot", Map.of("hoodie.metadata.enable", "false")));
        labels.add(label + "/snapshot");
        reads.add(new HudiSpark.Read(table, "snapshot", Map.of("hoodie.metadata.enable", "true")));
        labels.add(label + "/snapshot+metadata");
        if (type == TableType.MERGE_ON_READ) {
          sluiceRead.put(label + "/read_optimized", sluiceRead(table, QueryType.READ_OPTIMIZED));
          reads.add(new HudiSpark.Read(table, "read_optimized", Map.of()));
          labels.add(label + "/read_optimized");
        }
      }
    }
    // then, in the same session, incremental queries from each completed write of Sluice-on-Spark's tables and
    // time travel to each (the commit metadata and completion times the distributed writes left), and last an
    // upsert by Hudi into each of them
    List<HudiSpark.Read> history = new ArrayList<>();
    for (TableType type : TableType.values()) {
      Path table = dir.resolve("sluice-" + type.name());
      List<String[]> instants = completedInstants(table);
      assertTrue(instants.size() >= 4, "the writes' instants: " + instants.size());
      // from the start, after the bulk insert, and the last instant alone (on Merge-on-Read an upsert into logs);
      // time travel to the second write and to the one before the last (on Merge-on-Read the compaction)
      int last = instants.size() - 1;
      for (String begin : List.of("00000000000000000", instants.get(0)[1], instants.get(last - 1)[1])) {
        history.add(new HudiSpark.Read(table, "incremental", Map.of(BEGIN, begin)));
        historySluice.add(rowsWithCommitTime(Tables.open(table.toString()).newScan().incremental(begin)));
      }
      for (String[] instant : List.of(instants.get(1), instants.get(last - 1))) {
        history.add(new HudiSpark.Read(table, "snapshot", Map.of("as.of.instant", instant[0])));
        historySluice.add(rowsWithCommitTime(Tables.open(table.toString()).newScan().asOf(instant[0])));
      }
    }
    List<List<String>> commands = new ArrayList<>();
    reads.forEach(r -> commands.add(r.args()));
    history.forEach(r -> commands.add(r.args()));
    for (TableType type : TableType.values()) {
      String name = "sluice-" + type.name();
      Map<String, String> model = new TreeMap<>(expected.get(name));
      commands.add(hudi.writeCommand(dir.resolve(name), "upsert", json(upsert(model, rows(20, 150, 6, "h"))),
          InteropRows.DDL, options(type), dir));
      expected.put(name + "/after-hudi", model);
    }
    List<List<Map<String, Object>>> answers = hudi.batch(commands, dir);
    for (int i = 0; i < labels.size(); i++) {
      hudiRead.put(labels.get(i), InteropRows.byKey(answers.get(i)));
    }
    for (int i = 0; i < history.size(); i++) {
      historyRead.add(byKeyWithCommitTime(answers.get(labels.size() + i)));
    }
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  @Test
  void hudiReadsTheCopyOnWriteTableSluiceOnSparkWrote() {
    String name = "sluice-" + TableType.COPY_ON_WRITE.name();
    Map<String, String> snapshot = sluiceRead.get(name + "/snapshot");
    assertEquals(expected.get(name), snapshot);
    assertEquals(140 - 12, snapshot.size());
    assertEquals(snapshot, hudiRead.get(name + "/snapshot"), "Hudi " + HUDI + " on Spark reads what Sluice reads");
    assertEquals(snapshot, hudiRead.get(name + "/snapshot+metadata"), "the same through the metadata table");
  }

  @Test
  void hudiReadsTheMergeOnReadTableSluiceOnSparkWroteAndCompacted() {
    String name = "sluice-" + TableType.MERGE_ON_READ.name();
    Map<String, String> snapshot = sluiceRead.get(name + "/snapshot");
    assertEquals(expected.get(name), snapshot);
    assertEquals(snapshot, hudiRead.get(name + "/snapshot"), "snapshot: Hudi " + HUDI + " reads what Sluice reads");
    assertEquals(snapshot, hudiRead.get(name + "/snapshot+metadata"), "the same through the metadata table");
    Map<String, String> readOptimized = sluiceRead.get(name + "/read_optimized");
    assertNotEquals(snapshot, readOptimized, "the last upsert is in log files only");
    assertEquals("p0/3/u:51", readOptimized.get("k000051"), "the compacted base file has the upsert");
    assertEquals("p0/5/after:30", snapshot.get("k000030"));
    assertEquals(readOptimized, hudiRead.get(name + "/read_optimized"),
        "read-optimized: Hudi " + HUDI + " reads what Sluice reads");
  }

  @Test
  void sluiceOnSparkContinuesTheCopyOnWriteTableHudiWrote() {
    String name = "hudi-" + TableType.COPY_ON_WRITE.name();
    Map<String, String> snapshot = sluiceRead.get(name + "/snapshot");
    assertEquals(expected.get(name), snapshot);
    assertEquals(125 - 15, snapshot.size());
    assertEquals(snapshot, hudiRead.get(name + "/snapshot"), "Hudi " + HUDI + " reads what Sluice reads");
    assertEquals(snapshot, hudiRead.get(name + "/snapshot+metadata"), "the same through the metadata table");
  }

  @Test
  void sluiceOnSparkContinuesTheMergeOnReadTableHudiWrote() {
    String name = "hudi-" + TableType.MERGE_ON_READ.name();
    Map<String, String> snapshot = sluiceRead.get(name + "/snapshot");
    assertEquals(expected.get(name), snapshot);
    assertEquals(snapshot, hudiRead.get(name + "/snapshot"), "snapshot: Hudi " + HUDI + " reads what Sluice reads");
    assertEquals(snapshot, hudiRead.get(name + "/snapshot+metadata"), "the same through the metadata table");
    assertEquals(sluiceRead.get(name + "/read_optimized"), hudiRead.get(name + "/read_optimized"),
        "read-optimized: Hudi " + HUDI + " reads what Sluice reads");
  }

  @Test
  void hudiIncrementalAndTimeTravelQueriesOnSluiceOnSparkTablesReturnSluicesRows() {
    InteropRows.assertSameHistory(historySluice, historyRead);
  }

  @Test
  void hudiContinuesTheTablesSluiceOnSparkWrote() {
    for (TableType type : TableType.values()) {
      String name = "sluice-" + type.name();
      Map<String, String> after = sluiceRead(dir.resolve(name), QueryType.SNAPSHOT);
      assertEquals(expected.get(name + "/after-hudi"), after, name + ": Sluice reads Hudi " + HUDI + "'s upsert");
      assertEquals(9, Tables.open(dir.resolve(name).toString()).tableVersion(), name + " stays at version 9");
    }
  }

  private Dataset<Row> df(List<Row> rows) {
    return spark.createDataFrame(rows, InteropRows.SCHEMA);
  }
}
