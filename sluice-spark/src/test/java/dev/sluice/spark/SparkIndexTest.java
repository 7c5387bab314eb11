package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CommitResult;
import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.internal.index.RecordIndexFixture;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.mdt.write.MetadataTableChecks;
import dev.sluice.internal.mdt.write.RecordIndexChecks;
import dev.sluice.interop.HudiOracle;
import dev.sluice.interop.OracleBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sluice on Spark ({@code local[2]}) with the global indexes and the record index, against the engine alone on a copy
 * of the same table with the same batch (as {@link SluiceSparkTest} compares): an upsert whose keys partly move to
 * another partition (moved with {@code hoodie.*.index.update.partition.path}: deleted in the old partition, inserted
 * in the new), partly stay, partly are new, then a delete by key with the records' old partitions. Both sides plan
 * the same file groups with the same counts, write the same rows and files, commit once; a table with a record index
 * has one that names exactly its live keys after each side's write, and its metadata table lists what is on storage.
 */
class SparkIndexTest {
  private static SparkSession spark;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.builder("sluice-spark-index-test").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @ParameterizedTest
  @CsvSource({"GLOBAL_BLOOM, COPY_ON_WRITE", "GLOBAL_BLOOM, MERGE_ON_READ", "GLOBAL_SIMPLE, COPY_ON_WRITE",
      "GLOBAL_SIMPLE, MERGE_ON_READ", "RECORD_INDEX, COPY_ON_WRITE", "RECORD_INDEX, MERGE_ON_READ"})
  void keysMovingPartitionAreWrittenAsTheEngineWritesThem(String index, TableType type) {
    Map<String, String> engineOptions = new HashMap<>(SluiceSparkTest.SIZES);
    engineOptions.put("hoodie.index.type", index);
    engineOptions.put("hoodie.bloom.index.update.partition.path", "true");
    engineOptions.put("hoodie.simple.index.update.partition.path", "true");
    engineOptions.put("hoodie.record.index.update.partition.path", "true");
    boolean recordIndex = index.equals("RECORD_INDEX");
    if (recordIndex) {
      engineOptions.put("hoodie.metadata.record.index.enable", "true");
      engineOptions.put("hoodie.metadata.record.index.min.filegroup.count", "3");
    }
    Map<String, String> options = new HashMap<>(engineOptions);
    options.putAll(Map.of(
        "hoodie.table.name", "trips",
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.partitionpath.field", "part",
        "hoodie.datasource.write.table.type", type.name()));
    Path sparkDir = dir.resolve("spark");
    String sparkPath = sparkDir.toString();
    List<Row> first = SluiceSparkTest.rows(0, 300, 1, "a");
    SluiceSpark.insert(spark.createDataFrame(first, SluiceSparkTest.ROWS), sparkPath, options);
    Schema schema = SluiceSpark.tableSchema(spark.createDataFrame(first, SluiceSparkTest.ROWS), "trips");
    Config config = Config.of(engineOptions);

    // 100 keys move one partition on, 50 stay and change, 60 are new
    List<Row> moves = shifted(SluiceSparkTest.rows(100, 100, 2, "moved"));
    moves.addAll(SluiceSparkTest.rows(200, 50, 2, "same"));
    moves.addAll(SluiceSparkTest.rows(1_000, 60, 2, "new"));
    CommitResult moved = step("move", sparkDir, config,
        twin -> twin.upsert(SluiceSparkTest.records(moves, schema).iterator()),
        () -> SluiceSpark.upsert(spark.createDataFrame(moves, SluiceSparkTest.ROWS), sparkPath, options));
    // each moved key is deleted from its old partition's group and inserted anew: 100 deletes, 160 inserts
    assertEquals(160, moved.inserted());
    assertEquals(100, moved.files().stream().mapToLong(f -> f.numDeletes()).sum());
    Map<String, String> afterMove = SluiceSparkTest.contents(Tables.open(sparkPath));
    assertEquals(360, afterMove.size());
    assertTrue(afterMove.get("k000100").startsWith("p2/2/moved"), afterMove.get("k000100"));

    // deletes by key carrying the old partition: a global index finds the moved keys where they are now
    List<Row> gone = SluiceSparkTest.rows(90, 20, 9, "x");
    gone.addAll(SluiceSparkTest.rows(50_000, 5, 9, "unknown"));
    CommitResult deleted = step("delete", sparkDir, config,
        twin -> twin.delete(SluiceSparkTest.records(gone, schema).iterator()),
        () -> SluiceSpark.delete(spark.createDataFrame(gone, SluiceSparkTest.ROWS), sparkPath, options));
    assertEquals(20, deleted.files().stream().mapToLong(f -> f.numDeletes()).sum());
    Table written = Tables.open(sparkPath, config);
    // on Merge-on-Read the moved keys are in both groups' base files (the old copy deleted in a log only): the delete
    // finds the live copy (the newer base file), so every deleted key is gone on both table types
    assertEquals(340, SluiceSparkTest.contents(written).size());
    assertEquals(List.of(), MetadataTableChecks.problems(written.storage(), written.location()));
    assertEquals(recordIndex, Files.isDirectory(sparkDir.resolve(".hoodie/metadata/record_index")));
    if (recordIndex) {
      // Hudi 1.x's own record-index lookup (its JVM; the table is of version 9) finds exactly the live keys where
      // they are
      OracleBatch hudi = HudiOracle.locateHudi1().batch();
      OracleBatch.Pending<Map<String, String>> lookup = hudi.metadataRecordIndex(sparkDir, everKeys(),
          Optional.empty());
      hudi.run();
      assertEquals(RecordIndexChecks.truth(written), lookup.get());
    }
  }

