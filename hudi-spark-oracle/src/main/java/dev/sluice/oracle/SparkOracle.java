package dev.sluice.oracle;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Entry point of the Spark oracle: {@code SparkOracle <command> [options]}, with Hudi's Spark bundle on the class
 * path (the harness picks which). Hudi is driven only through data source options ({@code --conf k=v}), so one
 * build serves every bundle.
 * <ul>
 *   <li>{@code read --table P [--query snapshot|read_optimized] [--conf k=v ...]}: the table as
 *       {@code spark.read.format("hudi")} returns it, one JSON object per row (Spark's {@code toJSON}: null fields
 *       left out), sorted by record key and partition path (a metadata table, P ending in {@code .hoodie/metadata},
 *       by its {@code key} and {@code type});</li>
 *   <li>{@code write --table P --op upsert|insert|delete|bulk_insert --input F --schema-ddl DDL [--conf k=v ...]}:
 *       the JSON lines of F (read with the given Spark schema) written with {@code df.write.format("hudi")} in
 *       append mode; prints the number of rows written;</li>
 *   <li>{@code batch --script F}: the commands of F (one JSON array of arguments per line) in one Spark session,
 *       each one's output after a line {@code #batch <index> <status>} (the shared {@code BatchScript});</li>
 *   <li>{@code reads --queries F}: several reads in one Spark session, one per line of F (a JSON object of read
 *       options, e.g. an incremental range or {@code as.of.instant}, with the table's location under {@code path});
 *       each answer is a line
 *       {@code #query <i> ok} followed by its rows as {@code read} prints them, or {@code #query <i> error <message>}
 *       when Hudi refused the read.</li>
 *   <li>{@code sql-bench --queries F}: the Spark side of sluice-bench's SQL workload; see {@link SqlBenchQueries}.</li>
 *   <li>{@code serve}: a long-lived oracle for a test JVM that calls it many times ({@link #serve}): requests on
 *       stdin, one JSON array of arguments per line (any command above but {@code serve}), each answered on stdout
 *       by its output and a line {@code #served <status>}. Spark starts once; each request gets a new session of
 *       it, so no SQL setting, temporary view or cached listing carries over from one request to the next.</li>
 * </ul>
 * Results go to stdout; Spark's and Hudi's logging to stderr. Exit code 1 on failure, 2 on a bad command line.
 */
public final class SparkOracle {

  private SparkOracle() {
  }

  /** Runs one command and exits the JVM with its status. */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    int status = run(Arrays.asList(args), out, System.err);
    out.flush();
    System.exit(status);
  }

  static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty()) {
      err.println("usage: SparkOracle read|write|reads|batch|sql ...");
      return 2;
    }
    if (!Set.of("read", "write", "reads", "batch", "sql", "sql-bench", "serve").contains(args.get(0))) {
      err.println("spark oracle: unknown command " + args.get(0));
      return 2;
    }
    SparkSession spark = session();
    try {
      if (args.get(0).equals("serve")) {
        return serve(spark, out, err);
      }
      return runRequest(spark, args, out, err);
    } finally {
      spark.stop();
    }
  }

  /** Ends each answer of {@link #serve}, followed by the request's exit status. */
  static final String SERVED = "#served";

  /**
   * Answers requests until stdin ends: the start-up of Spark with Hudi's bundle is most of a call's time, and a test
   * JVM that reads and writes through Hudi's Spark many times (sluice-interop's classes in one surefire fork) pays it
   * once. Each request runs in a new session of the one SparkContext: its own SQL settings, temporary views and
   * caches, as a fresh process would have them.
   */
  private static int serve(SparkSession root, PrintStream out, PrintStream err) {
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    try (java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
        StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.isBlank()) {
          continue;
        }
        List<String> request;
        try {
          request = json.readValue(line, new com.fasterxml.jackson.core.type.TypeReference<List<String>>() { });
        } catch (IOException e) {
          err.println("spark oracle serve: a request must be a JSON array of strings: " + line);
          out.println(SERVED + " 2");
          out.flush();
          continue;
        }
        int status;
        if (request.isEmpty() || request.get(0).equals("serve")) {
          err.println("spark oracle serve: cannot serve " + request);
          status = 2;
        } else {
          SparkSession session = root.newSession();
          status = runRequest(session, request, out, err);
          session.catalog().clearCache();
        }
        err.println("#served " + status + " " + request);
        err.flush();
        out.println(SERVED + " " + status);
        out.flush();
      }
      return 0;
    } catch (IOException e) {
      err.println("spark oracle serve failed: " + e);
      return 1;
    }
  }

  /** Runs one request ({@code batch} or a single command) in {@code spark}; returns the exit status. */
  private static int runRequest(SparkSession spark, List<String> args, PrintStream out, PrintStream err) {
    if (args.get(0).equals("batch")) {
      // one Spark session for every command of the script: its start-up is most of a call's time
      try {
        return BatchScript.run(Args.parse(args.subList(1, args.size()), Set.of()), out, err,
            (command, o, e) -> runOne(spark, command, o, e));
      } catch (Args.UsageException e) {
        err.println("spark oracle: " + e.getMessage());
        return 2;
      } catch (IOException e) {
        err.println("spark oracle batch failed: " + e);
        return 1;
      }
    }
    return runOne(spark, args, out, err);
  }

  /** Runs {@code read} or {@code write} in {@code spark}; returns the exit status. */
  private static int runOne(SparkSession spark, List<String> args, PrintStream out, PrintStream err) {
    String command = args.isEmpty() ? "" : args.get(0);
    try {
      Args parsed = Args.parse(args.subList(1, args.size()), Set.of());
      switch (command) {
        case "read" -> read(spark, parsed, out);
        case "write" -> write(spark, parsed, out);
        case "reads" -> reads(spark, parsed, out);
        case "sql" -> sql(spark, parsed, out);
        case "sql-bench" -> sqlBench(spark, parsed, out);
        default -> {
          err.println("spark oracle: unknown command " + command);
          return 2;
        }
      }
      return 0;
    } catch (Args.UsageException e) {
      err.println("spark oracle: " + e.getMessage());
      return 2;
    } catch (IOException | RuntimeException e) {
      err.println("spark oracle " + command + " failed: " + e);
      e.printStackTrace(err);
      return 1;
    }
  }

  private static SparkSession session() {
    return SparkSession.builder()
        // -Dsluice.spark.master=local[N]: sluice-bench's SQL workload gives Spark the threads Sluice's scan gets
        .master(System.getProperty("sluice.spark.master", "local[2]"))
        .appName("sluice-spark-oracle")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        // what Hudi's Spark quick start sets
        .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
        .config("spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar")
        .config("spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension")
        .getOrCreate();
  }

  private static void read(SparkSession spark, Args args, PrintStream out) {
    String query = args.optional("query").orElse("snapshot");
    Dataset<Row> rows = spark.read().format("hudi").options(args.conf())
        .option("hoodie.datasource.query.type", query)
        .load(args.required("table"));
    // a metadata table (read at .hoodie/metadata) has no meta columns: its rows are ordered by their key
    Dataset<Row> ordered = List.of(rows.columns()).contains("_hoodie_record_key")
        ? rows.orderBy("_hoodie_record_key", "_hoodie_partition_path") : rows.orderBy("key", "type");
    for (String json : ordered.toJSON().collectAsList()) {
      out.println(json);
    }
  }

  private static void reads(SparkSession spark, Args args, PrintStream out) throws IOException {
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    List<String> lines = java.nio.file.Files.readAllLines(java.nio.file.Path.of(args.required("queries")),
        StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      Map<String, String> options = new java.util.HashMap<>(json.readValue(lines.get(i),
          new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() { }));
      String table = options.remove("path");
      if (table == null) {
        throw new Args.UsageException("query " + i + " of " + args.required("queries") + " has no \"path\"");
      }
      List<String> rows;
      try {
        rows = spark.read().format("hudi").options(options).load(table)
            .orderBy("_hoodie_record_key", "_hoodie_partition_path").toJSON().collectAsList();
      } catch (RuntimeException | LinkageError e) {
        e.printStackTrace(System.err);
        // Hudi's refusal (e.g. time travel past a pending write) is an answer to compare, not a failure
        Throwable root = e;
        while (root.getCause() != null) {
          root = root.getCause();
        }
        out.println("#query " + i + " error " + String.valueOf(root.getMessage()).replace('\n', ' '));
        continue;
      }
      out.println("#query " + i + " ok");
      rows.forEach(out::println);
    }
  }

  /**
   * The SQL benchmark's other side: the table as a temporary view through Hudi's data source, then the statement
   * {@code --runs} times in this session; prints each run's wall time ({@code #run i ms}) and the last run's rows.
   */
  private static void sql(SparkSession spark, Args args, PrintStream out) {
    spark.read().format("hudi").options(args.conf())
        .option("hoodie.datasource.query.type", args.optional("query").orElse("snapshot"))
        .load(args.required("table")).createOrReplaceTempView(args.required("view"));
    int runs = Integer.parseInt(args.optional("runs").orElse("1"));
    List<String> rows = List.of();
    for (int i = 1; i <= runs; i++) {
      long start = System.nanoTime();
      rows = spark.sql(args.required("sql")).toJSON().collectAsList();
      out.println("#run " + i + " " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }
    rows.forEach(out::println);
  }

  private static void sqlBench(SparkSession spark, Args args, PrintStream out) throws IOException {
    SqlBenchQueries.run(spark, java.nio.file.Path.of(args.required("queries")), args.conf(), out);
  }

  private static void write(SparkSession spark, Args args, PrintStream out) throws IOException {
    Dataset<Row> input = spark.read().schema(args.required("schema-ddl")).json(args.required("input"));
    Map<String, String> options = args.conf();
    input.write().format("hudi").options(options)
        .option("hoodie.datasource.write.operation", args.required("op"))
        .mode(SaveMode.Append)
        .save(args.required("table"));
    out.println(input.count());
  }
}
