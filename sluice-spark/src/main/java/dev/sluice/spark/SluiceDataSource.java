package dev.sluice.spark;

import dev.sluice.api.SluiceException;
import dev.sluice.storage.Storage;
import dev.sluice.storage.StoragePaths;
import dev.sluice.storage.Storages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.CreatableRelationProvider;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.sources.RelationProvider;
import org.apache.spark.sql.sources.SchemaRelationProvider;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.collection.JavaConverters;

/**
 * The {@code sluice} data source: {@code spark.read.format("sluice").load(path)} reads through DataSource V2
 * ({@link SluiceTable}), {@code df.write.format("sluice").save(path)} writes through {@link SluiceSpark} with
 * Hudi's datasource option names. The table declares no V2 batch write, so Spark saves through
 * {@link #createRelation} (its V1 path), which also gives every save mode its meaning, as Hudi 0.15's datasource
 * does: Append writes to the table or creates it; Overwrite deletes an existing table's directory and writes a new
 * table (a delete refuses it); ErrorIfExists refuses an existing table; Ignore leaves an existing table alone.
 */
public final class SluiceDataSource implements TableProvider, DataSourceRegister, CreatableRelationProvider,
    RelationProvider, SchemaRelationProvider {
  /** The short name: {@code format("sluice")}. */
  public static final String NAME = "sluice";

  @Override
  public String shortName() {
    return NAME;
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return new SluiceTable(options.asCaseSensitiveMap()).schema();
  }

  /**
   * Takes Spark's schema without reading the table's: Spark passes the Dataset's schema on a write (the table may
   * not exist yet) and the catalog's on a {@code CREATE TABLE}; the table reads its own when a query asks.
   */
  @Override
  public boolean supportsExternalMetadata() {
    return true;
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return new SluiceTable(properties);
  }

  /**
   * The V1 read, which Spark 3.5 uses for a table of its session catalog ({@code CREATE TABLE ... USING sluice});
   * {@code spark.read} uses the V2 read. Both plan and read the same way ({@link SliceRelation}).
   */
  @Override
  public BaseRelation createRelation(SQLContext sqlContext, scala.collection.immutable.Map<String, String> parameters) {
    return SqlRelation.of(sqlContext, JavaConverters.mapAsJavaMapConverter(parameters).asJava());
  }

  /**
   * The V1 relation of a catalog table declared with columns ({@code CREATE TABLE t (...) USING sluice}), which
   * creates the table when its location has none ({@link SqlRelation#create}); it reads and takes
   * {@code INSERT INTO} as {@link #createRelation(SQLContext, scala.collection.immutable.Map)}'s does.
   */
  @Override
  public BaseRelation createRelation(SQLContext sqlContext, scala.collection.immutable.Map<String, String> parameters,
      StructType schema) {
    return SqlRelation.create(sqlContext, JavaConverters.mapAsJavaMapConverter(parameters).asJava(), schema);
  }

  @Override
  public BaseRelation createRelation(SQLContext sqlContext, SaveMode mode,
      scala.collection.immutable.Map<String, String> parameters, Dataset<Row> data) {
    Map<String, String> options = new HashMap<>(JavaConverters.mapAsJavaMapConverter(parameters).asJava());
    String path = Optional.ofNullable(options.remove(ReadOptions.PATH)).filter(p -> !p.isBlank())
        .orElseThrow(() -> SluiceException.badConfig(ReadOptions.PATH, "(missing)",
            "the table's base path: df.write.format(\"sluice\").save(path)"));
    save(mode, data, path, options);
    return new Relation(sqlContext, path);
  }

  /** Writes {@code data} to the table at {@code path} with the meaning of {@code mode} (see the class comment). */
  static void save(SaveMode mode, Dataset<Row> data, String path, Map<String, String> options) {
    Map<String, String> o = new HashMap<>(options);
    SparkOptions parsed = SparkOptions.of(o);
    Storage storage = Storages.forLocation(path, parsed.engineOptions());
    Optional<String> existing = tableName(storage, path, parsed);
    if (parsed.operation() == dev.sluice.api.WriteOperation.DELETE && mode != SaveMode.Append) {
      throw SluiceException.badRequest("A delete through format(\"sluice\") with SaveMode." + mode,
          "a delete applies to an existing table", "use SaveMode.Append (mode(\"append\"))");
    }
    if (existing.isPresent()) {
      switch (mode) {
        case ErrorIfExists -> throw SluiceException.badRequest("Writing with SaveMode.ErrorIfExists to " + path,
            "a Hudi table (" + existing.get() + ") already exists there",
            "use SaveMode.Append to write to it, or SaveMode.Overwrite to replace it");
        case Ignore -> {
          return;
        }
        case Overwrite -> deleteTable(storage, path);
        case Append -> {
          if (!parsed.tableName().isBlank() && !parsed.tableName().equals(existing.get())) {
            throw SluiceException.badConfig(SparkOptions.TABLE_NAME, parsed.tableName(),
                "the name of the table at " + path + ", '" + existing.get() + "'");
          }
        }
        default -> throw new IllegalStateException("save mode " + mode);
      }
    }
    SluiceSpark.write(data, path, o);
  }

  private static Optional<String> tableName(Storage storage, String path, SparkOptions options) {
    String properties = StoragePaths.join(StoragePaths.join(path, ".hoodie"), "hoodie.properties");
    try {
      if (storage.info(properties).isEmpty()) {
        return Optional.empty();
      }
    } catch (IOException e) {
      throw SluiceException.storage("Looking for the table", properties, e);
    }
    try (dev.sluice.api.Table t = dev.sluice.api.Tables.open(path, options.config())) {
      return Optional.of(t.inspect().properties().getOrDefault(SparkOptions.TABLE_NAME, ""));
    }
  }

  /** SaveMode.Overwrite, as Hudi 0.15: the table's directory goes, and the write creates the table again. */
  private static void deleteTable(Storage storage, String path) {
    try {
      storage.deleteRecursively(path);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not delete the table at " + path + " to overwrite it", e);
    }
  }

  /** What a save returns to Spark: the table just written, read as the data source reads it. */
  private static final class Relation extends BaseRelation {
    private final SQLContext sqlContext;
    private final String path;

    Relation(SQLContext sqlContext, String path) {
      this.sqlContext = sqlContext;
      this.path = path;
    }

    @Override
    public SQLContext sqlContext() {
      return sqlContext;
    }

    @Override
    public StructType schema() {
      return new SluiceTable(Map.of(ReadOptions.PATH, path)).schema();
    }
  }
}
