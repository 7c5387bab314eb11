package dev.sluice.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.sluice.api.CommitResult;
import dev.sluice.api.Config;
import dev.sluice.api.MergeMode;
import dev.sluice.api.TableSpec;
import dev.sluice.api.TableType;
import dev.sluice.api.Tables;
import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.spark.SparkBenchRows;
import dev.sluice.spark.SluiceSpark;
import dev.sluice.spark.cluster.StandaloneCluster;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The driver of one scaling run ({@link ClusterBench}), in its own JVM on sluice-spark's class path: starts a
 * standalone cluster ({@link StandaloneCluster}) of N Workers on 127.0.0.1, one core each, an application with one
 * executor per Worker on this JVM's class path, bulk-inserts the table (records generated in the executors, so the
 * driver ships none), then times one upsert. Prints one line
 * {@code CLUSTER executors=N records=L upsert=U load_s=... upsert_s=... executor_cpu_s=... driver_cpu_s=...
 * inserted=... updated=...}; the CPU seconds are the executor JVMs' whole process time (tasks, JIT, GC) and the
 * driver JVM's, over the upsert only.
 */
public final class SparkClusterWorker {
  private static final int CHUNK = 1000;

  private SparkClusterWorker() {
  }

  /**
   * Runs one scaling run and exits.
   *
   * @param args Spark's class path file, executors, table records, upsert records, {@code mor|cow}, executor
   *     memory, work folder, seed
   * @throws IOException if the work folder cannot be written
   */
  public static void main(String[] args) throws IOException {
    List<Path> sparkJars = ClusterBench.sparkJars(Path.of(args[0]));
    int executors = Integer.parseInt(args[1]);
    long records = Long.parseLong(args[2]);
    long upsert = Long.parseLong(args[3]);
    boolean mor = args[4].equals("mor");
    String memory = args[5];
    Path work = Files.createDirectories(Path.of(args[6]));
    long seed = Long.parseLong(args[7]);
    try (StandaloneCluster cluster = StandaloneCluster.start(work.resolve("cluster"), sparkJars,
        Collections.nCopies(executors, "127.0.0.1"), memory)) {
      SparkSession spark = session(cluster.masterUrl(), executors, memory);
      try {
        String table = work.resolve("table").toString();
        Map<String, String> options = options(mor);
        create(table, mor, options);
        int partitions = 2 * executors;
        long t0 = System.nanoTime();
        SluiceSpark.bulkInsert(generated(spark, seed, 0, records, 1, partitions), table, options);
        double load = (System.nanoTime() - t0) / 1e9;

        double executorCpu0 = cpuSeconds(cluster.executors());
        double driverCpu0 = driverCpuSeconds();
        long t1 = System.nanoTime();
        // indices below the table's size are updates (spread over every file group: keys are scrambled), the
        // rest new keys
        CommitResult r = SluiceSpark.upsert(generated(spark, seed, 0, upsert, 2, partitions), table, options);
        double upsertSeconds = (System.nanoTime() - t1) / 1e9;
        double executorCpu = cpuSeconds(cluster.executors()) - executorCpu0;
        double driverCpu = driverCpuSeconds() - driverCpu0;
        System.out.println(String.format(Locale.ROOT, "CLUSTER executors=%d records=%d upsert=%d load_s=%.3f "
            + "upsert_s=%.3f executor_cpu_s=%.3f driver_cpu_s=%.3f inserted=%d updated=%d", executors, records,
            upsert, load, upsertSeconds, executorCpu, driverCpu, r.inserted(), r.updated()));
      } finally {
        spark.stop();
      }
    }
    System.exit(0);
  }

