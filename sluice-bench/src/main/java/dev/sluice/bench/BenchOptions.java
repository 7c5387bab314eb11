package dev.sluice.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The driver's command line: {@code [--scale smoke|quick|full] [--only W2,W5] [--reps N] [--heap 4g] ...}.
 *
 * @param scale workload sizes
 * @param only workload ids to run (prefix match: {@code W2} selects W2-cow and W2-mor); empty for all
 * @param reps repetitions of every measurement
 * @param heap {@code -Xmx} of every worker JVM (both engines alike)
 * @param parallelism write threads of both engines; read threads of Sluice's scan and the floor read (Hudi's
 *     bench reader reads one slice at a time)
 * @param seed workload seed
 * @param workDir where tables go (deleted at the end unless {@code keep})
 * @param keep keep tables and worker logs
 * @param memoryRuns also run the {@code -Xmx512m} runs (W3 snapshot read, W4)
 * @param jfrDir record the Sluice side's timed steps with JFR into this folder
 * @param jfrHudi record the Hudi side too
 * @param engines engines to run ({@code sluice}, {@code hudi}, {@code floor}, {@code hudi1}; or the Spark ones,
 *     {@code sluice-spark}, {@code hudi-spark} and {@code spark-parquet}, beside {@code sluice})
 * @param jvmOpts extra worker JVM options (both engines)
 * @param oracleDir hudi-oracle's build folder ({@code classes}, {@code oracle.classpath})
 * @param timeoutMinutes per worker JVM
 * @param logFormat MoR log data block format of both engines, avro or parquet ({@code --log-format})
 * @param metadataTable both engines keep Hudi's metadata table ({@code --metadata-table}; off by default)
 * @param metadataCost W2 runs both without and with the metadata table ({@code --metadata-cost}: the second as
 *     {@code W2-cow+mdt}, {@code W2-mor+mdt}, each on a base table built with it), and the cost per commit is printed
 * @param scaleWorkload the sizes and indexes of the SCALE workload (run only when {@code --only} names it)
 * @param sparkOracleDir hudi-spark-oracle's build folder ({@code classes}, {@code oracle.classpath}, {@code bundles}):
 *     Spark SQL's side of the SQL workload
 * @param tableVersion the Hudi table version Sluice's tables are created at ({@code --table-version 6|8|9}; default 6)
 * @param hudi1OracleDir hudi1-oracle's build folder ({@code classes}, {@code oracle.classpath}): Hudi 1.1.1's Java
 *     client, the {@code hudi1} engine of a {@code --table-version 8|9} run
 * @param sqlTables which engine writes the SQL workload's tables, {@code sluice} or {@code hudi} (its Java client)
 */
