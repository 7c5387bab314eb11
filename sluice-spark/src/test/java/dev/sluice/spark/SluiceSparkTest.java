package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.CommitResult;
import dev.sluice.api.Config;
import dev.sluice.api.FileWriteResult;
import dev.sluice.api.InstantInfo;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.api.WriteOperation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sluice on Spark ({@code local[2]}) against the engine alone on the same input: an insert into a new table, an
 * upsert (new keys, updates, duplicate keys that lose) and a delete (with unknown keys). The insert is compared with
 * the engine's insert into a new table; each later step with the engine's write of it to a copy of the Spark-written
 * table taken just before it, so both plan from the same files: the same file groups with the same counts (the same
 * plan), the same rows, as many base and log files and commits. An engine table written from scratch is compared by
 * rows only (its file bytes differ, and the planner orders small files by size). One SparkSession for the class;
 * Copy-on-Write unpartitioned and Merge-on-Read partitioned (core's DistributedWriteTest runs both table types
 * partitioned through the same units).
 */
class SluiceSparkTest {
  static final StructType ROWS = new StructType()
      .add("id", DataTypes.StringType, false)
      .add("part", DataTypes.StringType, false)
      .add("ts", DataTypes.LongType, false)
      .add("payload", DataTypes.StringType, false);
  private static final int MAX_FILE = 40 << 10;
  static final Map<String, String> SIZES = Map.of(
      "hoodie.parquet.max.file.size", String.valueOf(MAX_FILE),
      "hoodie.parquet.small.file.limit", String.valueOf(30 << 10));
  private static SparkSession spark;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.builder("sluice-spark-test").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @ParameterizedTest
  @CsvSource({"COPY_ON_WRITE, ''", "MERGE_ON_READ, part"})
  void writesWhatTheEngineWrites(TableType type, String partitionField) {
    Map<String, String> options = new HashMap<>(SIZES);
    options.putAll(Map.of(
        "hoodie.table.name", "trips",
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.partitionpath.field", partitionField,
        "hoodie.datasource.write.table.type", type.name()));
    Path sparkDir = dir.resolve("spark");
    String sparkPath = sparkDir.toString();
    List<Row> first = rows(0, 300, 1, "a");
    CommitResult created = SluiceSpark.insert(spark.createDataFrame(first, ROWS), sparkPath, options);
    Schema schema = SluiceSpark.tableSchema(spark.createDataFrame(first, ROWS), "trips");
    Table engine = Tables.create(dir.resolve("engine").toString(), spec(type, partitionField, schema),
        Config.of(SIZES));
    assertEquals(shape(engine.insert(records(first, schema).iterator())), shape(created), "insert");
    assertEquals(300, created.inserted());
    assertEquals(contents(engine), contents(Tables.open(sparkPath)));

    List<Row> upsert = rows(200, 200, 2, "b");
    upsert.addAll(rows(200, 40, 1, "dup"));
    CommitResult upserted = step("upsert", sparkDir, twin -> twin.upsert(records(upsert, schema).iterator()),
        () -> SluiceSpark.upsert(spark.createDataFrame(upsert, ROWS), sparkPath, options));
    assertEquals(100, upserted.updated());
    engine.upsert(records(upsert, schema).iterator());

    List<Row> gone = rows(50, 60, 9, "x");
    gone.addAll(rows(50_000, 5, 9, "unknown"));
    CommitResult deleted = step("delete", sparkDir, twin -> twin.delete(records(gone, schema).iterator()),
        () -> SluiceSpark.delete(spark.createDataFrame(gone, ROWS), sparkPath, options));
    assertEquals(60, deleted.deleted());
    engine.delete(records(gone, schema).iterator());

    Map<String, String> expected = contents(engine);
    assertEquals(400 - 60, expected.size());
    assertEquals(expected, contents(Tables.open(sparkPath)));
  }