  /** Every key the test writes or deletes. */
  private static List<String> everKeys() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 1_100; i++) {
      keys.add(String.format("k%06d", i));
    }
    for (int i = 50_000; i < 50_005; i++) {
      keys.add(String.format("k%06d", i));
    }
    return keys;
  }

  /**
   * A record index that names a file group the table does not have (for an existing key and for a new one) is not
   * trusted for those keys: they are looked up again in every partition's base files, as the engine does, so the
   * existing key is updated where it lives and the new one inserted, never duplicated.
   */
  @Test
  void aStaleRecordIndexLocationIsLookedUpAgainAsTheEngineDoes() {
    Map<String, String> engineOptions = new HashMap<>(SluiceSparkTest.SIZES);
    engineOptions.put("hoodie.index.type", "RECORD_INDEX");
    Map<String, String> options = new HashMap<>(engineOptions);
    options.putAll(Map.of(
        "hoodie.table.name", "trips",
        "hoodie.datasource.write.recordkey.field", "id",
        "hoodie.datasource.write.precombine.field", "ts",
        "hoodie.datasource.write.partitionpath.field", "part"));
    Path sparkDir = dir.resolve("spark");
    String sparkPath = sparkDir.toString();
    List<Row> first = SluiceSparkTest.rows(0, 300, 1, "a");
    SluiceSpark.insert(spark.createDataFrame(first, SluiceSparkTest.ROWS), sparkPath, options);
    Schema schema = SluiceSpark.tableSchema(spark.createDataFrame(first, SluiceSparkTest.ROWS), "trips");
    Table table = Tables.open(sparkPath);
    Map<String, RecordLocation> entries = new TreeMap<>(RecordIndexFixture.locations(table, "20260101000000000"));
    String ghost = "00000000-1111-2222-3333-444444444444-0";
    entries.put("k000003", new RecordLocation("p0", ghost, "20260101000000000"));
    entries.put("k009999", new RecordLocation("p1", ghost, "20260101000000000"));
    RecordIndexFixture.build(table.storage(), table.location(), 4, entries);
    // from now on the writes keep the record index (the insert above had none to keep)
    engineOptions.put("hoodie.metadata.record.index.enable", "true");
    options.put("hoodie.metadata.record.index.enable", "true");

    List<Row> batch = SluiceSparkTest.rows(0, 30, 2, "b");
    batch.addAll(SluiceSparkTest.rows(9_999, 1, 2, "new"));
    Config config = Config.of(engineOptions);
    step("stale", sparkDir, config, false, twin -> twin.upsert(SluiceSparkTest.records(batch, schema).iterator()),
        () -> SluiceSpark.upsert(spark.createDataFrame(batch, SluiceSparkTest.ROWS), sparkPath, options));
    Map<String, String> rows = SluiceSparkTest.contents(Tables.open(sparkPath));
    assertEquals(301, rows.size());
    assertTrue(rows.get("k000003").startsWith("p0/2/b"), rows.get("k000003"));
    assertTrue(rows.get("k009999").startsWith("p0/2/new"), rows.get("k009999"));
  }

  /**
   * One write by Spark to the table at {@code sparkDir} and by the engine to a copy taken before it: the same plan,
   * rows, files and commits; with a record index, both sides' indexes name exactly their live keys.
   */
  private CommitResult step(String name, Path sparkDir, Config config, Function<Table, CommitResult> byEngine,
      Supplier<CommitResult> bySpark) {
    return step(name, sparkDir, config, true, byEngine, bySpark);
  }

  /** As above; {@code checkIndex} false skips the record-index checks (an index made stale on purpose stays so). */
  private CommitResult step(String name, Path sparkDir, Config config, boolean checkIndex,
      Function<Table, CommitResult> byEngine, Supplier<CommitResult> bySpark) {
    Path twinDir = dir.resolve("twin-" + name);
    SluiceSparkTest.copyTree(sparkDir, twinDir);
    Table twin = Tables.open(twinDir.toString(), config);
    CommitResult expected = byEngine.apply(twin);
    CommitResult actual = bySpark.get();
    assertEquals(SluiceSparkTest.shape(expected), SluiceSparkTest.shape(actual), name + ": planned apart");
    Table written = Tables.open(sparkDir.toString(), config);
    assertEquals(SluiceSparkTest.contents(twin), SluiceSparkTest.contents(written), name);
    assertEquals(SluiceSparkTest.files(twinDir, ".parquet"), SluiceSparkTest.files(sparkDir, ".parquet"), name);
    assertEquals(SluiceSparkTest.files(twinDir, ".log."), SluiceSparkTest.files(sparkDir, ".log."), name);
    assertEquals(twin.inspect().timeline().size(), written.inspect().timeline().size(), name);
    if (checkIndex && Files.isDirectory(twinDir.resolve(".hoodie/metadata/record_index"))) {
      List<String> keys = everKeys();
      assertEquals(List.of(), RecordIndexChecks.problems(twin, keys), name + ": the engine's record index");
      assertEquals(List.of(), RecordIndexChecks.problems(written, keys), name + ": Spark's record index");
      assertEquals(RecordIndexChecks.indexed(twin.storage(), twin.location(), keys).keySet(),
          RecordIndexChecks.indexed(written.storage(), written.location(), keys).keySet(), name);
    }
    return actual;
  }

  /** {@code rows} each in the next partition ({@code p0 -> p1 -> p2 -> p0}). */
  private static List<Row> shifted(List<Row> rows) {
    List<Row> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      int p = Integer.parseInt(r.getString(1).substring(1));
      out.add(RowFactory.create(r.getString(0), "p" + ((p + 1) % 3), r.getLong(2), r.getString(3)));
    }
    return out;
  }
}
