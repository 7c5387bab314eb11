package dev.sluice.spark;

import static dev.sluice.spark.InteropRows.DDL;
import static dev.sluice.spark.InteropRows.SCHEMA;
import static dev.sluice.spark.InteropRows.byKey;
import static dev.sluice.spark.InteropRows.json;
import static dev.sluice.spark.InteropRows.options;
import static dev.sluice.spark.InteropRows.rows;
import static dev.sluice.spark.InteropRows.sluiceRead;
import static dev.sluice.spark.InteropRows.upsert;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.QueryType;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.interop.HudiSpark;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice-on-Spark beside Hudi 0.15.0 on Spark (its {@code hudi-spark3.5-bundle}, run by sluice-interop's
 * {@link HudiSpark} in its own JVM): Hudi's Spark datasource reads the Copy-on-Write and Merge-on-Read tables
 * Sluice-on-Spark wrote (inserts, upserts, deletes, a {@code format("sluice")} write; on Merge-on-Read log files and a
 * compaction by {@link SluiceSpark#compact}) and gets exactly the rows Sluice reads, snapshot and read-optimized; and
 * Sluice-on-Spark continues tables Hudi on Spark wrote (inserts, upserts, deletes; on Merge-on-Read a compaction
 * plan Hudi scheduled, which {@link SluiceSpark#compact} runs) with an upsert, after which both read the same rows
 * (Hudi's snapshot also with its file listing from the metadata table). Every table is partitioned three ways.
 * Sluice's Spark runs {@code local[2]} in this JVM; the oracle starts twice for the class: once for Hudi's writes,
 * once for all of Hudi's reads after Sluice's writes. Each side's rows are also checked against the rows the test's
 * own model of the writes expects. Two more tables (both types) start with Sluice-on-Spark's bulk inserts
 * ({@link SluiceSpark#bulkInsert}, then {@code operation=bulk_insert} through {@code format("sluice")}): Hudi reads
 * them in its writing session, upserts into them there, and Sluice-on-Spark upserts after it. In the reading
 * session Hudi also runs incremental queries and time travel on Sluice-on-Spark's two tables (the rows, commit
 * times included, of Sluice's own incremental and time-travel scans), and reads a Merge-on-Read table Spark SQL made
 * through Sluice ({@code CREATE TABLE ... USING sluice}, {@code INSERT INTO}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HudiSparkInteropTest {
  // static: JUnit fills an instance field only before each test, after @BeforeAll
  @TempDir
  static Path dir;

  private SparkSession spark;
  /** What each table must hold after its writes, by table name: key to part/ts/payload. */
  private final Map<String, Map<String, String>> expected = new HashMap<>();
  /** What Hudi's Spark datasource read, by table name and query type. */
  private final Map<String, Map<String, String>> hudiRead = new HashMap<>();
  /** What Sluice and Hudi read of the bulk-inserted tables before Hudi's upsert, by table name and query type. */
  private final Map<String, Map<String, String>> bulkSluiceRead = new HashMap<>();
  private final Map<String, Map<String, String>> bulkHudiRead = new HashMap<>();
  /** What Sluice's scans read for Hudi's incremental and time-travel queries, in order; what Hudi returned. */
  private final List<Map<String, String>> historySluice = new ArrayList<>();
  private final List<Map<String, String>> historyRead = new ArrayList<>();
  private static final String BEGIN = "hoodie.datasource.read.begin.instanttime";

  @BeforeAll
  void writeAndRead() {
    spark = LocalSpark.builder("sluice-hudi-spark-interop-test").getOrCreate();
    HudiSpark hudi = HudiSpark.locate("0.15.0");

    // Sluice-on-Spark bulk-inserts two tables at version 6: SluiceSpark.bulkInsert, then a bulk_insert of new keys
    // through format("sluice") (new file groups only, beside the first load's)
    for (TableType type : TableType.values()) {
      String name = "bulk-" + type.name();
      String path = dir.resolve(name).toString();
      Map<String, String> options = new HashMap<>(options(type));
      options.put("hoodie.write.table.version", "6");
      Map<String, String> model = new TreeMap<>();
      SluiceSpark.bulkInsert(df(upsert(model, rows(0, 120, 1, "b"))).repartition(3), path, options);
      options.put("hoodie.datasource.write.operation", "bulk_insert");
      df(upsert(model, rows(120, 30, 1, "b2"))).write().format("sluice").options(options).mode(SaveMode.Append)
          .save(path);
      expected.put(name + "/bulk", new TreeMap<>(model));
      bulkSluiceRead.put(name + "/snapshot", sluiceRead(dir.resolve(name), QueryType.SNAPSHOT));
      bulkSluiceRead.put(name + "/read_optimized", sluiceRead(dir.resolve(name), QueryType.READ_OPTIMIZED));
      expected.put(name, model);
    }

    // Hudi on Spark writes two tables (one oracle JVM): an insert, an upsert (updates and new keys), a delete
    List<List<String>> hudiWrites = new ArrayList<>();
    for (TableType type : TableType.values()) {
      String name = "hudi-" + type.name();
      Path table = dir.resolve(name);
      Map<String, String> options = options(type);
      Map<String, String> model = new TreeMap<>();
      hudiWrites.add(hudi.writeCommand(table, "insert", json(upsert(model, rows(0, 90, 1, "h1"))), DDL, options, dir));
      hudiWrites.add(hudi.writeCommand(table, "upsert", json(upsert(model, rows(60, 50, 2, "h2"))), DDL, options,
          dir));
      // on Merge-on-Read the delete (in log files; the upsert's new keys made Hudi rewrite the small base files)
      // also schedules a compaction: Hudi's plan, left pending for Sluice-on-Spark to run
      Map<String, String> delete = new HashMap<>(options);
      if (type == TableType.MERGE_ON_READ) {
        delete.putAll(Map.of("hoodie.compact.inline", "false", "hoodie.compact.schedule.inline", "true",
            "hoodie.compact.inline.max.delta.commits", "1"));
      }
      List<Row> gone = rows(10, 12, 3, "gone");
      gone.forEach(r -> model.remove(r.getString(0)));
      hudiWrites.add(hudi.writeCommand(table, "delete", json(gone), DDL, delete, dir));
      expected.put(name, model);
    }
    // in the same oracle JVM: Hudi reads the bulk-inserted tables, then upserts into them (updates, new keys)
    Map<String, Integer> bulkAnswers = new HashMap<>();
    for (TableType type : TableType.values()) {
      String name = "bulk-" + type.name();
      Path table = dir.resolve(name);
      List<HudiSpark.Read> bulkReads = List.of(new HudiSpark.Read(table, "snapshot", Map.of()),
          new HudiSpark.Read(table, "snapshot", Map.of("hoodie.metadata.enable", "true")),
          new HudiSpark.Read(table, "read_optimized", Map.of()));
      List<String> labels = List.of("/snapshot", "/snapshot+metadata", "/read_optimized");
      for (int i = 0; i < bulkReads.size(); i++) {
        bulkAnswers.put(name + labels.get(i), hudiWrites.size());
        hudiWrites.add(bulkReads.get(i).args());
      }
      hudiWrites.add(hudi.writeCommand(table, "upsert", json(upsert(expected.get(name), rows(100, 80, 2, "h"))), DDL,
          options(type), dir));
    }
    List<List<Map<String, Object>>> written = hudi.batch(hudiWrites, dir);
    bulkAnswers.forEach((label, i) -> bulkHudiRead.put(label, byKey(written.get(i))));

    // Sluice-on-Spark upserts after Hudi into the bulk-inserted tables: updates of both writers' rows, new keys
    for (TableType type : TableType.values()) {
      String name = "bulk-" + type.name();
      Map<String, String> model = expected.get(name);
      assertEquals(model, sluiceRead(dir.resolve(name), QueryType.SNAPSHOT), name + ": Sluice reads Hudi's upsert");
      List<Row> rows = rows(0, 20, 3, "s");
      rows.addAll(rows(160, 40, 3, "s"));
      SluiceSpark.upsert(df(upsert(model, rows)), dir.resolve(name).toString(), options(type));
    }

    // Sluice-on-Spark continues them with an upsert: updates of Hudi's rows (in base and, on MoR, log files),
    // keys Hudi deleted written again, and new keys
    for (TableType type : TableType.values()) {
      String name = "hudi-" + type.name();
      Map<String, String> model = expected.get(name);
      assertEquals(model, sluiceRead(dir.resolve(name), QueryType.SNAPSHOT), name + ": Sluice reads what Hudi wrote");
      if (type == TableType.MERGE_ON_READ) {
        List<String> pending = Tables.open(dir.resolve(name).toString()).compaction().pending();
        assertEquals(1, pending.size(), "Hudi scheduled a compaction: " + pending);
        assertEquals(pending.get(0), SluiceSpark.compact(spark, dir.resolve(name).toString(), options(type))
            .compaction().orElseThrow().instantTime(), "Sluice-on-Spark runs Hudi's plan");
        assertEquals(model, sluiceRead(dir.resolve(name), QueryType.SNAPSHOT), name + ": the same rows after the compaction");
      }
      SluiceSpark.upsert(df(upsert(model, rows(5, 120, 4, "s"))), dir.resolve(name).toString(), options(type));
    }

    // Sluice-on-Spark writes two tables: insert, upsert, delete, an upsert through format("sluice"); on MoR a
    // compaction on Spark, then an update-only upsert (log files: the snapshot and read-optimized views differ; a
    // batch with inserts would rewrite the compacted small slices' base files instead, as Hudi's planner does too)
    for (TableType type : TableType.values()) {
      String name = "sluice-" + type.name();
      String path = dir.resolve(name).toString();
      Map<String, String> options = new HashMap<>(options(type));
      // created at version 6: Hudi 0.15 on Spark, which reads these tables, reads only version 6
      options.put("hoodie.write.table.version", "6");
      Map<String, String> model = new TreeMap<>();
      SluiceSpark.insert(df(upsert(model, rows(0, 90, 1, "i"))), path, options);
      SluiceSpark.upsert(df(upsert(model, rows(60, 50, 2, "u"))), path, options);
      List<Row> gone = rows(10, 12, 3, "gone");
      gone.add(RowFactory.create("k999999", "p0", 3L, "never written"));
      gone.forEach(r -> model.remove(r.getString(0)));
      SluiceSpark.delete(df(gone), path, options);
      Map<String, String> viaFormat = new HashMap<>(options);
      viaFormat.put("hoodie.datasource.write.operation", "upsert");
      df(upsert(model, rows(30, 20, 4, "f"))).write().format("sluice").options(viaFormat).mode(SaveMode.Append)
          .save(path);
      if (type == TableType.MERGE_ON_READ) {
        Map<String, String> force = new HashMap<>(options);
        force.put("sluice.spark.compact.force", "true");
        assertTrue(SluiceSpark.compact(spark, path, force).compaction().isPresent(), "a compaction ran");
        SluiceSpark.upsert(df(upsert(model, rows(30, 15, 5, "after"))), path, options);
      }
      expected.put(name, model);
    }

    // a Merge-on-Read table at version 6 created and written by Spark SQL: CREATE TABLE ... USING sluice, then
    // INSERT INTO ... VALUES / SELECT (Hudi's default insert operation) and an INSERT INTO as an upsert
    String sqlPath = dir.resolve("sql-v6").toString();
    SparkSqlWriteTest.create(spark, "sql_v6", TableType.MERGE_ON_READ, sqlPath, ", 'hoodie.write.table.version' '6'");
    try {
      expected.put("sql-v6", SparkSqlWriteTest.insertInto(spark, "sql_v6"));
    } finally {
      spark.sql("DROP TABLE sql_v6");
    }

    // Hudi on Spark reads all four (one oracle JVM): snapshot, and read-optimized for Merge-on-Read
    List<HudiSpark.Read> reads = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    reads.add(new HudiSpark.Read(Path.of(sqlPath), "snapshot", Map.of()));
    labels.add("sql-v6/snapshot");
    for (String side : List.of("hudi-", "sluice-", "bulk-")) {
      for (TableType type : TableType.values()) {
        reads.add(new HudiSpark.Read(dir.resolve(side + type.name()), "snapshot", Map.of()));
        labels.add(side + type.name() + "/snapshot");
        // the same with Hudi listing the files through the table's metadata table (Sluice's, on Sluice's tables)
        reads.add(new HudiSpark.Read(dir.resolve(side + type.name()), "snapshot",
            Map.of("hoodie.metadata.enable", "true")));
        labels.add(side + type.name() + "/snapshot+metadata");
        if (type == TableType.MERGE_ON_READ) {
          reads.add(new HudiSpark.Read(dir.resolve(side + type.name()), "read_optimized", Map.of()));
          labels.add(side + type.name() + "/read_optimized");
        }
      }
    }
    // in the same session, Hudi's incremental queries (from the start, after the first write, the last instant
    // alone) and time travel (to the second write and the one before the last) on Sluice-on-Spark's tables
    List<HudiSpark.Read> history = new ArrayList<>();
    for (TableType type : TableType.values()) {
      Path table = dir.resolve("sluice-" + type.name());
      List<String[]> instants = InteropRows.completedInstants(table);
      assertTrue(instants.size() >= 4, "the writes' instants: " + instants.size());
      int last = instants.size() - 1;
      for (String begin : List.of("00000000000000000", instants.get(0)[0], instants.get(last - 1)[0])) {
        history.add(new HudiSpark.Read(table, "incremental", Map.of(BEGIN, begin)));
        historySluice.add(InteropRows.rowsWithCommitTime(Tables.open(table.toString()).newScan().incremental(begin)));
      }
      for (String[] instant : List.of(instants.get(1), instants.get(last - 1))) {
        history.add(new HudiSpark.Read(table, "snapshot", Map.of("as.of.instant", instant[0])));
        historySluice.add(InteropRows.rowsWithCommitTime(Tables.open(table.toString()).newScan().asOf(instant[0])));
      }
    }
    List<HudiSpark.Read> all = new ArrayList<>(reads);
    all.addAll(history);
    List<List<Map<String, Object>>> answers = hudi.read(all, dir);
    for (int i = 0; i < labels.size(); i++) {
      hudiRead.put(labels.get(i), byKey(answers.get(i)));
    }
    for (int i = 0; i < history.size(); i++) {
      historyRead.add(InteropRows.byKeyWithCommitTime(answers.get(labels.size() + i)));
    }
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  @Test
  void hudiReadsTheCopyOnWriteTableSluiceOnSparkWrote() {
    String name = "sluice-" + TableType.COPY_ON_WRITE.name();
    Map<String, String> sluice = sluiceRead(dir.resolve(name), QueryType.SNAPSHOT);
    assertEquals(expected.get(name), sluice);
    assertEquals(90 - 12 + 20, sluice.size());
    assertEquals(sluice, hudiRead.get(name + "/snapshot"), "Hudi 0.15 on Spark reads what Sluice reads");
    assertEquals(sluice, hudiRead.get(name + "/snapshot+metadata"), "the same through the metadata table");
  }

  @Test
  void hudiReadsTheMergeOnReadTableSluiceOnSparkWroteAndCompacted() {
    String name = "sluice-" + TableType.MERGE_ON_READ.name();
    Map<String, String> snapshot = sluiceRead(dir.resolve(name), QueryType.SNAPSHOT);
    assertEquals(expected.get(name), snapshot);
    assertEquals(snapshot, hudiRead.get(name + "/snapshot"), "snapshot: Hudi 0.15 on Spark reads what Sluice reads");
    assertEquals(snapshot, hudiRead.get(name + "/snapshot+metadata"), "the same through the metadata table");
    Map<String, String> readOptimized = sluiceRead(dir.resolve(name), QueryType.READ_OPTIMIZED);
    assertNotEquals(snapshot, readOptimized, "the last upsert is in log files only");
    assertEquals("p0/4/f:30", readOptimized.get("k000030"), "the compacted base file has the format(sluice) write");
    assertEquals("p0/5/after:30", snapshot.get("k000030"));
    assertEquals(readOptimized, hudiRead.get(name + "/read_optimized"),
        "read-optimized: Hudi 0.15 on Spark reads what Sluice reads");
  }

  @Test
  void hudiReadsTheTableSparkSqlWroteThroughSluice() {
    Map<String, String> snapshot = sluiceRead(dir.resolve("sql-v6"), QueryType.SNAPSHOT);
    assertEquals(expected.get("sql-v6"), snapshot);
    assertEquals(6, Tables.open(dir.resolve("sql-v6").toString()).tableVersion());
    assertEquals(snapshot, hudiRead.get("sql-v6/snapshot"), "Hudi 0.15 on Spark reads what INSERT INTO wrote");
  }

  @Test
  void hudiIncrementalAndTimeTravelQueriesOnSluiceOnSparkTablesReturnSluicesRows() {
    InteropRows.assertSameHistory(historySluice, historyRead);
  }

  @Test
  void sluiceOnSparkContinuesTheCopyOnWriteTableHudiWrote() {
    String name = "hudi-" + TableType.COPY_ON_WRITE.name();
    Map<String, String> sluice = sluiceRead(dir.resolve(name), QueryType.SNAPSHOT);
    assertEquals(expected.get(name), sluice);
    assertEquals(125, sluice.size());
    assertEquals(sluice, hudiRead.get(name + "/snapshot"), "Hudi 0.15 on Spark reads what Sluice reads");
    assertEquals(sluice, hudiRead.get(name + "/snapshot+metadata"), "the same through the metadata table");
  }

  @Test
  void sluiceOnSparkContinuesTheMergeOnReadTableHudiWrote() {
    String name = "hudi-" + TableType.MERGE_ON_READ.name();
    assertTrue(files(name, ".log.") > 0, "Hudi's delete went to log files");
    Map<String, String> snapshot = sluiceRead(dir.resolve(name), QueryType.SNAPSHOT);
    assertEquals(expected.get(name), snapshot);
    assertEquals(snapshot, hudiRead.get(name + "/snapshot"), "snapshot: Hudi 0.15 on Spark reads what Sluice reads");
    assertEquals(snapshot, hudiRead.get(name + "/snapshot+metadata"), "the same through the metadata table");
    assertEquals(sluiceRead(dir.resolve(name), QueryType.READ_OPTIMIZED), hudiRead.get(name + "/read_optimized"),
        "read-optimized: Hudi 0.15 on Spark reads what Sluice reads");
  }

  @Test
  void hudiReadsTheTablesSluiceOnSparkBulkInsertedAndBothContinueThem() {
    for (TableType type : TableType.values()) {
      String name = "bulk-" + type.name();
      Map<String, String> loaded = bulkSluiceRead.get(name + "/snapshot");
      assertEquals(expected.get(name + "/bulk"), loaded, name + ": Sluice reads the bulk inserts");
      assertEquals(150, loaded.size());
      assertEquals(loaded, bulkSluiceRead.get(name + "/read_optimized"), name + ": base files only");
      assertEquals(loaded, bulkHudiRead.get(name + "/snapshot"), name + ": Hudi 0.15 on Spark reads what Sluice reads");
      assertEquals(loaded, bulkHudiRead.get(name + "/snapshot+metadata"),
          name + ": the same through the metadata table");
      assertEquals(loaded, bulkHudiRead.get(name + "/read_optimized"), name + ": read-optimized");

      Map<String, String> after = sluiceRead(dir.resolve(name), QueryType.SNAPSHOT);
      assertEquals(expected.get(name), after, name + ": Hudi's upsert, then Sluice-on-Spark's");
      assertEquals(200, after.size());
      assertEquals("p1/3/s:160", after.get("k000160"), "Sluice's update of a key Hudi inserted");
      assertEquals("p2/2/h:110", after.get("k000110"), "Hudi's update of a key Sluice bulk-inserted");
      assertEquals(after, hudiRead.get(name + "/snapshot"), name + ": Hudi 0.15 on Spark reads what Sluice reads");
      assertEquals(after, hudiRead.get(name + "/snapshot+metadata"), name + ": the same through the metadata table");
      if (type == TableType.MERGE_ON_READ) {
        assertEquals(sluiceRead(dir.resolve(name), QueryType.READ_OPTIMIZED), hudiRead.get(name + "/read_optimized"),
            name + ": read-optimized after both upserts");
      }
    }
  }

  private Dataset<Row> df(List<Row> rows) {
    return spark.createDataFrame(rows, SCHEMA);
  }

  private long files(String name, String marker) {
    Path table = dir.resolve(name);
    try (Stream<Path> walk = Files.walk(table)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> !table.relativize(p).toString().startsWith(".hoodie"))
          .filter(p -> p.getFileName().toString().contains(marker)).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
