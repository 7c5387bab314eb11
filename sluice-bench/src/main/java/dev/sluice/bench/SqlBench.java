package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.bench.data.BenchRecords;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The SQL workload ({@code --only SQL}, driver side): the same aggregate queries over the same table files through
 * Sluice SQL ({@link SqlWorker}: DuckDB fed by Sluice's scans) and through Spark SQL with Hudi 0.15.0's data source
 * in local mode (hudi-spark-oracle's {@code sql-bench} command, in a JVM with that module's class path and Hudi's
 * Spark bundle). The tables are the ones Sluice's bench worker wrote (or Hudi's, {@code --sql-tables hudi}): the W1
 * table after its insert (Copy-on-Write) and the Merge-on-Read table after the last delta commit of W3 (10 at full
 * scale). Per repetition each engine runs
 * every query in one fresh JVM, once untimed and once timed, the engines alternating first place; the results of
 * the two engines must be equal (row for row: counts and integer sums exactly, sums of doubles to 1e-9 relative).
 * Prints one {@code SQL} line per query with the medians and the ratio spark/sluice.
 */
final class SqlBench {
  static final String SLUICE = BenchResults.SLUICE;
  static final String SPARK = "spark";
  /** The two queries: an aggregate over every row, and the same with a filter the scan can use. */
  static final Map<String, String> QUERIES = queries();

  private static final ObjectMapper JSON = new ObjectMapper();
  /** What Spark 3.5 needs opened on Java 17 (the list Spark's launcher gives its executors). */
  static final List<String> SPARK_JVM = List.of("-Djdk.reflect.useDirectMethodHandle=false",
      "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED", "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
      "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
      "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED");

  private final BenchOptions o;
  private final PrintStream out;
  private final ChildJvm jvm;
  private final Function<String, Optional<Path>> tables;
  private final Path work;
  private final Map<String, ChildJvm.Side> sides = new LinkedHashMap<>();
  /** Reports by label, then engine. */
  private final Map<String, Map<String, List<JsonNode>>> reports = new LinkedHashMap<>();
  private boolean ok = true;

  /**
   * @param tables the driver's setup tables by name ({@code cow-base}, {@code mor-dK}), built by the engine
   *     {@code --sql-tables} names
   * @param sluiceClasspath the class path of Sluice's workers
   */
  SqlBench(BenchOptions o, PrintStream out, ChildJvm jvm, Function<String, Optional<Path>> tables, Path work,
      String sluiceClasspath) {
    this.o = o;
    this.out = out;
    this.jvm = jvm;
    this.tables = tables;
    this.work = work;
    sides.put(SLUICE, new ChildJvm.Side(SLUICE, sluiceClasspath, SqlWorker.class.getName()));
    sides.put(SPARK, new ChildJvm.Side(SPARK, sparkClasspath(o.sparkOracleDir()), "dev.sluice.oracle.SparkOracle"));
  }

  private static Map<String, String> queries() {
    String select = "SELECT " + BenchRecords.PARTITION + " AS g, count(*) AS n, sum(qty) AS s, sum(amount) AS a FROM t";
    String group = " GROUP BY " + BenchRecords.PARTITION + " ORDER BY g";
    Map<String, String> m = new LinkedHashMap<>();
    m.put("group", select + group);
    // two of the ten partitions (pruned by the scan when the IN list is pushed) and a comparison on a data column
    m.put("filter", select + " WHERE " + BenchRecords.PARTITION + " IN ('p3', 'p7') AND qty >= 500" + group);
    return m;
  }

  /** One line of the queries file both engines read. */
  static String queryLine(String label, Path table, String sql) {
    ObjectNode q = JSON.createObjectNode();
    q.put("label", label);
    q.put("path", table.toString());
    q.put("view", "t");
    q.put("query", "snapshot");
    q.put("sql", sql);
    return q.toString();
  }