record BenchOptions(Scale scale, List<String> only, int reps, String heap, int parallelism, long seed,
    Optional<Path> workDir, boolean keep, boolean memoryRuns, Optional<Path> jfrDir, boolean jfrHudi,
    List<String> engines, List<String> jvmOpts, Path oracleDir, int timeoutMinutes, String logFormat,
    boolean metadataTable, boolean metadataCost, ScaleWorkload scaleWorkload, Path sparkOracleDir,
    String sqlTables, int tableVersion, Path hudi1OracleDir) {

  /** The workload id of the scale workload: never part of a default run, only of {@code --only SCALE}. */
  static final String SCALE = "SCALE";
  /** The workload id of the SQL workload (Sluice SQL against Spark SQL): as SCALE, only when named. */
  static final String SQL = "SQL";

  static final String USAGE = String.join(System.lineSeparator(),
      "usage: sluice-bench [--scale smoke|quick|full] [--only W1,W2,...] [--reps N] [--heap SIZE]",
      "                    [--parallelism N] [--seed N] [--work-dir DIR] [--keep] [--no-memory]",
      "                    [--jfr DIR [--jfr-hudi]] [--engines sluice,hudi,floor] [--jvm-opt OPT]...",
      "                    [--oracle-dir DIR] [--timeout-min N] [--warmup RECORDS] [--log-format avro|parquet]",
      "                    [--metadata-table | --metadata-cost] [--scale-records N,N] [--scale-upsert N] [--scale-chunk N]",
      "                    [--table-version 6|8|9] [--hudi1-oracle-dir DIR]",
      "                    [--scale-type mor|cow] [--sluice-index I,I] [--hudi-index I,I] [--spark-oracle-dir DIR]",
      "                    [--engine spark]",
      "       sluice-bench --engine spark-cluster [--executors 1,2,4] [--records N] [--upsert N] ... (the scaling run",
      "                    on a standalone Spark cluster on this machine; docs/benchmarks.md)",
      "  scales: smoke (5k records, CI; W1-bulk, W2, W3, W4, W5, W6-mor unless --only), quick (100k),",
      "          full (1M: the issue's sizes)",
      "  --warmup: records of the untimed run of the same step before each timed one (default: the scale's",
      "          20,000 at full; a larger one measures warm JVMs, as a long-running service would be)",
      "  --log-format: MoR log data blocks of both engines (hoodie.logfile.data.block.format; default avro)",
      "  --table-version: Sluice creates its tables at this Hudi table version (default 6 here, not Sluice's default 9:",
      "          the Hudi 0.15.0 column reads and writes only version 6 tables); with 8 or 9 a third",
      "          engine, hudi1 (Hudi 1.1.1's Java client on version 9 tables, hudi1-oracle), runs W1-W4 and W6 beside",
      "          hudi (Hudi 0.15.0, version 6), with its own column and ratio hudi1/sluice",
      "  --metadata-table: both engines keep Hudi's metadata table (hoodie.metadata.enable=true; default off)",
      "  --metadata-cost: W2 without and with the metadata table in one run (W2-cow+mdt, W2-mor+mdt), and what",
      "          keeping it costs a commit (MDT-COST lines)",
      "  --only SCALE: the scale workload (only when named): per table size of --scale-records (default",
      "          1000000,10000000) and per index, a load in bulk-insert commits of --scale-chunk records (default",
      "          1000000) and --reps upserts of --scale-upsert existing keys each (default 100000), on a",
      "          --scale-type table (default mor); indexes --sluice-index (default BLOOM,RECORD_INDEX) and",
      "          --hudi-index (default BLOOM,SIMPLE). Worker timeout 240 minutes unless --timeout-min",
      "  --only SQL: the SQL workload (only when named): GROUP BY queries, one of them filtered, over the W1 table",
      "          and the MoR table after the last delta commit, through Sluice SQL (DuckDB) and through Spark SQL",
      "          with Hudi 0.15.0's data source in local mode (hudi-spark-oracle, built under --spark-oracle-dir);",
      "          results compared, medians and ratio spark/sluice (SQL lines). --sql-tables: which engine writes the",
      "          tables both read (default sluice; hudi: Hudi 0.15.0's Java client)",
      "  --engine spark: the Spark workloads, W1 (bulk insert, insert), W2 (CoW, MoR upsert), W3 and W4, through",
      "          Sluice on Spark (sluice-spark) and Hudi 0.15.0's Spark data source (hudi-spark), both local[N] with",
      "          N = --parallelism, each step in its own JVM, Spark's plain Parquet as the reference (spark-parquet:",
      "          no table format, W1 and W3 only) and Sluice alone beside them (--engines",
      "          sluice-spark,hudi-spark,spark-parquet,sluice); ratios hudi-spark/sluice-spark,",
      "          hudi-spark/spark-parquet and sluice-spark/sluice");

  /**
   * Workload sizes.
   *
   * @param name smoke, quick or full
   * @param records records of the W1 table
   * @param batch records of a W2 upsert batch (half updates, half inserts)
   * @param deletes keys deleted by W6
   * @param lookups W5 point lookups
   * @param commits delta commits after which W3 reads
   * @param warmup records of the untimed warm-up run in every worker (0: none)
   * @param reps default repetitions
   * @param heap default worker heap
   */
  record Scale(String name, long records, int batch, int deletes, int lookups, List<Integer> commits, long warmup,
      int reps, String heap) {

    static Scale named(String name) {
      return switch (name.toLowerCase(Locale.ROOT)) {
        case "smoke" -> new Scale("smoke", 5_000, 1_000, 500, 50, List.of(1, 2), 0, 1, "1g");
        case "quick" -> new Scale("quick", 100_000, 10_000, 5_000, 1_000, List.of(1, 5, 10), 5_000, 2, "2g");
        case "full" -> new Scale("full", 1_000_000, 100_000, 50_000, 1_000, List.of(1, 5, 10), 20_000, 3, "4g");
        default -> throw new IllegalArgumentException("unknown scale " + name + " (smoke, quick, full)");
      };
    }

    int lastCommit() {
      return commits.get(commits.size() - 1);
    }
  }

  /**
   * The SCALE workload's parameters.
   *
   * @param records table sizes, each a separate table
   * @param upsert existing keys per timed upsert
   * @param chunk records per bulk-insert commit of the initial load
   * @param type mor or cow
   * @param sluiceIndexes Sluice's tagging indexes ({@code hoodie.index.type} values)
   * @param hudiIndexes Hudi's tagging indexes
   */
  record ScaleWorkload(List<Long> records, int upsert, long chunk, String type, List<String> sluiceIndexes,
      List<String> hudiIndexes) {

    List<String> indexes(String engine) {
      return engine.equals(BenchResults.SLUICE) ? sluiceIndexes : hudiIndexes;
    }
  }

  /** True if {@code --only} names the SQL workload. */
  boolean sqlSelected() {
    return only.stream().anyMatch(SQL::equalsIgnoreCase);
  }

  /** True if {@code --only} names the scale workload. */
  boolean scaleSelected() {
    return only.stream().anyMatch(SCALE::equalsIgnoreCase);
  }

  static BenchOptions parse(String[] args) {
    Scale scale = Scale.named("quick");
    List<String> only = List.of();
    Integer reps = null;
    String heap = null;
    int parallelism = Runtime.getRuntime().availableProcessors();
    long seed = 20_240_601L;
    Optional<Path> workDir = Optional.empty();
    boolean keep = false;
    boolean memory = true;
    Optional<Path> jfr = Optional.empty();
    boolean jfrHudi = false;
    List<String> engines = null;
    boolean spark = false;
    int tableVersion = 6;
    Path hudi1OracleDir = Path.of(System.getProperty("sluice.hudi1.oracle.dir", "hudi1-oracle/target"));
    List<String> jvmOpts = new ArrayList<>();
    Path oracleDir = Path.of(System.getProperty("sluice.oracle.dir", "hudi-oracle/target"));
    Path sparkOracleDir = Path.of(System.getProperty("sluice.spark.oracle.dir", "hudi-spark-oracle/target"));
    String sqlTables = BenchResults.SLUICE;
    int timeout = -1;
    Long warmup = null;
    String logFormat = "avro";
    boolean metadataTable = false;
    boolean metadataCost = false;
    List<Long> scaleRecords = List.of(1_000_000L, 10_000_000L);
    int scaleUpsert = 100_000;
    long scaleChunk = 1_000_000L;
    String scaleType = "mor";
    List<String> sluiceIndexes = List.of("BLOOM", "RECORD_INDEX");
    List<String> hudiIndexes = List.of("BLOOM", "SIMPLE");
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--scale" -> scale = Scale.named(value(args, ++i, a));
        case "--only" -> only = split(value(args, ++i, a));
        case "--reps" -> reps = Integer.parseInt(value(args, ++i, a));
        case "--heap" -> heap = value(args, ++i, a);
        case "--parallelism" -> parallelism = Integer.parseInt(value(args, ++i, a));
        case "--seed" -> seed = Long.parseLong(value(args, ++i, a));
        case "--work-dir" -> workDir = Optional.of(Path.of(value(args, ++i, a)));
        case "--keep" -> keep = true;
        case "--no-memory" -> memory = false;
        case "--jfr" -> jfr = Optional.of(Path.of(value(args, ++i, a)));
        case "--jfr-hudi" -> jfrHudi = true;
        case "--engines" -> engines = split(value(args, ++i, a));
        case "--engine" -> {
          String e = value(args, ++i, a);
          if (!e.equals("spark")) {
            throw new IllegalArgumentException("--engine takes spark, got " + e);
          }
          spark = true;
        }
        case "--jvm-opt" -> jvmOpts.add(value(args, ++i, a));
        case "--oracle-dir" -> oracleDir = Path.of(value(args, ++i, a));
        case "--table-version" -> tableVersion = Integer.parseInt(value(args, ++i, a));
        case "--hudi1-oracle-dir" -> hudi1OracleDir = Path.of(value(args, ++i, a));
        case "--spark-oracle-dir" -> sparkOracleDir = Path.of(value(args, ++i, a));
        case "--sql-tables" -> sqlTables = value(args, ++i, a).toLowerCase(Locale.ROOT);
        case "--timeout-min" -> timeout = Integer.parseInt(value(args, ++i, a));
        case "--warmup" -> warmup = Long.parseLong(value(args, ++i, a));
        case "--log-format" -> logFormat = value(args, ++i, a).toLowerCase(Locale.ROOT);
        case "--metadata-table" -> metadataTable = true;
        case "--metadata-cost" -> metadataCost = true;
        case "--scale-records" -> scaleRecords = split(value(args, ++i, a)).stream().map(Long::parseLong).toList();
        case "--scale-upsert" -> scaleUpsert = Integer.parseInt(value(args, ++i, a));
        case "--scale-chunk" -> scaleChunk = Long.parseLong(value(args, ++i, a));
        case "--scale-type" -> scaleType = value(args, ++i, a).toLowerCase(Locale.ROOT);
        case "--sluice-index" -> sluiceIndexes = upper(split(value(args, ++i, a)));
        case "--hudi-index" -> hudiIndexes = upper(split(value(args, ++i, a)));
        case "-h", "--help" -> throw new IllegalArgumentException("help");
        default -> throw new IllegalArgumentException("unknown option " + a);
      }
    }
    if (tableVersion != 6 && tableVersion != 8 && tableVersion != 9) {
      throw new IllegalArgumentException("--table-version must be 6, 8 or 9, got " + tableVersion);
    }
    if (spark && engines != null) {
      throw new IllegalArgumentException("--engine spark picks its engines: not with --engines");
    }
    if (spark) {
      engines = List.of(BenchResults.SLUICE_SPARK, BenchResults.HUDI_SPARK, BenchResults.SPARK_PARQUET,
          BenchResults.SLUICE);
    }
    boolean sparkEngines = engines != null && (engines.contains(BenchResults.SLUICE_SPARK)
        || engines.contains(BenchResults.HUDI_SPARK) || engines.contains(BenchResults.SPARK_PARQUET));
    if (sparkEngines && (tableVersion != 6 || engines.contains(BenchResults.HUDI)
        || engines.contains(BenchResults.HUDI1) || engines.contains(BenchResults.FLOOR))) {
      throw new IllegalArgumentException("the Spark engines run beside sluice only (--engines "
          + "sluice-spark,hudi-spark,spark-parquet,sluice), at table version 6");
    }
    if (engines == null) {
      // version 8/9 runs add Hudi 1.1.1 (the only Hudi here that writes those versions) beside 0.15.0
      engines = tableVersion == 6 ? List.of(BenchResults.SLUICE, BenchResults.HUDI, BenchResults.FLOOR)
          : List.of(BenchResults.SLUICE, BenchResults.HUDI, BenchResults.HUDI1, BenchResults.FLOOR);
    } else if (engines.contains(BenchResults.HUDI1) && tableVersion == 6) {
      throw new IllegalArgumentException("--engines hudi1 (Hudi 1.1.1, version 9 tables) needs --table-version 8 or 9");
    }
    if (!logFormat.equals("avro") && !logFormat.equals("parquet")) {
      throw new IllegalArgumentException("--log-format must be avro or parquet");
    }
    if (!sqlTables.equals(BenchResults.SLUICE) && !sqlTables.equals(BenchResults.HUDI)) {
      throw new IllegalArgumentException("--sql-tables must be sluice or hudi");
    }
    if (!scaleType.equals("mor") && !scaleType.equals("cow")) {
      throw new IllegalArgumentException("--scale-type must be mor or cow");
    }
    if (scaleChunk < 1 || scaleRecords.stream().anyMatch(n -> n < 1)) {
      throw new IllegalArgumentException("--scale-records and --scale-chunk must be positive");
    }
    for (long n : scaleRecords) {
      if (scaleUpsert < 1 || scaleUpsert > n) {
        throw new IllegalArgumentException("--scale-upsert must be between 1 and the table size, got " + scaleUpsert);
      }
    }
    if (reps != null && reps < 1) {
      throw new IllegalArgumentException("--reps must be at least 1");
    }
    if (warmup != null) {
      if (warmup < 0) {
        throw new IllegalArgumentException("--warmup must be 0 (none) or a number of records");
      }
      scale = new Scale(scale.name(), scale.records(), scale.batch(), scale.deletes(), scale.lookups(),
          scale.commits(), warmup, scale.reps(), scale.heap());
    }
    if (metadataTable && metadataCost) {
      throw new IllegalArgumentException("--metadata-cost runs W2 with and without the metadata table: not with "
          + "--metadata-table");
    }
    // the -Xmx512m runs compare the Java engines; the Spark run has none
    boolean memoryRuns = memory && !scale.name().equals("smoke") && !sparkEngines;
    if (only.isEmpty() && sparkEngines) {
      // the Spark workloads: no lookups (W5) or deletes (W6) on Spark
      only = scale.name().equals("smoke") ? List.of("W1-bulk", "W2-mor", "W3", "W4")
          : List.of("W1", "W2", "W3", "W4");
    } else if (only.isEmpty() && scale.name().equals("smoke")) {
      // CI: one workload per code path (W1-insert and W6-cow repeat paths W1-bulk, W2-cow and W6-mor cover)
      only = List.of("W1-bulk", "W2", "W3", "W4", "W5", "W6-mor");
    }
    boolean scaleOnly = only.stream().anyMatch(SCALE::equalsIgnoreCase);
    int minutes = timeout > 0 ? timeout : scaleOnly ? 240 : switch (scale.name()) {
      case "smoke" -> 5;
      case "quick" -> 20;
      default -> 90;
    };
    return new BenchOptions(scale, only, reps == null ? scale.reps() : reps, heap == null ? scale.heap() : heap,
        parallelism, seed, workDir, keep, memoryRuns, jfr, jfrHudi, engines, List.copyOf(jvmOpts),
        oracleDir.toAbsolutePath().normalize(), minutes, logFormat, metadataTable, metadataCost,
        new ScaleWorkload(List.copyOf(scaleRecords), scaleUpsert, scaleChunk, scaleType, sluiceIndexes, hudiIndexes),
        sparkOracleDir.toAbsolutePath().normalize(), sqlTables, tableVersion,
        hudi1OracleDir.toAbsolutePath().normalize());
  }

  /** True if workload {@code id} (e.g. {@code W2-cow}) is selected. */
  boolean selected(String id) {
    if (only.isEmpty()) {
      return true;
    }
    for (String o : only) {
      if (id.equalsIgnoreCase(o) || id.toUpperCase(Locale.ROOT).startsWith(o.toUpperCase(Locale.ROOT) + "-")) {
        return true;
      }
    }
    return false;
  }

  boolean runs(String engine) {
    return engines.contains(engine);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static List<String> upper(List<String> names) {
    return names.stream().map(n -> n.toUpperCase(Locale.ROOT)).toList();
  }

  private static List<String> split(String s) {
    List<String> out = new ArrayList<>();
    for (String p : s.split(",")) {
      if (!p.isBlank()) {
        out.add(p.trim());
      }
    }
    return List.copyOf(out);
  }
}
