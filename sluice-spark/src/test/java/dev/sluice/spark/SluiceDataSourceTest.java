package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Config;
import dev.sluice.api.Expressions;
import dev.sluice.api.FileSliceInfo;
import dev.sluice.api.Scan;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code format("sluice")} on {@code local[2]}: every query type (snapshot, read-optimized, incremental with and
 * without an end, time travel) on Copy-on-Write and Merge-on-Read tables the engine wrote (the Merge-on-Read one
 * with updates and deletes only in log files) returns the rows, meta columns included, of the engine's own scan;
 * columns and partitions are pruned in the plan; a write through the data source reads back as its input after
 * dedupe, with Hudi's save modes; bad options are refused by name. One SparkSession for the class.
 */
class SluiceDataSourceTest {
  private static final Schema SCHEMA = SchemaBuilder.record("trips_record").namespace("hoodie.trips").fields()
      .requiredString("id").requiredString("part").requiredLong("ts").requiredString("payload")
      .optionalDouble("fare").endRecord();
  private static final StructType ROWS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("part", DataTypes.StringType, false)
      .add("ts", DataTypes.LongType, false)
      .add("payload", DataTypes.StringType, false);
  private static final Map<String, String> SMALL = Map.of("hoodie.parquet.small.file.limit", "0",
      "sluice.write.parallelism", "1");
  private static SparkSession spark;
  @TempDir
  static Path dir;
  /** The engine-written tables, by type, and the instant of their first commit. */
  private static final Map<TableType, String> FIRST = new HashMap<>();
  private static final Map<TableType, String> SECOND = new HashMap<>();

