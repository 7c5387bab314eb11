package dev.sluice.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CommitInfo;
import dev.sluice.api.QueryType;
import dev.sluice.api.SluiceException;
import dev.sluice.api.Table;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SQL writes on {@code local[2]}: {@code CREATE TABLE ... USING sluice} with columns creates the Hudi table at its
 * location (at the first statement on it) with the options' key, ordering field, partitioning and type;
 * {@code INSERT INTO ... VALUES} and {@code INSERT INTO ... SELECT} write it with Hudi's
 * {@code hoodie.spark.sql.insert.into.operation} ({@code insert} by default, {@code upsert} when set), and
 * {@code SELECT} returns what the engine's scan reads and the writes' model expects; {@code CREATE TABLE ... AS
 * SELECT} writes the query's rows, and a later insert set to {@code bulk_insert} is one. A table declared without
 * columns over an existing one shows the meta columns first and takes an insert with a column list or
 * {@code BY NAME}. {@code INSERT OVERWRITE} and an unknown operation are refused by name, and leave the table as it
 * was.
 */
class SparkSqlWriteTest {
  private static SparkSession spark;
  @TempDir
  static Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.builder("sluice-sql-write-test").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  /** {@code CREATE TABLE name (id, part, ts, payload) USING sluice} at {@code path} with Hudi's SQL table names. */
  static void create(SparkSession spark, String name, TableType type, String path, String extraOptions) {
    spark.sql("CREATE TABLE " + name + " (id STRING, part STRING, ts BIGINT, payload STRING) USING sluice OPTIONS ("
        + "primaryKey 'id', preCombineField 'ts', 'hoodie.datasource.write.partitionpath.field' 'part', type '"
        + (type == TableType.MERGE_ON_READ ? "mor" : "cow") + "'" + extraOptions + ") LOCATION '" + path + "'");
  }

  /** The inserts of {@link #insertInto}: what the table must hold after them, key to part/ts/payload. */
  static Map<String, String> insertInto(SparkSession spark, String name) {
    Map<String, String> model = new TreeMap<>();
    spark.sql("INSERT INTO " + name + " VALUES ('k1', 'p0', 1, 'a'), ('k2', 'p1', 1, 'b'), ('k3', 'p0', 1, 'c')");
    model.putAll(Map.of("k1", "p0/1/a", "k2", "p1/1/b", "k3", "p0/1/c"));
    spark.createDataFrame(InteropRows.rows(0, 30, 2, "s"), InteropRows.SCHEMA).createOrReplaceTempView("sql_src");
    spark.sql("INSERT INTO " + name + " SELECT id, part, ts, payload FROM sql_src WHERE ts = 2");
    InteropRows.upsert(model, InteropRows.rows(0, 30, 2, "s"));
    spark.sql("SET " + SqlRelation.INSERT_INTO_OPERATION + "=upsert");
    try {
      spark.sql("INSERT INTO " + name + " SELECT 'k1', 'p0', 3, 'u' UNION ALL SELECT 'k000004', 'p1', 3, 'u4'");
    } finally {
      spark.sql("RESET " + SqlRelation.INSERT_INTO_OPERATION);
    }
    model.putAll(Map.of("k1", "p0/3/u", "k000004", "p1/3/u4"));
    return model;
  }

  static Map<String, String> rows(List<Row> rows) {
    Map<String, String> out = new TreeMap<>();
    rows.forEach(r -> assertEquals(null, out.put(r.getAs("id"), r.getAs("part") + "/" + r.getAs("ts") + "/"
        + r.getAs("payload")), "key twice: " + r.getAs("id")));
    return out;
  }

  @ParameterizedTest
  @EnumSource(TableType.class)
  void createInsertIntoAndSelect(TableType type) {
    String name = "sql_" + type.name().toLowerCase(Locale.ROOT);
    String path = dir.resolve(name).toString();
    create(spark, name, type, path, "");
    try {
      // Spark 3.5 records the CREATE in its catalog only; the first statement on the table creates the Hudi table
      assertEquals(0, spark.sql("SELECT count(*) FROM " + name).first().getLong(0));
      Table table = Tables.open(path);
      assertEquals(type, table.type());
      assertEquals("id", table.inspect().properties().get("hoodie.table.recordkey.fields"));
      assertEquals("part", table.inspect().properties().get("hoodie.table.partition.fields"));
      assertEquals(name, table.inspect().properties().get("hoodie.table.name"), "named after its location");

      Map<String, String> model = insertInto(spark, name);
      assertEquals(model, rows(spark.sql("SELECT * FROM " + name).collectAsList()));
      assertEquals(List.of("id", "part", "ts", "payload"), List.of(spark.table(name).columns()),
          "the declared columns");
      assertEquals(model, InteropRows.sluiceRead(Path.of(path), QueryType.SNAPSHOT), "the engine reads the same");
      assertEquals(2, spark.sql("SELECT count(*) FROM " + name + " WHERE ts = 3").first().getLong(0));
      assertEquals(List.of("INSERT", "INSERT", "UPSERT"), Tables.open(path).inspect().completedCommits().values()
          .stream().map(CommitInfo::operation).toList(), "insert by default, as Hudi 0.15's SQL; upsert when set");
    } finally {
      spark.sql("DROP TABLE " + name);
    }
  }