  /**
   * A Merge-on-Read upsert with the small-file limit at 0 (W2-mor's setting): updates go to log files, the new keys
   * only to new file groups, several in a partition. Spark routes those inserts by key range in the write's one
   * shuffle instead of ranking them; with the whole batch in the sample the ranges are exact, so the file groups
   * get what the engine's planner gives them: the same plan, rows and files as the engine's upsert of a copy.
   */
  @Test
  void mergeOnReadInsertsReachNewFileGroupsByKeyRange() {
    Map<String, String> options = new HashMap<>(SIZES);
    options.putAll(Map.of(
        "hoodie.parquet.small.file.limit", "0",
        "hoodie.table.name", "trips",
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.partitionpath.field", "part",
        "hoodie.datasource.write.table.type", TableType.MERGE_ON_READ.name()));
    Path sparkDir = dir.resolve("spark");
    List<Row> first = rows(0, 300, 1, "a");
    SluiceSpark.insert(spark.createDataFrame(first, ROWS), sparkDir.toString(), options);
    Schema schema = SluiceSpark.tableSchema(spark.createDataFrame(first, ROWS), "trips");
    // 150 updates and 900 new keys in scrambled order: 300 per partition, more than one new file group holds
    List<Row> upsert = rows(0, 150, 2, "b");
    for (int i = 0; i < 900; i++) {
      upsert.addAll(rows(1000 + (i * 389) % 900, 1, 2, "n"));
    }
    Map<String, String> engineOptions = new HashMap<>(SIZES);
    engineOptions.put("hoodie.parquet.small.file.limit", "0");
    Path twinDir = dir.resolve("twin-upsert");
    copyTree(sparkDir, twinDir);
    Table twin = Tables.open(twinDir.toString(), Config.of(engineOptions));
    CommitResult expected = twin.upsert(records(upsert, schema).iterator());
    CommitResult r = SluiceSpark.upsert(spark.createDataFrame(upsert, ROWS).repartition(2), sparkDir.toString(),
        options);
    assertEquals(shape(expected), shape(r), "planned apart");
    assertEquals(150, r.updated());
    assertEquals(900, r.inserted());
    Map<String, Long> newGroups = new TreeMap<>();
    for (FileWriteResult f : r.files()) {
      if (FileWriteResult.NULL_COMMIT.equals(f.prevCommit())) {
        newGroups.merge(f.partitionPath(), 1L, Long::sum);
      } else {
        assertTrue(f.logAppend().isPresent(), "an update of Merge-on-Read goes to a log file: " + f);
      }
    }
    assertTrue(newGroups.values().stream().anyMatch(n -> n > 1), "several new file groups in a partition: "
        + shape(r));
    Table written = Tables.open(sparkDir.toString());
    assertEquals(contents(twin), contents(written));
    assertEquals(files(twinDir, ".parquet"), files(sparkDir, ".parquet"));
    assertEquals(files(twinDir, ".log."), files(sparkDir, ".log."));
  }