  private static SparkSession session(String master, int executors, String memory) {
    return SparkSession.builder().master(master).appName("sluice-bench-cluster-" + executors)
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.executor.cores", "1")
        .config("spark.cores.max", Integer.toString(executors))
        .config("spark.executor.memory", memory)
        .config("spark.executor.extraClassPath", System.getProperty("java.class.path"))
        .config("spark.executor.extraJavaOptions", String.join(" ", StandaloneCluster.JAVA_17_OPENS))
        .config("spark.executorEnv.SPARK_SCALA_VERSION", "2.12")
        .config("spark.scheduler.minRegisteredResourcesRatio", "1.0")
        .config("spark.scheduler.maxRegisteredResourcesWaitingTime", "300s")
        .config("spark.sql.shuffle.partitions", Integer.toString(2 * executors))
        .config("spark.default.parallelism", Integer.toString(2 * executors))
        .getOrCreate();
  }

  /** The bench's write options (as {@code --engine spark}'s: BLOOM index, snappy, 120 MB files). */
  private static Map<String, String> options(boolean mor) {
    Map<String, String> m = new HashMap<>();
    m.put("hoodie.table.name", "bench");
    m.put("hoodie.datasource.write.recordkey.field", BenchRecords.KEY);
    m.put("hoodie.datasource.write.precombine.field", BenchRecords.ORDERING);
    m.put("hoodie.datasource.write.partitionpath.field", BenchRecords.PARTITION);
    m.put("hoodie.datasource.write.table.type", mor ? "MERGE_ON_READ" : "COPY_ON_WRITE");
    m.put("hoodie.index.type", "BLOOM");
    m.put("hoodie.parquet.compression.codec", "snappy");
    m.put("hoodie.metadata.enable", "false");
    m.put("hoodie.combine.before.upsert", "true");
    return m;
  }

  private static void create(String table, boolean mor, Map<String, String> options) {
    Map<String, String> engine = new HashMap<>(options);
    engine.keySet().removeIf(k -> k.startsWith("hoodie.datasource.") || k.equals("hoodie.table.name"));
    Tables.create(table, TableSpec.builder("bench").type(mor ? TableType.MERGE_ON_READ : TableType.COPY_ON_WRITE)
        .recordKey(BenchRecords.KEY).precombine(BenchRecords.ORDERING).partitionBy(BenchRecords.PARTITION)
        .schema(BenchRecords.SCHEMA).mergeMode(MergeMode.EVENT_TIME_ORDERING).tableVersion(6).build(),
        Config.of(engine));
  }

  /** Records {@code [from, from + n)} at {@code version}, made by the executors' tasks. */
  private static Dataset<Row> generated(SparkSession spark, long seed, long from, long n, int version,
      int partitions) {
    MapPartitionsFunction<Long, Row> make = indices -> new Generated(new BenchRecords(seed), indices, version);
    return spark.range(from, from + n, 1, partitions).mapPartitions(make, Encoders.row(SparkBenchRows.SCHEMA));
  }

  private static double cpuSeconds(List<ProcessHandle> processes) {
    Duration total = Duration.ZERO;
    for (ProcessHandle p : processes) {
      total = total.plus(p.info().totalCpuDuration().orElseThrow(() ->
          new IllegalStateException("no CPU time for process " + p.pid())));
    }
    return total.toNanos() / 1e9;
  }

  private static double driverCpuSeconds() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
  }

  /** The bench's records as Spark rows, converted a chunk at a time (memory stays one chunk). */
  private static final class Generated implements Iterator<Row> {
    private final BenchRecords records;
    private final Iterator<Long> indices;
    private final int version;
    private Iterator<Row> chunk = Collections.emptyIterator();

    Generated(BenchRecords records, Iterator<Long> indices, int version) {
      this.records = records;
      this.indices = indices;
      this.version = version;
    }

    @Override
    public boolean hasNext() {
      if (!chunk.hasNext() && indices.hasNext()) {
        List<GenericRecord> next = new ArrayList<>(CHUNK);
        while (next.size() < CHUNK && indices.hasNext()) {
          next.add(records.record(indices.next(), version));
        }
        chunk = SparkBenchRows.rows(next).iterator();
      }
      return chunk.hasNext();
    }

    @Override
    public Row next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return chunk.next();
    }
  }
}
