package dev.sluice.spark;

import dev.sluice.api.FileSliceInfo;
import dev.sluice.api.QueryType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;
import org.apache.spark.sql.execution.datasources.parquet.ParquetToSparkSchemaConverter;
import org.apache.spark.sql.execution.datasources.parquet.ParquetUtils;
import org.apache.spark.sql.execution.datasources.parquet.VectorizedParquetRecordReader;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.Option;

/**
 * The columnar path for base files: a base file holds exactly the rows a read-optimized read of its slice returns
 * (log files are not read, nothing is merged), as does a snapshot of a slice without log files, so such slices are
 * read by Spark's own vectorized Parquet reader into column batches, as Spark reads Parquet tables, instead of
 * record by record through the engine. Taken only where both paths give the same rows: a read-optimized query, or
 * a snapshot whose every slice is a base file alone (Copy-on-Write), without time travel, on local files, of
 * columns Spark reads in batches, each of them present in every base file with the type Spark asks for (a column
 * added later, a widened type or a table without meta columns keeps the engine's path, which fills them in). The
 * engine still plans the slices (partition pruning); the filters stay with Spark, which applies them after the
 * scan, as on the row path.
 */
final class ColumnarBase {
  private static final int BATCH = 4096;
  private static final int KEEP = 16;
  private static final Map<Map<String, String>, Configuration> CONFS = new ConcurrentHashMap<>();
  /**
   * Whether this class links against the Parquet classes Spark's reader is built on. In sluice-spark-bundle they are
   * not: the bundle relocates its Parquet, so a footer it reads cannot be handed to Spark's schema converter, and
   * base files there keep the engine's row path.
   */
  private static final boolean SPARKS_PARQUET = sparksParquet();

  private ColumnarBase() {
  }

  /**
   * The input partitions of the columnar path for {@code slices}, or empty where the engine's row path must read
   * them. Reads each base file's footer (its schema) on the driver.
   */
  static Optional<InputPartition[]> plan(ReadOptions read, StructType required, List<FileSliceInfo> slices) {
    boolean baseOnly = read.queryType() == QueryType.READ_OPTIMIZED || read.queryType() == QueryType.SNAPSHOT
        && slices.stream().allMatch(s -> s.logFiles().isEmpty());
    if (!SPARKS_PARQUET || !baseOnly || read.asOf().isPresent() || slices.isEmpty() || !local(read.path())) {
      return Optional.empty();
    }
    SQLConf sql = SparkSession.active().sessionState().conf();
    if (!ParquetUtils.isBatchReadSupportedForSchema(sql, required)) {
      return Optional.empty();
    }
    Map<String, String> settings = settings(sql, required);
    Configuration conf = conf(settings);
    ParquetToSparkSchemaConverter converter = new ParquetToSparkSchemaConverter(conf);
    List<InputPartition> out = new ArrayList<>(slices.size());
    for (FileSliceInfo s : slices) {
      if (s.baseFile().isEmpty() || !s.baseFile().get().fileName().endsWith(".parquet")) {
        return Optional.empty();
      }
      Path file = new Path(s.baseFile().get().path());
      StructType fileSchema;
      try (ParquetFileReader footer = ParquetFileReader.open(HadoopInputFile.fromPath(file, conf),
          HadoopReadOptions.builder(conf, file).withMetadataFilter(ParquetMetadataConverter.SKIP_ROW_GROUPS).build())) {
        fileSchema = converter.convert(footer.getFileMetaData().getSchema());
      } catch (IOException e) {
        throw new UncheckedIOException("Could not read the footer of " + file, e);
      }
      if (!holds(fileSchema, required)) {
        return Optional.empty();
      }
      out.add(new BasePartition(file.toString(), s.baseFile().get().size(), settings));
    }
    return Optional.of(out.toArray(InputPartition[]::new));
  }

  private static boolean sparksParquet() {
    try {
      ParquetToSparkSchemaConverter.class.getMethod("convert", MessageType.class);
      return true;
    } catch (NoSuchMethodException relocated) {
      // the answer, not a failure: the bundle's relocated MessageType is not the type Spark's converter takes
      return false;
    }
  }

  private static boolean local(String path) {
    String scheme = URI.create(path.replace(" ", "%20")).getScheme();
    return scheme == null || "file".equals(scheme);
  }

