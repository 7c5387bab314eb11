package dev.sluice.spark;

import dev.sluice.api.SluiceException;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.storage.Storages;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.InsertableRelation;
import org.apache.spark.sql.sources.PrunedFilteredScan;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A table of Spark's session catalog ({@code CREATE TABLE t ... USING sluice}) as Spark 3.5's V1 path sees it: it
 * reads as {@link SliceRelation} does, and takes {@code INSERT INTO t SELECT ...} / {@code VALUES ...} as one
 * Sluice-on-Spark write. Spark 3.5 resolves a session-catalog table of a non-file source to a V1 relation whatever
 * the source implements, so the insert arrives here ({@link InsertableRelation}) with the whole query as a Dataset,
 * which is what a Sluice write needs (it tags and plans before it knows which task writes which row).
 *
 * <p>The operation is Hudi's {@code hoodie.spark.sql.insert.into.operation}: {@code insert} by default, as in Hudi
 * 0.14/0.15 ({@code upsert} and {@code bulk_insert} on request), from the statement's session
 * ({@code SET hoodie.spark.sql.insert.into.operation=upsert}) or the table's options. {@code INSERT OVERWRITE} is
 * refused: Hudi writes it as a replace commit ({@code insert_overwrite}), which the engine does not write.
 */
final class SqlRelation extends BaseRelation implements PrunedFilteredScan, InsertableRelation {
  /** Hudi's SQL option naming the write an {@code INSERT INTO} runs. */
  static final String INSERT_INTO_OPERATION = "hoodie.spark.sql.insert.into.operation";
  /** Hudi's SQL table properties, accepted in {@code OPTIONS (...)} as its datasource names. */
  private static final Map<String, String> SQL_NAMES = Map.of("primarykey", SparkOptions.RECORD_KEY,
      "precombinefield", SparkOptions.PRECOMBINE, "type", SparkOptions.TABLE_TYPE);

  private final SQLContext sqlContext;
  private final Map<String, String> options;
  private final SliceRelation read;
  /** The catalog's columns, if it declares them; else the table's, meta columns first. */
  private final Optional<StructType> declared;
  private StructType schema;

  private SqlRelation(SQLContext sqlContext, Map<String, String> options, Optional<StructType> declared) {
    this.sqlContext = sqlContext;
    this.options = Map.copyOf(options);
    this.read = new SliceRelation(sqlContext, this.options);
    this.declared = declared.filter(d -> d.fields().length > 0);
  }

  /** The relation of an existing table with the catalog's options ({@code OPTIONS (...)} and its location). */
  static SqlRelation of(SQLContext sqlContext, Map<String, String> catalogOptions) {
    return new SqlRelation(sqlContext, options(catalogOptions), Optional.empty());
  }

  /**
   * The relation of {@code CREATE TABLE t (columns) USING sluice OPTIONS (...)}: the table at the location is
   * created from the declared columns (the meta columns left out) if it does not exist, with the options' record
   * key, ordering field, partition path, type and version; its name is {@code hoodie.table.name}, or the location's
   * last folder. An existing table is used as it is (its own schema and shape).
   */
  static SqlRelation create(SQLContext sqlContext, Map<String, String> catalogOptions, StructType declared) {
    Map<String, String> o = options(catalogOptions);
    String path = ReadOptions.of(o).path();
    SparkOptions parsed = SparkOptions.of(withName(o, path));
    if (!exists(path, parsed)) {
      StructType columns = new StructType(Arrays.stream(declared.fields())
          .filter(f -> !SparkRows.META.contains(f.name())).toArray(StructField[]::new));
      SluiceSpark.createTable(columns, path, parsed).close();
    }
    return new SqlRelation(sqlContext, o, Optional.of(declared));
  }

  @Override
  public SQLContext sqlContext() {
    return sqlContext;
  }