  @Test
  void aTableOverAnExistingOneShowsTheMetaColumnsAndTakesAColumnList() {
    String path = dir.resolve("existing").toString();
    SluiceSpark.insert(spark.createDataFrame(InteropRows.rows(0, 10, 1, "a"), InteropRows.SCHEMA), path,
        InteropRows.options(TableType.COPY_ON_WRITE));
    spark.sql("CREATE TABLE existing USING sluice LOCATION '" + path + "'");
    try {
      assertEquals("_hoodie_commit_time", spark.table("existing").columns()[0]);
      spark.sql("INSERT INTO existing (id, part, ts, payload) VALUES ('k000001', 'p1', 2, 'b'), ('n1', 'p0', 2, 'n')");
      spark.sql("INSERT INTO existing BY NAME SELECT 3L AS ts, 'n2' AS id, 'p2' AS part, 'm' AS payload");
      Map<String, String> model = new TreeMap<>();
      InteropRows.upsert(model, InteropRows.rows(0, 10, 1, "a"));
      model.putAll(Map.of("k000001", "p1/2/b", "n1", "p0/2/n", "n2", "p2/3/m"));
      assertEquals(model, rows(spark.sql("SELECT * FROM existing").collectAsList()));
      assertEquals(model, InteropRows.sluiceRead(Path.of(path), QueryType.SNAPSHOT));
    } finally {
      spark.sql("DROP TABLE existing");
    }
  }

  @Test
  void createTableAsSelectWritesTheQueryThroughTheDataSource() {
    String path = dir.resolve("ctas").toString();
    spark.createDataFrame(InteropRows.rows(0, 20, 1, "c"), InteropRows.SCHEMA).createOrReplaceTempView("ctas_src");
    spark.sql("CREATE TABLE ctas USING sluice OPTIONS ('hoodie.table.name' 'trips', "
        + "'hoodie.datasource.write.recordkey.field' 'id', 'hoodie.datasource.write.partitionpath.field' 'part') "
        + "LOCATION '" + path + "' AS SELECT * FROM ctas_src");
    try {
      Map<String, String> model = new TreeMap<>();
      InteropRows.upsert(model, InteropRows.rows(0, 20, 1, "c"));
      assertEquals(model, rows(spark.sql("SELECT * FROM ctas").collectAsList()));
      assertEquals(model, InteropRows.sluiceRead(Path.of(path), QueryType.SNAPSHOT));
      assertEquals(List.of("id", "part", "ts", "payload"), List.of(spark.table("ctas").columns()));
      spark.sql("INSERT INTO ctas VALUES ('n1', 'p0', 2, 'n')");
      model.put("n1", "p0/2/n");
      spark.sql("SET " + SqlRelation.INSERT_INTO_OPERATION + "=bulk_insert");
      try {
        spark.sql("INSERT INTO ctas VALUES ('n2', 'p1', 2, 'b')");
      } finally {
        spark.sql("RESET " + SqlRelation.INSERT_INTO_OPERATION);
      }
      model.put("n2", "p1/2/b");
      assertEquals(model, InteropRows.sluiceRead(Path.of(path), QueryType.SNAPSHOT));
      List<String> operations = Tables.open(path).inspect().completedCommits().values().stream()
          .map(CommitInfo::operation).toList();
      assertEquals(List.of("INSERT", "BULK_INSERT"), operations.subList(operations.size() - 2, operations.size()));
    } finally {
      spark.sql("DROP TABLE ctas");
    }
  }

  @Test
  void insertOverwriteAndUnknownOperationsAreRefusedByName() {
    String path = dir.resolve("refused").toString();
    create(spark, "refused", TableType.COPY_ON_WRITE, path, "");
    try {
      spark.sql("INSERT INTO refused VALUES ('k1', 'p0', 1, 'a')");
      SluiceException overwrite = assertThrows(SluiceException.class,
          () -> spark.sql("INSERT OVERWRITE refused VALUES ('k2', 'p0', 1, 'b')"));
      assertTrue(overwrite.getMessage().contains("INSERT OVERWRITE") && overwrite.getMessage().contains("replace"),
          overwrite.getMessage());
      spark.sql("SET " + SqlRelation.INSERT_INTO_OPERATION + "=delete");
      try {
        SluiceException op = assertThrows(SluiceException.class,
            () -> spark.sql("INSERT INTO refused VALUES ('k3', 'p0', 1, 'c')"));
        assertTrue(op.getMessage().contains(SqlRelation.INSERT_INTO_OPERATION), op.getMessage());
      } finally {
        spark.sql("RESET " + SqlRelation.INSERT_INTO_OPERATION);
      }
      assertEquals(Map.of("k1", "p0/1/a"), rows(spark.sql("SELECT * FROM refused").collectAsList()));
      assertEquals(1, Tables.open(path).inspect().completedCommits().size());
    } finally {
      spark.sql("DROP TABLE refused");
    }
  }
}