  @BeforeAll
  static void start() {
    spark = LocalSpark.builder("sluice-datasource-test").getOrCreate();
    for (TableType type : TableType.values()) {
      Table t = Tables.create(path(type), TableSpec.builder("trips").type(type).recordKey("id").precombine("ts")
          .partitionBy("part").schema(SCHEMA).build(), Config.of(SMALL));
      FIRST.put(type, t.insert(records(0, 240, 1, "a").iterator()).instantTime());
      // updates of keys in every partition (in log files on Merge-on-Read), then deletes (log files too)
      SECOND.put(type, t.upsert(records(100, 60, 2, "b").iterator()).instantTime());
      t.delete(records(0, 15, 3, "x").iterator());
      t.upsert(records(230, 30, 4, "c").iterator());
    }
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  private static String path(TableType type) {
    return dir.resolve(type.name().toLowerCase(java.util.Locale.ROOT)).toString();
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void everyQueryTypeReadsWhatTheEngineReads(TableType type) {
    String p = path(type);
    Table t = Tables.open(p);
    if (type == TableType.MERGE_ON_READ) {
      assertTrue(t.newScan().slices().stream().anyMatch(s -> !s.logFiles().isEmpty()), "log files to merge");
    }
    Map<String, String> snapshot = engine(t, s -> s);
    assertEquals(240 + 20 - 15, snapshot.size());
    assertEquals(snapshot, spark(r -> r, p));
    Map<String, String> readOptimized = engine(t, s -> s.queryType(dev.sluice.api.QueryType.READ_OPTIMIZED));
    assertEquals(readOptimized, spark(r -> r.option("hoodie.datasource.query.type", "read_optimized"), p));
    if (type == TableType.MERGE_ON_READ) {
      assertNotEquals(snapshot, readOptimized, "read-optimized misses what is only in log files");
    }
    String first = FIRST.get(type);
    String second = SECOND.get(type);
    // incremental ranges are of completion times on version 9 (the tables' default version), of instant times on 6
    String from = t.inspect().completionTime(first).orElse(first);
    String to = t.inspect().completionTime(second).orElse(second);
    assertEquals(engine(t, s -> s.incremental(from)), spark(r -> r.option("hoodie.datasource.query.type",
        "incremental").option("hoodie.datasource.read.begin.instanttime", from), p));
    Map<String, String> range = engine(t, s -> s.incremental(from, to));
    assertEquals(60, range.size());
    assertEquals(range, spark(r -> r.option("hoodie.datasource.query.type", "incremental")
        .option("hoodie.datasource.read.begin.instanttime", from)
        .option("hoodie.datasource.read.end.instanttime", to), p));
    Map<String, String> travelled = engine(t, s -> s.asOf(first));
    assertEquals(240, travelled.size());
    assertEquals(travelled, spark(r -> r.option("as.of.instant", first), p));
    assertEquals(engine(t, s -> s.queryType(dev.sluice.api.QueryType.READ_OPTIMIZED).asOf(second)),
        spark(r -> r.option("hoodie.datasource.query.type", "read_optimized").option("as.of.instant", second), p));
  }

  @Test
  void columnsAndPartitionsArePrunedInThePlan() {
    String p = path(TableType.MERGE_ON_READ);
    Table t = Tables.open(p);
    ScanBuilder builder = ((SupportsRead) new SluiceDataSource().getTable(null, null, Map.of("path", p)))
        .newScanBuilder(CaseInsensitiveStringMap.empty());
    Filter[] filters = {new EqualTo("part", "p1"), new GreaterThan("ts", 1L)};
    Filter[] after = ((SupportsPushDownFilters) builder).pushFilters(filters);
    assertEquals(2, ((SupportsPushDownFilters) builder).pushedFilters().length, "both pushed to the engine");
    assertEquals(List.of(filters), List.of(after), "and evaluated again by Spark");
    ((SupportsPushDownRequiredColumns) builder).pruneColumns(new StructType()
        .add("_hoodie_commit_time", DataTypes.StringType).add("id", DataTypes.StringType));
    org.apache.spark.sql.connector.read.Scan scan = builder.build();
    assertEquals(List.of("_hoodie_commit_time", "id"), Arrays.asList(scan.readSchema().fieldNames()));
    InputPartition[] parts = scan.toBatch().planInputPartitions();
    List<FileSliceInfo> all = t.newScan().slices();
    List<FileSliceInfo> inP1 = all.stream().filter(s -> s.partitionPath().equals("p1")).toList();
    assertTrue(inP1.size() < all.size());
    List<SliceReaders.SliceWire> planned = Arrays.stream(parts).map(i -> ((SliceReaders.SlicePartition) i).slice())
        .toList();
    assertEquals(List.of("p1"), planned.stream().map(SliceReaders.SliceWire::partitionPath).distinct().toList());
    assertEquals(inP1.stream().map(FileSliceInfo::fileId).sorted().toList(),
        planned.stream().map(SliceReaders.SliceWire::fileId).sorted().toList(), "one input partition per slice");

    // the same through a query: as many Spark partitions as slices of p1, the engine's filtered rows
    Dataset<Row> df = spark.read().format("sluice").load(p).filter("part = 'p1' and ts > 1").select("id", "ts");
    assertEquals(inP1.size(), df.rdd().getNumPartitions());
    String plan = df.queryExecution().executedPlan().toString();
    assertTrue(plan.contains("pushed=[EqualTo(part,p1), GreaterThan(ts,1)]"), plan);
    Map<String, String> expected = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().select("id", "ts")
        .filter(Expressions.and(Expressions.eq("part", "p1"), Expressions.gt("ts", 1L))).open()) {
      it.forEachRemaining(r -> expected.put(r.get("id").toString(), r.get("ts").toString()));
    }
    Map<String, String> actual = new TreeMap<>();
    for (Row r : df.collectAsList()) {
      actual.put(r.getString(0), String.valueOf(r.getLong(1)));
    }
    assertTrue(!expected.isEmpty());
    assertEquals(expected, actual);
    assertEquals(expected.size(), spark.read().format("sluice").load(p).filter("part = 'p1' and ts > 1").count());
  }

  @Test
  void aWriteReadsBackAsItsInputAfterDedupe() {
    String p = dir.resolve("written").toString();
    Map<String, String> options = Map.of(
        "hoodie.table.name", "trips",
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.partitionpath.field", "part",
        "hoodie.datasource.write.table.type", "MERGE_ON_READ",
        "hoodie.datasource.write.operation", "bulk_insert");
    List<Row> first = rows(0, 100, 1, "a");
    first.addAll(rows(0, 20, 5, "newer"));
    first.addAll(rows(20, 20, 0, "older"));
    Map<String, String> expected = dedupe(new TreeMap<>(), first);
    spark.createDataFrame(first, ROWS).write().format("sluice").options(options).mode(SaveMode.Append).save(p);
    assertEquals(expected, readBack(p));

    Map<String, String> upsert = new HashMap<>(options);
    upsert.put("hoodie.datasource.write.operation", "upsert");
    List<Row> second = rows(90, 30, 7, "b");
    spark.createDataFrame(second, ROWS).write().format("sluice").options(upsert).mode(SaveMode.Append).save(p);
    dedupe(expected, second);
    assertEquals(expected, readBack(p));

    Map<String, String> delete = new HashMap<>(options);
    delete.put("hoodie.datasource.write.operation", "delete");
    spark.createDataFrame(rows(0, 10, 9, "gone"), ROWS).write().format("sluice").options(delete)
        .mode(SaveMode.Append).save(p);
    for (int i = 0; i < 10; i++) {
      expected.remove(String.format("k%06d", i));
    }
    assertEquals(expected, readBack(p));
    assertEquals(3, Tables.open(p).inspect().timeline().size(), "one commit per save");

    // Ignore leaves the table alone; ErrorIfExists refuses it; Overwrite replaces it (Hudi 0.15's datasource)
    List<Row> other = rows(500, 5, 1, "o");
    spark.createDataFrame(other, ROWS).write().format("sluice").options(upsert).mode(SaveMode.Ignore).save(p);
    assertEquals(expected, readBack(p));
    Exception refused = assertThrows(Exception.class, () -> spark.createDataFrame(other, ROWS).write()
        .format("sluice").options(upsert).mode(SaveMode.ErrorIfExists).save(p));
    assertTrue(sluice(refused).getMessage().contains("already exists"), refused.getMessage());
    spark.createDataFrame(other, ROWS).write().format("sluice").options(upsert).mode(SaveMode.Overwrite).save(p);
    assertEquals(dedupe(new TreeMap<>(), other), readBack(p));
    assertEquals(1, Tables.open(p).inspect().timeline().size(), "a new table");
  }

  @Test
  void sqlReadsThroughTheDataSource() {
    String p = path(TableType.MERGE_ON_READ);
    Map<String, String> snapshot = engine(Tables.open(p), s -> s);
    // Spark 3.5 runs sluice.`path` (SQL on files) for file formats only; a temporary view of the read does it
    spark.read().format("sluice").load(p).createOrReplaceTempView("mor_view");
    assertEquals(snapshot, rows(spark.sql("select * from mor_view")));
    spark.sql("create table mor_trips using sluice location '" + p + "'");
    try {
      assertEquals(snapshot, rows(spark.sql("select * from mor_trips")));
      assertEquals(snapshot.size() - engine(Tables.open(p), s -> s.filter(Expressions.eq("part", "p0"))).size(),
          spark.sql("select count(*) from mor_trips where part <> 'p0'").first().getLong(0));
      // the catalog table reads through Spark's V1 path with the same plan: a partition per slice of p1 only
      assertEquals(Tables.open(p).newScan().filter(Expressions.eq("part", "p1")).slices().size(),
          spark.sql("select id from mor_trips where part = 'p1'").rdd().getNumPartitions());
    } finally {
      spark.sql("drop table mor_trips");
    }
    assertTrue(Files.exists(Path.of(p, ".hoodie", "hoodie.properties")), "dropping the catalog entry keeps the data");
  }

  @Test
  void badOptionsAreRefusedByName() {
    String p = path(TableType.COPY_ON_WRITE);
    assertRefused("hoodie.datasource.query.type", () -> spark.read().format("sluice")
        .option("hoodie.datasource.query.type", "latest").load(p).count());
    assertRefused("hoodie.datasource.read.begin.instanttime", () -> spark.read().format("sluice")
        .option("hoodie.datasource.query.type", "incremental").load(p).count());
    assertRefused("as.of.instant", () -> spark.read().format("sluice").option("as.of.instant", "yesterday")
        .load(p).count());
    assertRefused("hoodie.datasource.write.operation", () -> spark.createDataFrame(rows(0, 3, 1, "a"), ROWS)
        .write().format("sluice").option("hoodie.datasource.write.operation", "merge").mode(SaveMode.Append).save(p));
    assertRefused("SaveMode.Overwrite", () -> spark.createDataFrame(rows(0, 3, 1, "a"), ROWS).write()
        .format("sluice").option("hoodie.datasource.write.operation", "delete").mode(SaveMode.Overwrite).save(p));
    assertRefused("hoodie.table.name", () -> spark.createDataFrame(rows(0, 3, 1, "a"), ROWS).write()
        .format("sluice").option("hoodie.table.name", "other").mode(SaveMode.Append).save(p));
    String missing = dir.resolve("no-table").toString();
    assertRefused(missing, () -> spark.read().format("sluice").load(missing).count());
    assertEquals(engine(Tables.open(p), s -> s), spark(r -> r, p), "the table as it was");
  }

  private static void assertRefused(String named, org.junit.jupiter.api.function.Executable run) {
    Exception e = assertThrows(Exception.class, run);
    SluiceException s = sluice(e);
    assertTrue(s.getMessage().contains(named), s.getMessage());
  }

  private static SluiceException sluice(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof SluiceException s) {
        return s;
      }
    }
    throw new AssertionError("not a SluiceException: " + e, e);
  }

  /** The engine's rows of a query with meta columns, each as its columns joined, by record key. */
  private static Map<String, String> engine(Table t, UnaryOperator<Scan> query) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = query.apply(t.newScan().withMetaColumns(true)).open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        List<String> values = new ArrayList<>();
        for (Schema.Field f : r.getSchema().getFields()) {
          values.add(String.valueOf(r.get(f.pos())));
        }
        assertEquals(null, out.put(r.get("_hoodie_record_key").toString(), String.join("|", values)));
      }
    }
    return out;
  }

  private static Map<String, String> spark(UnaryOperator<DataFrameReader> options, String path) {
    return rows(options.apply(spark.read().format("sluice")).load(path));
  }

  private static Map<String, String> rows(Dataset<Row> df) {
    Map<String, String> out = new TreeMap<>();
    for (Row r : df.collectAsList()) {
      List<String> values = new ArrayList<>();
      for (int i = 0; i < r.size(); i++) {
        values.add(String.valueOf(r.get(i)));
      }
      assertEquals(null, out.put(r.getString(r.fieldIndex("_hoodie_record_key")), String.join("|", values)));
    }
    return out;
  }

  private static Map<String, String> readBack(String path) {
    Map<String, String> out = new TreeMap<>();
    for (Row r : spark.read().format("sluice").load(path).select("id", "part", "ts", "payload").collectAsList()) {
      out.put(r.getString(0), r.getString(1) + "/" + r.getLong(2) + "/" + r.getString(3));
    }
    return out;
  }

  /** {@code rows} folded into {@code into} by key, the higher {@code ts} winning (the precombine rule). */
  private static Map<String, String> dedupe(Map<String, String> into, List<Row> rows) {
    Map<String, Long> ts = new HashMap<>();
    into.forEach((k, v) -> ts.put(k, Long.parseLong(v.split("/")[1])));
    for (Row r : rows) {
      if (!ts.containsKey(r.getString(0)) || ts.get(r.getString(0)) <= r.getLong(2)) {
        ts.put(r.getString(0), r.getLong(2));
        into.put(r.getString(0), r.getString(1) + "/" + r.getLong(2) + "/" + r.getString(3));
      }
    }
    return into;
  }

  private static List<Row> rows(int from, int n, long ts, String tag) {
    List<Row> out = new ArrayList<>(n);
    for (int i = from; i < from + n; i++) {
      out.add(RowFactory.create(String.format("k%06d", i), "p" + (i % 3), ts, tag + ":" + i));
    }
    return out;
  }

  private static List<GenericRecord> records(int from, int n, long ts, String tag) {
    List<GenericRecord> out = new ArrayList<>(n);
    for (int i = from; i < from + n; i++) {
      GenericRecord g = new GenericData.Record(SCHEMA);
      g.put("id", String.format("k%06d", i));
      g.put("part", "p" + (i % 3));
      g.put("ts", ts);
      g.put("payload", tag + ":" + i);
      g.put("fare", i % 4 == 0 ? null : i * 1.25);
      out.add(g);
    }
    return out;
  }
}