  /**
   * The catalog's columns when it declares them (a table created with columns shows those: {@code INSERT INTO t
   * VALUES (...)} then takes a value per declared column, as in Hudi's SQL), each with the table's type; else the
   * table's columns after the five meta columns, as {@code format("sluice")} reads it.
   */
  @Override
  public synchronized StructType schema() {
    if (schema == null) {
      StructType all = read.schema();
      schema = declared.map(d -> new StructType(Arrays.stream(d.fieldNames()).map(n -> field(all, n))
          .toArray(StructField[]::new))).orElse(all);
    }
    return schema;
  }

  private StructField field(StructType all, String name) {
    return Arrays.stream(all.fields()).filter(f -> f.name().equalsIgnoreCase(name)).findFirst()
        .orElseThrow(() -> SluiceException.badRequest("The catalog's column '" + name + "'",
            "the table at " + ReadOptions.of(options).path() + " has no such column (its columns: "
            + String.join(", ", all.fieldNames()) + ")", "declare the table's own columns, or none"));
  }

  @Override
  public boolean needConversion() {
    return read.needConversion();
  }

  @Override
  public RDD<Row> buildScan(String[] requiredColumns, Filter[] filters) {
    return read.buildScan(requiredColumns, filters);
  }

  /**
   * {@code INSERT INTO}: Spark has matched the query's columns to the table's (by position, or by name with
   * {@code BY NAME} or a column list) before this; the meta columns' values are not data and are dropped.
   */
  @Override
  public void insert(Dataset<Row> data, boolean overwrite) {
    String path = ReadOptions.of(options).path();
    if (overwrite) {
      throw SluiceException.unsupported("INSERT OVERWRITE into the sluice table at " + path,
          "Hudi writes it as a replace commit (insert_overwrite), which Sluice does not write. Delete the rows "
          + "with SluiceSpark.delete and INSERT INTO, or replace the whole table with "
          + "df.write.format(\"sluice\").mode(\"overwrite\")");
    }
    Map<String, String> o = withName(options, path);
    o.remove(ReadOptions.PATH);
    String op = sqlContext.getConf(INSERT_INTO_OPERATION, o.getOrDefault(INSERT_INTO_OPERATION, "insert"))
        .trim().toLowerCase(Locale.ROOT);
    if (!op.equals("insert") && !op.equals("upsert") && !op.equals("bulk_insert")) {
      throw SluiceException.badConfig(INSERT_INTO_OPERATION, op, "insert (the default), upsert or bulk_insert");
    }
    o.put(SparkOptions.OPERATION, op);
    Column[] columns = Arrays.stream(data.columns()).filter(c -> !SparkRows.META.contains(c))
        .map(data::col).toArray(Column[]::new);
    SluiceSpark.write(data.select(columns), path, o);
  }

  /** The catalog's options (keys in lower case, as Spark's V1 path passes them) with Hudi's SQL names mapped. */
  private static Map<String, String> options(Map<String, String> catalog) {
    Map<String, String> o = new HashMap<>(catalog);
    SQL_NAMES.forEach((sql, datasource) -> {
      String v = o.remove(sql);
      if (v != null) {
        o.putIfAbsent(datasource, v);
      }
    });
    return o;
  }

  private static Map<String, String> withName(Map<String, String> options, String path) {
    Map<String, String> o = new HashMap<>(options);
    if (o.getOrDefault(SparkOptions.TABLE_NAME, "").isBlank()) {
      String trimmed = path.replaceAll("/+$", "");
      o.put(SparkOptions.TABLE_NAME, trimmed.substring(trimmed.lastIndexOf('/') + 1).replaceAll("[^A-Za-z0-9_]", "_"));
    }
    return o;
  }

  private static boolean exists(String path, SparkOptions options) {
    Storage storage = Storages.forLocation(path, options.engineOptions());
    String properties = StoragePaths.join(StoragePaths.join(path, ".hoodie"), "hoodie.properties");
    try {
      return storage.info(properties).isPresent();
    } catch (IOException e) {
      throw SluiceException.storage("look for", properties, e);
    }
  }
}