  /** Every required column is in the file, of the same type (nullability aside). */
  private static boolean holds(StructType file, StructType required) {
    for (StructField f : required.fields()) {
      Option<Object> at = file.getFieldIndex(f.name());
      if (at.isEmpty() || !file.fields()[(Integer) at.get()].dataType().sameType(f.dataType())) {
        return false;
      }
    }
    return true;
  }

  /** What Spark's Parquet reader takes from its Hadoop configuration, set as Spark's own Parquet source sets it. */
  private static Map<String, String> settings(SQLConf sql, StructType required) {
    Map<String, String> m = new HashMap<>();
    m.put(ParquetInputFormat.READ_SUPPORT_CLASS, ParquetReadSupport.class.getName());
    m.put(ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA(), required.json());
    m.put(SQLConf.SESSION_LOCAL_TIMEZONE().key(), sql.sessionLocalTimeZone());
    m.put(SQLConf.NESTED_SCHEMA_PRUNING_ENABLED().key(), Boolean.toString(sql.nestedSchemaPruningEnabled()));
    m.put(SQLConf.CASE_SENSITIVE().key(), Boolean.toString(sql.caseSensitiveAnalysis()));
    m.put(SQLConf.PARQUET_BINARY_AS_STRING().key(), Boolean.toString(sql.isParquetBinaryAsString()));
    m.put(SQLConf.PARQUET_INT96_AS_TIMESTAMP().key(), Boolean.toString(sql.isParquetINT96AsTimestamp()));
    m.put(SQLConf.PARQUET_INFER_TIMESTAMP_NTZ_ENABLED().key(),
        Boolean.toString(sql.parquetInferTimestampNTZEnabled()));
    m.put(SQLConf.LEGACY_PARQUET_NANOS_AS_LONG().key(), Boolean.toString(sql.legacyParquetNanosAsLong()));
    return Map.copyOf(m);
  }

  /**
   * The reader's configuration for {@code settings}, made once per JVM and query: a new Hadoop configuration
   * parses Hadoop's default XML resources, which cost more CPU than reading a small base file (a third of a
   * read-optimized read's samples when made per file). The readers only read it.
   */
  private static Configuration conf(Map<String, String> settings) {
    Configuration c = CONFS.get(settings);
    if (c != null) {
      return c;
    }
    if (CONFS.size() >= KEEP) {
      CONFS.clear();
    }
    return CONFS.computeIfAbsent(settings, s -> {
      Configuration conf = new Configuration();
      s.forEach(conf::set);
      return conf;
    });
  }

  /**
   * One base file read whole in column batches.
   *
   * @param path the file
   * @param length its length in bytes
   * @param settings the reader's configuration ({@link #settings})
   */
  record BasePartition(String path, long length, Map<String, String> settings) implements InputPartition {
  }

  /** Opens Spark's vectorized Parquet reader per base file, in the task. */
  static final class Factory implements PartitionReaderFactory {
    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      throw new UnsupportedOperationException("base files of the columnar path are read in column batches");
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
      return true;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
      BasePartition p = (BasePartition) partition;
      VectorizedParquetRecordReader reader = new VectorizedParquetRecordReader(false, BATCH);
      try {
        reader.initialize(new FileSplit(new Path(p.path()), 0, p.length(), new String[0]),
            new TaskAttemptContextImpl(conf(p.settings()), new TaskAttemptID()));
        reader.initBatch(null, null);
      } catch (IOException e) {
        throw closing(reader, new UncheckedIOException("Could not open " + p.path(), e));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw closing(reader, new IllegalStateException("Interrupted opening " + p.path(), e));
      } catch (RuntimeException e) {
        throw closing(reader, e);
      }
      return new PartitionReader<>() {
        @Override
        public boolean next() throws IOException {
          return reader.nextBatch();
        }

        @Override
        public ColumnarBatch get() {
          return reader.resultBatch();
        }

        @Override
        public void close() throws IOException {
          reader.close();
        }
      };
    }

    /** Closes {@code reader} after {@code failure}, a failure to close kept beside it. */
    private static RuntimeException closing(VectorizedParquetRecordReader reader, RuntimeException failure) {
      try {
        reader.close();
      } catch (IOException | RuntimeException e) {
        failure.addSuppressed(e);
      }
      return failure;
    }
  }
}