  /**
   * A bulk insert on Spark is the engine's bulk insert: into a table with small files, the same rows as
   * {@code Table.bulkInsert} on a copy (no small file takes records, no key is looked up: a key the table holds is
   * written again), only new file groups, each base file within the engine's size rule, one commit with operation
   * {@code bulk_insert}, and each new base file holds a key range of its own within its partition. The file
   * boundaries may differ from the engine's: Spark's tasks cut the sorted batch at key ranges estimated from a
   * sample instead of ranking every record.
   */
  @ParameterizedTest
  @CsvSource({"COPY_ON_WRITE, ''", "MERGE_ON_READ, part"})
  void bulkInsertIsTheEnginesBulkInsert(TableType type, String partitionField) {
    Map<String, String> options = new HashMap<>(SIZES);
    options.putAll(Map.of(
        "hoodie.table.name", "trips",
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.partitionpath.field", partitionField,
        "hoodie.datasource.write.table.type", type.name()));
    Path sparkDir = dir.resolve("spark");
    String sparkPath = sparkDir.toString();
    List<Row> first = rows(0, 60, 1, "a");
    SluiceSpark.insert(spark.createDataFrame(first, ROWS), sparkPath, options);
    Schema schema = SluiceSpark.tableSchema(spark.createDataFrame(first, ROWS), "trips");
    // keys 1000..1599 in scrambled order, two versions of 40 of them (the later wins), and 10 keys the table holds
    List<Row> bulk = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      bulk.addAll(rows(1000 + (i * 389) % 600, 1, 2, "b"));
    }
    bulk.addAll(rows(1100, 40, 3, "newer"));
    bulk.addAll(rows(0, 10, 4, "again"));
    Path twinDir = dir.resolve("twin-bulk");
    copyTree(sparkDir, twinDir);
    Table twin = Tables.open(twinDir.toString(), Config.of(SIZES));
    CommitResult expected = twin.bulkInsert(records(bulk, schema).iterator());
    CommitResult r = SluiceSpark.bulkInsert(spark.createDataFrame(bulk, ROWS).repartition(3), sparkPath, options);
    assertEquals(WriteOperation.BULK_INSERT, r.operation());
    assertEquals(expected.inserted(), r.inserted());
    // the engine closes a base file once its estimated size reaches the limit: no file is larger than the
    // largest the engine itself wrote from the same batch (or the limit) by more than one record's bytes
    long largest = Math.max(MAX_FILE, expected.files().stream().mapToLong(FileWriteResult::fileSize).max()
        .orElseThrow());
    for (FileWriteResult f : r.files()) {
      assertTrue(f.fileSize() - f.fileSize() / f.numWrites() <= largest,
          "a file past the engine's size rule: " + f + " (the engine's largest, or the limit: " + largest + " bytes)");
    }
    assertEquals(files(twinDir, ".parquet") - expected.files().size() + r.files().size(), files(sparkDir, ".parquet"),
        "the files of the commit and none else");
    assertEquals(0, files(sparkDir, ".log."), "a bulk insert writes base files");
    assertEquals(twin.inspect().timeline().size(), Tables.open(sparkPath).inspect().timeline().size());
    assertEquals(allRows(twin), allRows(Tables.open(sparkPath)));
    assertTrue(r.files().size() > 1, "the batch fills several new file groups: " + shape(r));
    for (FileWriteResult f : r.files()) {
      assertEquals(FileWriteResult.NULL_COMMIT, f.prevCommit(), "a bulk insert writes new file groups only: " + f);
    }
    assertEquals(610, r.inserted());
    Table written = Tables.open(sparkPath);
    List<InstantInfo> commits = written.inspect().timeline().stream().filter(InstantInfo::isCompleted).toList();
    assertEquals("BULK_INSERT", written.inspect().commitMetadata(commits.get(commits.size() - 1)).orElseThrow()
        .operation());
    // the 10 keys inserted twice are there twice, as after Hudi's bulk insert (no index lookup)
    assertEquals(60 + 600 + 10, allRows(written).size());
    assertDisjointKeyRanges(written, r);
  }

  /** Every row of the snapshot as key, partition, ts and payload, sorted (a key may be there twice). */
  private static List<String> allRows(Table t) {
    List<String> out = new ArrayList<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        out.add(r.get("id") + "/" + r.get("part") + "/" + r.get("ts") + "/" + r.get("payload"));
      }
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /** Within each partition, the files {@code r} wrote hold key ranges that do not overlap. */
  private static void assertDisjointKeyRanges(Table t, CommitResult r) {
    Map<String, String[]> ranges = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().withMetaColumns(true).open()) {
      while (it.hasNext()) {
        GenericRecord g = it.next();
        String key = g.get("_hoodie_record_key").toString();
        String commit = g.get("_hoodie_commit_time").toString();
        if (!commit.equals(r.instantTime())) {
          continue;
        }
        String file = g.get("_hoodie_partition_path") + "/" + g.get("_hoodie_file_name");
        ranges.merge(file, new String[] {key, key}, (a, b) -> new String[] {
            a[0].compareTo(b[0]) <= 0 ? a[0] : b[0], a[1].compareTo(b[1]) >= 0 ? a[1] : b[1]});
      }
    }
    List<String> files = new ArrayList<>(ranges.keySet());
    for (int i = 0; i < files.size(); i++) {
      for (int j = i + 1; j < files.size(); j++) {
        String pi = files.get(i).substring(0, files.get(i).indexOf('/'));
        String pj = files.get(j).substring(0, files.get(j).indexOf('/'));
        String[] a = ranges.get(files.get(i));
        String[] b = ranges.get(files.get(j));
        assertTrue(!pi.equals(pj) || a[1].compareTo(b[0]) < 0 || b[1].compareTo(a[0]) < 0,
            "overlapping key ranges " + files.get(i) + " " + List.of(a) + " and " + files.get(j) + " " + List.of(b));
      }
    }
    assertEquals(r.files().size(), ranges.size(), "every written file holds rows of the commit");
  }

  /**
   * One step written by Spark to the table at {@code sparkDir} and by the engine ({@code byEngine}) to a copy of it
   * taken before: the same plan, rows, files and commits on both. Returns Spark's result.
   */
  private CommitResult step(String name, Path sparkDir, Function<Table, CommitResult> byEngine,
      Supplier<CommitResult> bySpark) {
    Path twinDir = dir.resolve("twin-" + name);
    copyTree(sparkDir, twinDir);
    Table twin = Tables.open(twinDir.toString(), Config.of(SIZES));
    CommitResult expected = byEngine.apply(twin);
    CommitResult actual = bySpark.get();
    assertEquals(shape(expected), shape(actual), name + ": planned apart");
    Table written = Tables.open(sparkDir.toString());
    assertEquals(contents(twin), contents(written), name);
    assertEquals(files(twinDir, ".parquet"), files(sparkDir, ".parquet"), name + ": the same number of base files");
    assertEquals(files(twinDir, ".log."), files(sparkDir, ".log."), name + ": the same number of log files");
    // one commit per write on each side: the Spark write commits once, on the driver
    assertEquals(twin.inspect().timeline().size(), written.inspect().timeline().size(), name);
    return actual;
  }

  /**
   * The file groups a commit wrote, each as its partition, its file id and base instant (or "new": new file ids are
   * random), base or log, and its record counts; sorted.
   */
  static List<String> shape(CommitResult r) {
    List<String> out = new ArrayList<>();
    for (FileWriteResult f : r.files()) {
      // a log file's slice on version 9 can be the write's own (a log-only slice named after its delta commit):
      // the two sides' writes have different instant times, so it is compared as "this commit"
      String prev = f.prevCommit().equals(r.instantTime()) ? "this commit" : f.prevCommit();
      String group = FileWriteResult.NULL_COMMIT.equals(f.prevCommit()) ? "new" : f.fileId() + "@" + prev;
      out.add(f.partitionPath() + " " + group + (f.logAppend().isPresent() ? " log" : " base") + " writes="
          + f.numWrites() + " inserts=" + f.numInserts() + " updates=" + f.numUpdates() + " deletes="
          + f.numDeletes());
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  static void copyTree(Path from, Path to) {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void nullableColumnsBecomeOptionalFieldsThatHoldNulls() {
    // Spark's sources make nullable columns (Hudi's Spark writer too): a table is created from them
    StructType nullable = new StructType().add("id", DataTypes.StringType, true).add("ts", DataTypes.LongType, true)
        .add("note", DataTypes.StringType, true);
    Path p = dir.resolve("nullable");
    SluiceSpark.insert(spark.createDataFrame(List.of(RowFactory.create("a", 1L, null), RowFactory.create("b", 2L,
        "x")), nullable), p.toString(), Map.of("hoodie.table.name", "t", "hoodie.datasource.write.recordkey.field",
        "id", "hoodie.datasource.write.precombine.field", "ts"));
    Table t = Tables.open(p.toString());
    Schema.Field note = t.schema().getField("note");
    assertTrue(note.schema().isNullable() && note.hasDefaultValue() && note.defaultVal() == JsonProperties.NULL_VALUE,
        note.toString());
    Map<String, String> read = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().open()) {
      it.forEachRemaining(r -> read.put(r.get("id").toString(), String.valueOf(r.get("note"))));
    }
    assertEquals(Map.of("a", "null", "b", "x"), read);
  }

  /**
   * Struct and array columns: written by Sluice on Spark into a table created from the Dataset (nested record,
   * array field), read back through {@code format("sluice")} as the input, and by the engine's scan with the values
   * written.
   */
  @Test
  void structAndArrayColumnsWriteAndReadBack() {
    StructType address = new StructType().add("street", DataTypes.StringType, false)
        .add("zip", DataTypes.IntegerType, true);
    StructType nested = new StructType().add("id", DataTypes.StringType, false).add("ts", DataTypes.LongType, false)
        .add("address", address, true).add("tags", DataTypes.createArrayType(DataTypes.StringType, true), true);
    List<Row> in = List.of(
        RowFactory.create("a", 1L, RowFactory.create("Main St", 10), List.of("x", "y")),
        RowFactory.create("b", 2L, RowFactory.create("High St", null), List.of()),
        RowFactory.create("c", 3L, null, null));
    String p = dir.resolve("nested").toString();
    spark.createDataFrame(in, nested).write().format("sluice").option("hoodie.table.name", "t")
        .option("hoodie.datasource.write.recordkey.field", "id").option("hoodie.datasource.write.precombine.field", "ts")
        .option("hoodie.datasource.write.operation", "bulk_insert").mode(org.apache.spark.sql.SaveMode.Append).save(p);
    List<String> read = spark.read().format("sluice").load(p).select("id", "ts", "address", "tags").orderBy("id")
        .toJSON().collectAsList();
    assertEquals(List.of("{\"id\":\"a\",\"ts\":1,\"address\":{\"street\":\"Main St\",\"zip\":10},\"tags\":[\"x\",\"y\"]}",
        "{\"id\":\"b\",\"ts\":2,\"address\":{\"street\":\"High St\"},\"tags\":[]}", "{\"id\":\"c\",\"ts\":3}"), read);
    Map<String, String> engine = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = Tables.open(p).newScan().open()) {
      it.forEachRemaining(r -> engine.put(r.get("id").toString(), r.get("address") + " " + r.get("tags")));
    }
    assertEquals(Map.of("a", "{\"street\": \"Main St\", \"zip\": 10} [x, y]",
        "b", "{\"street\": \"High St\", \"zip\": null} []", "c", "null null"), engine);
  }

  /** A write that creates the table: version 9 by default, {@code hoodie.write.table.version} picks another. */
  @ParameterizedTest
  @CsvSource({"'', 9", "6, 6", "8, 8"})
  void aCreatingWriteTakesTheTableVersionOption(String option, int expected) throws java.io.IOException {
    Map<String, String> options = new HashMap<>(Map.of("hoodie.table.name", "t",
        "hoodie.datasource.write.recordkey.field", "id", "hoodie.datasource.write.precombine.field", "ts"));
    if (!option.isEmpty()) {
      options.put("hoodie.write.table.version", option);
    }
    Path p = dir.resolve("v" + expected);
    SluiceSpark.insert(spark.createDataFrame(rows(0, 3, 1, "a"), ROWS), p.toString(), options);
    assertEquals(expected, Tables.open(p.toString()).tableVersion());
    assertTrue(Files.readString(p.resolve(".hoodie/hoodie.properties")).contains("hoodie.table.version=" + expected));
    // an existing table keeps its version whatever the option says
    options.put("hoodie.write.table.version", expected == 6 ? "9" : "6");
    SluiceSpark.upsert(spark.createDataFrame(rows(0, 3, 2, "b"), ROWS), p.toString(), options);
    assertEquals(expected, Tables.open(p.toString()).tableVersion());
  }

  @Test
  void aBadTableVersionOptionIsRefusedBeforeAnyFile() {
    Path p = dir.resolve("bad");
    SluiceException e = assertThrows(SluiceException.class, () -> SluiceSpark.insert(
        spark.createDataFrame(rows(0, 3, 1, "a"), ROWS), p.toString(), Map.of("hoodie.table.name", "t",
            "hoodie.datasource.write.recordkey.field", "id", "hoodie.write.table.version", "7")));
    assertTrue(e.getMessage().contains("7"), e.getMessage());
    assertTrue(!Files.exists(p.resolve(".hoodie")));
  }

  @Test
  void aMissingRecordKeyIsRefusedBeforeAnyFile() {
    Path p = dir.resolve("none");
    SluiceException e = assertThrows(SluiceException.class, () -> SluiceSpark.upsert(
        spark.createDataFrame(rows(0, 3, 1, "a"), ROWS), p.toString(), Map.of("hoodie.table.name", "t")));
    assertTrue(e.getMessage().contains("hoodie.datasource.write.recordkey.field"), e.getMessage());
    assertTrue(!Files.exists(p.resolve(".hoodie")));
  }

  private static TableSpec spec(TableType type, String partitionField, Schema schema) {
    TableSpec.Builder b = TableSpec.builder("trips").type(type).recordKey("id").precombine("ts").schema(schema);
    if (!partitionField.isEmpty()) {
      b.partitionBy(partitionField);
    }
    return b.build();
  }

  static List<Row> rows(int from, int n, long ts, String tag) {
    List<Row> out = new ArrayList<>(n);
    for (int i = from; i < from + n; i++) {
      out.add(RowFactory.create(String.format("k%06d", i), "p" + (i % 3), ts, tag + ":" + i + ":" + "x".repeat(40)));
    }
    return out;
  }

  static List<GenericRecord> records(List<Row> rows, Schema schema) {
    List<GenericRecord> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      GenericRecord g = new GenericData.Record(schema);
      g.put("id", r.getString(0));
      g.put("part", r.getString(1));
      g.put("ts", r.getLong(2));
      g.put("payload", r.getString(3));
      out.add(g);
    }
    return out;
  }

  static Map<String, String> contents(Table t) {
    Map<String, String> out = new TreeMap<>();
    try (CloseableIterator<GenericRecord> it = t.newScan().open()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        assertEquals(null, out.put(r.get("id").toString(), r.get("part") + "/" + r.get("ts") + "/" + r.get("payload")),
            "key returned twice: " + r.get("id"));
      }
    }
    return out;
  }

  static long files(Path table, String marker) {
    try (Stream<Path> walk = Files.walk(table)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> !table.relativize(p).toString().startsWith(".hoodie"))
          .filter(p -> p.getFileName().toString().contains(marker)).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
