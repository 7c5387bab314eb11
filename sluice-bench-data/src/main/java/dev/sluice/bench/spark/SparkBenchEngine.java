package dev.sluice.bench.spark;

import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.steps.Engine;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * A table format on Spark ({@code local[N]}, N the bench's parallelism) as a benchmark {@link Engine}, through
 * Spark's DataFrame API only: writes are {@code df.write.format(F)} with Hudi's datasource option names and the
 * operation ({@code bulk_insert}, {@code insert}, {@code upsert}, {@code delete}), reads
 * {@code spark.read.format(F)} with the query type. Both Spark engines run this same code on the same Datasets with
 * the options the Java engines get (BLOOM index, snappy, the bench's small-file limit, file and row-group sizes,
 * log block format, metadata table setting, no combining of inserts); a side adds its session settings, its own
 * options, how it creates an empty table and how it compacts.
 *
 * <p>A write's batch is made into a Dataset before the clock starts ({@link #stage}: the rows of
 * {@link SparkBenchRows}, checkpointed in Spark's block manager), the same way for both Spark engines, so the step
 * times the write of a Dataset, as a Spark job that reads its input from storage has one. A read
 * aggregates the row count, the sum of {@code ts} and a hash of every column (meta columns included), so every
 * column is read and nothing is collected on the driver. The plain Parquet reference of the Spark workloads
 * (sluice-bench's spark-parquet) extends this class for the same session, staged input ({@link #input}) and
 * aggregate ({@link #aggregate}), and writes and reads on its own.
 */
public abstract class SparkBenchEngine implements Engine {
  private final String format;
  private final SparkSession spark;
  private final Map<String, String> options;
  private final Map<Path, Boolean> created = new HashMap<>();
  private final boolean defaultMor;
  private Dataset<Row> staged;
  private List<GenericRecord> stagedFor;

  /**
   * Starts the engine's Spark session (before any step, so no step's clock counts it).
   *
   * @param format the data source name ({@code sluice}, {@code hudi}; {@code parquet} for the plain Parquet
   *     reference, which writes and reads on its own)
   * @param sessionConf the side's own Spark settings (serializer, extensions)
   * @param sideOptions the side's own write options, on top of the common ones
   */
  protected SparkBenchEngine(StepArgs args, String format, Map<String, String> sessionConf,
      Map<String, String> sideOptions) {
    this.format = format;
    String parallelism = args.get("parallelism");
    SparkSession.Builder b = SparkSession.builder().master("local[" + parallelism + "]")
        .appName("sluice-bench-" + format)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", parallelism)
        .config("spark.default.parallelism", parallelism);
    sessionConf.forEach(b::config);
    this.spark = b.getOrCreate();
    this.defaultMor = args.find("type").map("mor"::equals).orElse(false);
    Map<String, String> m = new LinkedHashMap<>();
    m.put("hoodie.table.name", "bench");
    m.put("hoodie.datasource.write.recordkey.field", BenchRecords.KEY);
    m.put("hoodie.datasource.write.precombine.field", BenchRecords.ORDERING);
    m.put("hoodie.datasource.write.partitionpath.field", BenchRecords.PARTITION);
    m.put("hoodie.datasource.write.hive_style_partitioning", "false");
    m.put("hoodie.index.type", "BLOOM");
    m.put("hoodie.parquet.compression.codec", "snappy");
    m.put("hoodie.parquet.small.file.limit", args.get("small-file-limit"));
    m.put("hoodie.parquet.max.file.size", args.get("max-file-size"));
    m.put("hoodie.parquet.block.size", args.get("max-file-size"));
    m.put("hoodie.parquet.page.size", "1048576");
    m.put("hoodie.logfile.data.block.format", args.find("log-format").orElse("avro"));
    m.put("hoodie.metadata.enable", args.find("metadata-table").orElse("false"));
    m.put("hoodie.combine.before.insert", "false");
    m.put("hoodie.combine.before.upsert", "true");
    // as the Java engines: the inputs are on the heap already, so half of it before a merge spills
    m.put("hoodie.memory.merge.max.size", Long.toString(Runtime.getRuntime().maxMemory() / 2));
    m.putAll(sideOptions);
    this.options = Map.copyOf(m);
  }

  /** The Spark session. */
  protected SparkSession spark() {
    return spark;
  }

  /** The write options of a table of this type (Hudi's datasource names). */
  protected Map<String, String> options(boolean mergeOnRead) {
    Map<String, String> m = new HashMap<>(options);
    m.put("hoodie.datasource.write.table.type", mergeOnRead ? "MERGE_ON_READ" : "COPY_ON_WRITE");
    return m;
  }

  /** The type the step's table has: as created in this JVM, else the step's {@code --type}. */
  protected boolean mergeOnRead(Path table) {
    return created.getOrDefault(table, defaultMor);
  }

  /** Creates the empty table, or leaves it to the first write (Hudi's data source creates it then). */
  protected abstract void createTable(Path table, boolean mergeOnRead);

  @Override
  public final void create(Path table, boolean mergeOnRead) {
    created.put(table, mergeOnRead);
    createTable(table, mergeOnRead);
  }

  /**
   * Makes the batch's Dataset before the clock: the rows converted and checkpointed into Spark's block manager
   * ({@code localCheckpoint}), so the write's plan is a scan of those blocks. A Dataset of a local list keeps the
   * rows in its plan (a {@code LocalRelation}), and every analysis, optimisation and planning of it copies them: a
   * third of a bulk insert's samples on either Spark engine went there, and how often an engine plans its input
   * is not what the step measures. Both Spark engines get the same staged Dataset.
   */
  @Override
  public void stage(List<GenericRecord> records) {
    staged = spark.createDataFrame(SparkBenchRows.rows(records), SparkBenchRows.SCHEMA).localCheckpoint(true);
    stagedFor = records;
  }

  /**
   * The Dataset of a write's {@code records}: the one {@link #stage} made of them (handed over once), else made now.
   */
  protected Dataset<Row> input(List<GenericRecord> records) {
    Dataset<Row> df = stagedFor == records ? staged
        : spark.createDataFrame(SparkBenchRows.rows(records), SparkBenchRows.SCHEMA);
    staged = null;
    stagedFor = null;
    return df;
  }

  @Override
  public void write(Path table, Op op, List<GenericRecord> records) {
    Dataset<Row> df = input(records);
    String operation = switch (op) {
      case BULK_INSERT -> "bulk_insert";
      case INSERT -> "insert";
      case UPSERT -> "upsert";
      case DELETE -> "delete";
    };
    df.write().format(format).options(options(mergeOnRead(table)))
        .option("hoodie.datasource.write.operation", operation)
        .mode(SaveMode.Append)
        .save(table.toString());
  }

  @Override
  public ReadResult read(Path table, boolean snapshot) {
    Dataset<Row> df = spark.read().format(format)
        .option("hoodie.datasource.query.type", snapshot ? "snapshot" : "read_optimized")
        .option("hoodie.metadata.enable", options.get("hoodie.metadata.enable"))
        .load(table.toString());
    return aggregate(df);
  }

  /**
   * The read's one job over {@code df}: its row count, the sum of {@code ts} and the sum of a hash of every column,
   * so every column is read and nothing but one row reaches the driver.
   */
  protected static ReadResult aggregate(Dataset<Row> df) {
    Column[] all = Arrays.stream(df.columns()).map(functions::col).toArray(Column[]::new);
    Row r = df.agg(functions.count(functions.lit(1)), functions.sum(functions.col(BenchRecords.ORDERING)),
        functions.sum(functions.hash(all))).first();
    return new ReadResult(r.getLong(0), r.isNullAt(1) ? 0 : r.getLong(1));
  }

  @Override
  public KeyLookup openLookup(Path table) {
    throw new UnsupportedOperationException("point lookups (W5) are not run on Spark");
  }
}