  /** Runs the workload; false if a worker failed or the engines' results differ. */
  boolean run() {
    int last = o.scale().lastCommit();
    Map<String, Optional<Path>> inputs = new LinkedHashMap<>();
    inputs.put("cow", tables.apply("cow-base"));
    inputs.put("mor", tables.apply("mor-d" + last));
    List<String> lines = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    inputs.forEach((name, table) -> {
      if (table.isEmpty()) {
        out.println("SQL: the " + name + " table could not be built; its queries are skipped");
        ok = false;
        return;
      }
      QUERIES.forEach((kind, sql) -> {
        String label = "SQL-" + name + "-" + kind;
        labels.add(label);
        lines.add(queryLine(label, table.get(), sql));
      });
    });
    out.printf(Locale.ROOT, "SQL workload: %s over the W1 table (cow, after its insert) and the MoR table after %d "
        + "delta commit(s), both written by %s; %d rep(s), each engine one JVM per rep (each query once untimed, "
        + "once timed); scan/Spark threads %d%n", String.join(", ", QUERIES.keySet()), last,
        o.sqlTables().equals(BenchResults.HUDI) ? "Hudi 0.15.0's Java client" : "Sluice", o.reps(), o.parallelism());
    QUERIES.forEach((kind, sql) -> out.println("  " + kind + ": " + sql));
    if (lines.isEmpty()) {
      return false;
    }
    Path file = work.resolve("sql-queries.jsonl");
    try {
      Files.write(file, lines, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (int rep = 0; rep < o.reps(); rep++) {
      List<String> order = rep % 2 == 0 ? List.of(SLUICE, SPARK) : List.of(SPARK, SLUICE);
      for (String engine : order) {
        if (engine.equals(SLUICE) ? o.runs(SLUICE) : o.runs(SPARK) || o.runs(BenchResults.HUDI)) {
          runEngine(engine, rep, file);
        }
      }
    }
    for (String label : labels) {
      print(label);
    }
    return ok;
  }

  private void runEngine(String engine, int rep, Path file) {
    List<String> step;
    List<String> jvmOptions;
    if (engine.equals(SLUICE)) {
      step = List.of("sql", file.toString(), Integer.toString(o.parallelism()));
      // Arrow's memory module reads direct buffers' addresses
      jvmOptions = List.of("--add-opens=java.base/java.nio=ALL-UNNAMED");
    } else {
      step = List.of("sql-bench", "--queries", file.toString(), "--conf", "hoodie.metadata.enable="
          + o.metadataTable());
      jvmOptions = new ArrayList<>(SPARK_JVM);
      jvmOptions.add("-Dsluice.spark.master=local[" + o.parallelism() + "]");
    }
    ChildJvm.Outcome r = jvm.run(sides.get(engine), step, jvmOptions);
    StringBuilder summary = new StringBuilder();
    for (JsonNode report : r.reports()) {
      reports.computeIfAbsent(report.path("label").asText(), l -> new LinkedHashMap<>())
          .computeIfAbsent(engine, e -> new ArrayList<>()).add(report);
      summary.append(String.format(Locale.ROOT, "%s%s %.3f s (first %.3f s)", summary.length() > 0 ? "; " : "",
          report.path("label").asText(), report.path("seconds").asDouble(), report.path("first_seconds").asDouble()));
    }
    out.printf(Locale.ROOT, "  rep %d SQL %-6s %s (JVM %.1f s)%n", rep + 1, engine,
        r.ok() ? summary : "FAILED (exit " + r.exitCode() + ", log " + r.log() + ")", r.wallSeconds());
    out.flush();
    if (!r.ok()) {
      System.err.println(ChildJvm.tail(r.log(), 30));
      ok = false;
    }
  }

  private void print(String label) {
    Map<String, List<JsonNode>> byEngine = reports.getOrDefault(label, Map.of());
    List<JsonNode> sluice = byEngine.getOrDefault(SLUICE, List.of());
    List<JsonNode> spark = byEngine.getOrDefault(SPARK, List.of());
    String equal = "n/a";
    if (!sluice.isEmpty() && !spark.isEmpty()) {
      Optional<String> diff = difference(sluice.get(0).path("result"), spark.get(0).path("result"));
      equal = Boolean.toString(diff.isEmpty());
      if (diff.isPresent()) {
        out.println("  " + label + ": results differ: " + diff.get());
        ok = false;
      }
    }
    JsonNode any = !sluice.isEmpty() ? sluice.get(0) : !spark.isEmpty() ? spark.get(0) : null;
    double sl = median(sluice, "seconds");
    double sp = median(spark, "seconds");
    out.printf(Locale.ROOT, "SQL workload=%s sluice_s=%s spark_s=%s ratio=%s sluice_first_s=%s spark_first_s=%s "
            + "groups=%s count=%s results_equal=%s%n", label, num(sl), num(sp),
        sl > 0 && sp > 0 ? String.format(Locale.ROOT, "%.2f", sp / sl) : "n/a", num(median(sluice, "first_seconds")),
        num(median(spark, "first_seconds")), any == null ? "n/a" : any.path("rows").asText(),
        any == null ? "n/a" : count(any.path("result")).toPlainString(), equal);
  }

  /** The first difference between two results, if any: counts and integer sums exact, doubles to 1e-9 relative. */
  static Optional<String> difference(JsonNode a, JsonNode b) {
    if (a.size() != b.size()) {
      return Optional.of(a.size() + " rows against " + b.size());
    }
    for (int i = 0; i < a.size(); i++) {
      JsonNode ra = a.get(i);
      JsonNode rb = b.get(i);
      if (ra.size() != rb.size()) {
        return Optional.of("row " + i + ": " + ra + " against " + rb);
      }
      for (int c = 0; c < ra.size(); c++) {
        if (!same(ra.get(c), rb.get(c))) {
          return Optional.of("row " + i + " column " + (c + 1) + ": " + ra + " against " + rb);
        }
      }
    }
    return Optional.empty();
  }

  private static boolean same(JsonNode x, JsonNode y) {
    if (x.isNumber() && y.isNumber()) {
      if (x.isFloatingPointNumber() && !x.isBigDecimal() || y.isFloatingPointNumber() && !y.isBigDecimal()) {
        double dx = x.asDouble();
        double dy = y.asDouble();
        return Math.abs(dx - dy) <= 1e-9 * Math.max(Math.abs(dx), Math.abs(dy));
      }
      return x.decimalValue().compareTo(y.decimalValue()) == 0;
    }
    return x.equals(y);
  }

  /** The rows the query counted: the sum of its second column ({@code count(*)}). */
  static BigDecimal count(JsonNode result) {
    BigDecimal n = BigDecimal.ZERO;
    for (JsonNode row : result) {
      n = n.add(row.get(1).decimalValue());
    }
    return n;
  }

  private static double median(List<JsonNode> reports, String field) {
    double[] v = reports.stream().mapToDouble(r -> r.path(field).asDouble()).toArray();
    if (v.length == 0) {
      return -1;
    }
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static String num(double seconds) {
    return seconds < 0 ? "n/a" : String.format(Locale.ROOT, "%.3f", seconds);
  }

  static String sparkClasspath(Path dir) {
    Path file = dir.resolve("oracle.classpath");
    Path classes = dir.resolve("classes");
    Path bundle = dir.resolve("bundles").resolve("hudi-0.15.0.jar");
    if (!Files.isRegularFile(file) || !Files.isDirectory(classes) || !Files.isRegularFile(bundle)) {
      throw new IllegalStateException("hudi-spark-oracle is not built: expected " + file + ", " + classes + " and "
          + bundle + " (build with: mvn -B -q -DskipTests -pl sluice-bench -am package)");
    }
    try {
      return classes + File.pathSeparator + Files.readString(file, StandardCharsets.UTF_8).trim() + File.pathSeparator
          + bundle;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
