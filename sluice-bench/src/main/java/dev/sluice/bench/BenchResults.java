package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Measurements by workload label and engine ({@code sluice}, {@code hudi}, {@code floor}, {@code hudi1} in a
 * {@code --table-version 8|9} run, {@code sluice-spark}, {@code hudi-spark} and {@code spark-parquet} in an
 * {@code --engine spark} run);
 * prints the table of medians and one {@code RESULT} line per workload. The hudi1 column and its fields appear only
 * when that engine ran, and a Spark run prints its own table, so other runs keep their shape.
 */
final class BenchResults {
  /** Suffix of a W2 workload run on a table that keeps the metadata table ({@code --metadata-cost}). */
  static final String MDT = "+mdt";
  static final String SLUICE = "sluice";
  static final String HUDI = "hudi";
  /** Hudi 1.1.1's Java client on version 9 tables (hudi1-oracle). */
  static final String HUDI1 = "hudi1";
  static final String FLOOR = "floor";
  /** Sluice on Spark ({@code format("sluice")}, local mode; sluice-spark). */
  static final String SLUICE_SPARK = "sluice-spark";
  /** Hudi 0.15.0's own Spark data source ({@code format("hudi")}, local mode; hudi-spark-oracle). */
  static final String HUDI_SPARK = "hudi-spark";
  /**
   * Spark's own Parquet data source, no table format ({@code local[N]}; the reference of the Spark workloads, what
   * any format on Spark needs at least): W1 and W3 only.
   */
  static final String SPARK_PARQUET = "spark-parquet";
  /**
   * Every engine whose rows and ts sums are checked against each other (spark-parquet's W3 reads apart: see
   * {@link #parquetReadsOk}).
   */
  private static final List<String> ENGINES = List.of(SLUICE, HUDI, HUDI1, SLUICE_SPARK, HUDI_SPARK, SPARK_PARQUET);

  /** Per label: expected rows after the step (or rows read), -1 if not checked. */
  private final Map<String, Long> expectedRows = new LinkedHashMap<>();
  private final Map<String, Map<String, List<JsonNode>>> runs = new LinkedHashMap<>();
  private final Map<String, Map<String, String>> unavailable = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();
  private final List<String> memory = new ArrayList<>();
  /** The engine whose W3 tables spark-parquet read, if it read any. */
  private Optional<String> parquetTablesOf = Optional.empty();

  /** Declares a workload label (in print order) and the row count both engines must end with. */
  void declare(String label, long rows) {
    expectedRows.putIfAbsent(label, rows);
    runs.computeIfAbsent(label, l -> new LinkedHashMap<>());
  }

  void add(String label, String engine, JsonNode report) {
    runs.computeIfAbsent(label, l -> new LinkedHashMap<>()).computeIfAbsent(engine, e -> new ArrayList<>())
        .add(report);
  }

  /** Marks an engine's result for a label as not available ({@code n/a}: feature missing, or failed). */
  void unavailable(String label, String engine, String why) {
    unavailable.computeIfAbsent(label, l -> new LinkedHashMap<>()).putIfAbsent(engine, why);
  }

  /**
   * Says spark-parquet's W3 reads read the tables {@code engine} wrote: its read-optimized reads must then give
   * that engine's read-optimized rows and ts sum (the same base files).
   */
  void parquetReadsTablesOf(String engine) {
    parquetTablesOf = Optional.of(engine);
  }

  void note(String line) {
    notes.add(line);
  }

  void memory(String line) {
    memory.add(line);
  }

  List<JsonNode> reports(String label, String engine) {
    return runs.getOrDefault(label, Map.of()).getOrDefault(engine, List.of());
  }

  Optional<String> whyUnavailable(String label, String engine) {
    return Optional.ofNullable(unavailable.getOrDefault(label, Map.of()).get(engine));
  }

  /** True if some engine failed (not merely lacks a feature). */
  boolean anyFailure() {
    for (Map.Entry<String, Map<String, String>> e : unavailable.entrySet()) {
      if (isMemoryRun(e.getKey())) {
        continue;
      }
      for (String why : e.getValue().values()) {
        if (why.startsWith("failed")) {
          return true;
        }
      }
    }
    return false;
  }

  /** Labels of the {@code -Xmx512m} runs end in {@code @512m}; they are reported apart. */
  private static boolean isMemoryRun(String label) {
    return label.contains("@");
  }

  private Optional<Double> median(String label, String engine, String field) {
    if (whyUnavailable(label, engine).isPresent()) {
      return Optional.empty();
    }
    List<Double> values = new ArrayList<>();
    for (JsonNode r : reports(label, engine)) {
      JsonNode v = r.get(field);
      if (v != null && v.isNumber()) {
        values.add(v.asDouble());
      }
    }
    if (values.isEmpty()) {
      return Optional.empty();
    }
    values.sort(null);
    int n = values.size();
    return Optional.of(n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2);
  }

  /** Rows reported by an engine's runs, if all agree. */
  private Optional<Long> rows(String label, String engine) {
    Long rows = null;
    for (JsonNode r : reports(label, engine)) {
      JsonNode v = r.get("rows");
      if (v == null) {
        return Optional.empty();
      }
      if (rows != null && rows != v.asLong()) {
        return Optional.of(-1L);
      }
      rows = v.asLong();
    }
    return Optional.ofNullable(rows);
  }

  private Optional<Long> tsSum(String label, String engine) {
    for (JsonNode r : reports(label, engine)) {
      JsonNode v = r.get("ts_sum");
      if (v != null) {
        return Optional.of(v.asLong());
      }
    }
    return Optional.empty();
  }

  /**
   * True if every engine that ran the label ended with the expected rows, and the two engines' ts sums agree
   * (when both report one); labels declared with no expected count (read-optimized reads, whose rows depend on
   * each engine's file layout) are not checked.
   */
  boolean rowsOk(String label) {
    if (!parquetReadsOk(label)) {
      return false;
    }
    long expected = expectedRows.getOrDefault(label, -1L);
    if (expected < 0) {
      return true;
    }
    for (String engine : ENGINES) {
      if (whyUnavailable(label, engine).isPresent() || reports(label, engine).isEmpty()
          || skipsGeneralCheck(label, engine)) {
        continue;
      }
      Optional<Long> r = rows(label, engine);
      if (expected >= 0 && (r.isEmpty() || r.get() != expected)) {
        return false;
      }
    }
    for (int i = 0; i < ENGINES.size(); i++) {
      for (int j = i + 1; j < ENGINES.size(); j++) {
        if (!tsSumsAgree(label, ENGINES.get(i), ENGINES.get(j))) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * spark-parquet's snapshot reads are not checked against the formats' (its rows are the base files' only, the log
   * files not merged: a lower bound of the time, not the same result); its read-optimized reads are, against the
   * engine whose tables it read ({@link #parquetReadsOk}).
   */
  private static boolean skipsGeneralCheck(String label, String engine) {
    return engine.equals(SPARK_PARQUET) && label.startsWith("W3-");
  }

  /** spark-parquet's read-optimized read: the rows and ts sum of the same read on the engine whose table it read. */
  private boolean parquetReadsOk(String label) {
    if (!parquetChecked(label)) {
      return true;
    }
    String reference = parquetTablesOf.get();
    Optional<Long> rows = rows(label, SPARK_PARQUET);
    return rows.isPresent() && rows.get() >= 0 && rows.equals(rows(label, reference))
        && tsSum(label, SPARK_PARQUET).equals(tsSum(label, reference));
  }

  private boolean tsSumsAgree(String label, String x, String y) {
    if (skipsGeneralCheck(label, x) || skipsGeneralCheck(label, y)) {
      return true;
    }
    Optional<Long> a = tsSum(label, x);
    Optional<Long> b = tsSum(label, y);
    return a.isEmpty() || b.isEmpty() || a.get().equals(b.get())
        || whyUnavailable(label, x).isPresent() || whyUnavailable(label, y).isPresent();
  }

  /** True if the hudi1 engine reported anything: its column and fields are printed. */
  private boolean hudi1Ran() {
    return ran(HUDI1);
  }

  private boolean ran(String engine) {
    for (Map<String, List<JsonNode>> byEngine : runs.values()) {
      if (byEngine.containsKey(engine)) {
        return true;
      }
    }
    return unavailable.values().stream().anyMatch(m -> m.containsKey(engine));
  }

  /** True if a Spark engine ran: the run prints the Spark table ({@link #printSpark}) instead of the other. */
  boolean sparkRan() {
    return ran(SLUICE_SPARK) || ran(HUDI_SPARK);
  }

  void print(PrintStream out, String header) {
    out.println();
    out.println(header);
    if (sparkRan()) {
      printSpark(out);
      printTail(out);
      return;
    }
    boolean hudi1 = hudi1Ran();
    // the hudi1 columns (Hudi 1.1.1, version 9) sit after hudi's, only in a run that has them
    String fmt = "%-12s %9s %9s %8s" + (hudi1 ? " %9s %8s" : "%s%s") + " %9s %8s %10s %10s %9s %9s %9s  %s%n";
    out.printf(Locale.ROOT, fmt, "workload", "sluice_s", "hudi_s", "hudi/sl", hudi1 ? "hudi1_s" : "",
        hudi1 ? "hu1/sl" : "", "floor_s", "sl/floor", "sluice_MB", "hudi_MB", "sl_heapMB", "hu_heapMB", "rows",
        "check");
    for (String label : runs.keySet()) {
      if (isMemoryRun(label)) {
        continue;
      }
      Optional<Double> s = median(label, SLUICE, "seconds");
      Optional<Double> h = median(label, HUDI, "seconds");
      Optional<Double> h1 = median(label, HUDI1, "seconds");
      Optional<Double> f = median(label, FLOOR, "seconds");
      out.printf(Locale.ROOT, fmt, label, sec(s, label, SLUICE), sec(h, label, HUDI), ratio(h, s),
          hudi1 ? sec(h1, label, HUDI1) : "", hudi1 ? ratio(h1, s) : "", sec(f, label, FLOOR),
          ratio(s, f), mb(median(label, SLUICE, "bytes")), mb(median(label, HUDI, "bytes")),
          mb(median(label, SLUICE, "peak_heap")), mb(median(label, HUDI, "peak_heap")),
          rows(label, SLUICE).or(() -> rows(label, HUDI)).map(String::valueOf).orElse("-"),
          expectedRows.getOrDefault(label, -1L) < 0 ? "-" : rowsOk(label) ? "ok" : "MISMATCH");
    }
    printTail(out);
  }

  /**
   * The Spark workloads' table: Sluice on Spark, Hudi on Spark and their ratio (hudi-spark/sluice-spark: above 1,
   * Sluice on Spark is faster); Spark's plain Parquet (spark-parquet, no table format: "-" where it has no such
   * operation) and Hudi on Spark over it (hudi-spark/spark-parquet: the most any table format on Spark could gain
   * over Hudi on Spark there) and Sluice on Spark over it; then Sluice alone and Spark's cost over it
   * (sluice-spark/sluice), all in the same run; bytes written and peak heaps of the two formats on Spark (the
   * driver's JVM: local mode runs the tasks there).
   */
  private void printSpark(PrintStream out) {
    String fmt = "%-12s %9s %9s %8s %9s %8s %8s %9s %9s %9s %9s %9s %9s %9s  %s%n";
    out.printf(Locale.ROOT, fmt, "workload", "slspark_s", "hudisp_s", "hsp/slsp", "sparkpq_s", "hsp/spq", "slsp/spq",
        "sluice_s", "slsp/sl", "slsp_MB",
        "hudisp_MB", "slsp_hpMB", "husp_hpMB", "rows", "check");
    for (String label : runs.keySet()) {
      if (isMemoryRun(label)) {
        continue;
      }
      Optional<Double> ss = median(label, SLUICE_SPARK, "seconds");
      Optional<Double> hs = median(label, HUDI_SPARK, "seconds");
      Optional<Double> pq = median(label, SPARK_PARQUET, "seconds");
      Optional<Double> s = median(label, SLUICE, "seconds");
      out.printf(Locale.ROOT, fmt, label, sec(ss, label, SLUICE_SPARK), sec(hs, label, HUDI_SPARK), ratio(hs, ss),
          sec(pq, label, SPARK_PARQUET), pq.isEmpty() ? "-" : ratio(hs, pq), pq.isEmpty() ? "-" : ratio(ss, pq),
          sec(s, label, SLUICE), ratio(ss, s), mb(median(label, SLUICE_SPARK, "bytes")),
          mb(median(label, HUDI_SPARK, "bytes")), mb(median(label, SLUICE_SPARK, "peak_heap")),
          mb(median(label, HUDI_SPARK, "peak_heap")),
          rows(label, SLUICE_SPARK).or(() -> rows(label, HUDI_SPARK)).map(String::valueOf).orElse("-"),
          !rowsOk(label) ? "MISMATCH" : expectedRows.getOrDefault(label, -1L) >= 0 || parquetChecked(label) ? "ok"
              : "-");
    }
  }

  /**
   * True if spark-parquet's read of {@code label} is checked against the engine whose table it read: a read-optimized
   * read both measured ({@link #parquetReadsOk} compares them).
   */
  private boolean parquetChecked(String label) {
    return label.startsWith("W3-ro-") && parquetTablesOf.isPresent() && measured(label, SPARK_PARQUET)
        && measured(label, parquetTablesOf.get());
  }

  private boolean measured(String label, String engine) {
    return !reports(label, engine).isEmpty() && whyUnavailable(label, engine).isEmpty();
  }

  private void printTail(PrintStream out) {
    out.println();
    for (String label : runs.keySet()) {
      if (!isMemoryRun(label)) {
        out.println(resultLine(label));
      }
    }
    if (!memory.isEmpty()) {
      out.println();
      memory.forEach(out::println);
    }
    if (!notes.isEmpty() || !unavailable.isEmpty()) {
      out.println();
      out.println("notes:");
      unavailable.forEach((label, m) -> m.forEach((engine, why) -> {
        if (!isMemoryRun(label)) {
          out.println("  " + label + " " + engine + ": " + why);
        }
      }));
      notes.forEach(n -> out.println("  " + n));
    }
  }

  /**
   * {@code MDT-COST workload=W2-cow engine=sluice off_s=… on_s=… cost_s=… cost_pct=…}: what keeping the metadata
   * table costs one commit, the median of {@code workload} with it ({@code workload+mdt}) against without, both from
   * the same run and repetitions; then the same from the worker process's CPU seconds ({@code off_cpu_s=…
   * on_cpu_s=… cpu_cost_pct=…}), which a loaded machine stretches much less than the wall clock.
   */
  String metadataCostLine(String workload, String engine) {
    return "MDT-COST workload=" + workload + " engine=" + engine
        + costFields(workload, engine, "seconds", " off_s=", " on_s=", " cost_s=", " cost_pct=")
        + costFields(workload, engine, "cpu_seconds", " off_cpu_s=", " on_cpu_s=", " cpu_cost_s=", " cpu_cost_pct=");
  }

  private String costFields(String workload, String engine, String field, String... names) {
    Optional<Double> off = median(workload, engine, field);
    Optional<Double> on = median(workload + MDT, engine, field);
    String cost = "n/a";
    String pct = "n/a";
    if (off.isPresent() && on.isPresent()) {
      cost = fmt(on.get() - off.get(), 3);
      pct = fmt(100 * (on.get() - off.get()) / off.get(), 1);
    }
    return names[0] + num(off, 3) + names[1] + num(on, 3) + names[2] + cost + names[3] + pct;
  }

  /**
   * {@code RESULT workload=... sluice_s=... hudi_s=... ratio=... sluice_bytes=... hudi_bytes=... floor_s=...}; in a
   * run with the hudi1 engine also {@code hudi1_s=... hudi1_ratio=... hudi1_bytes=... hudi1_heap=... hudi1_rows=...}
   * (hudi1_ratio is hudi1/sluice, as ratio is hudi/sluice).
   */
  String resultLine(String label) {
    Optional<Double> s = median(label, SLUICE, "seconds");
    Optional<Double> h = median(label, HUDI, "seconds");
    Optional<Double> f = median(label, FLOOR, "seconds");
    StringBuilder b = new StringBuilder("RESULT workload=").append(label);
    b.append(" sluice_s=").append(num(s, 3));
    b.append(" hudi_s=").append(num(h, 3));
    b.append(" ratio=").append(ratio(h, s));
    b.append(" sluice_bytes=").append(num(median(label, SLUICE, "bytes"), 0));
    b.append(" hudi_bytes=").append(num(median(label, HUDI, "bytes"), 0));
    b.append(" floor_s=").append(num(f, 3));
    b.append(" sluice_floor=").append(ratio(s, f));
    b.append(" floor_bytes=").append(num(median(label, FLOOR, "bytes"), 0));
    b.append(" sluice_heap=").append(num(median(label, SLUICE, "peak_heap"), 0));
    b.append(" hudi_heap=").append(num(median(label, HUDI, "peak_heap"), 0));
    b.append(" sluice_rows=").append(rows(label, SLUICE).map(String::valueOf).orElse("n/a"));
    b.append(" hudi_rows=").append(rows(label, HUDI).map(String::valueOf).orElse("n/a"));
    long expected = expectedRows.getOrDefault(label, -1L);
    b.append(" expected_rows=").append(expected < 0 ? "n/a" : String.valueOf(expected));
    if (hudi1Ran()) {
      Optional<Double> h1 = median(label, HUDI1, "seconds");
      b.append(" hudi1_s=").append(num(h1, 3));
      b.append(" hudi1_ratio=").append(ratio(h1, s));
      b.append(" hudi1_bytes=").append(num(median(label, HUDI1, "bytes"), 0));
      b.append(" hudi1_heap=").append(num(median(label, HUDI1, "peak_heap"), 0));
      b.append(" hudi1_rows=").append(rows(label, HUDI1).map(String::valueOf).orElse("n/a"));
    }
    if (sparkRan()) {
      Optional<Double> ss = median(label, SLUICE_SPARK, "seconds");
      Optional<Double> hs = median(label, HUDI_SPARK, "seconds");
      b.append(" sluice_spark_s=").append(num(ss, 3));
      b.append(" hudi_spark_s=").append(num(hs, 3));
      b.append(" spark_ratio=").append(ratio(hs, ss));
      b.append(" spark_overhead=").append(ratio(ss, s));
      b.append(" sluice_spark_bytes=").append(num(median(label, SLUICE_SPARK, "bytes"), 0));
      b.append(" hudi_spark_bytes=").append(num(median(label, HUDI_SPARK, "bytes"), 0));
      b.append(" sluice_spark_rows=").append(rows(label, SLUICE_SPARK).map(String::valueOf).orElse("n/a"));
      b.append(" hudi_spark_rows=").append(rows(label, HUDI_SPARK).map(String::valueOf).orElse("n/a"));
      // added later: the plain Parquet reference and every engine's CPU seconds (fields above unchanged)
      Optional<Double> pq = median(label, SPARK_PARQUET, "seconds");
      b.append(" spark_parquet_s=").append(num(pq, 3));
      b.append(" parquet_ratio=").append(ratio(hs, pq));
      b.append(" sluice_spark_parquet=").append(ratio(ss, pq));
      b.append(" spark_parquet_bytes=").append(num(median(label, SPARK_PARQUET, "bytes"), 0));
      b.append(" spark_parquet_rows=").append(rows(label, SPARK_PARQUET).map(String::valueOf).orElse("n/a"));
      Optional<Double> ssCpu = median(label, SLUICE_SPARK, "cpu_seconds");
      Optional<Double> hsCpu = median(label, HUDI_SPARK, "cpu_seconds");
      Optional<Double> pqCpu = median(label, SPARK_PARQUET, "cpu_seconds");
      b.append(" sluice_spark_cpu_s=").append(num(ssCpu, 3));
      b.append(" hudi_spark_cpu_s=").append(num(hsCpu, 3));
      b.append(" spark_parquet_cpu_s=").append(num(pqCpu, 3));
      b.append(" sluice_cpu_s=").append(num(median(label, SLUICE, "cpu_seconds"), 3));
      b.append(" spark_cpu_ratio=").append(ratio(hsCpu, ssCpu));
      b.append(" parquet_cpu_ratio=").append(ratio(hsCpu, pqCpu));
    }
    b.append(" rows_ok=").append(rowsOk(label));
    if (label.startsWith("W3-")) {
      Optional<Long> rows = rows(label, SLUICE).or(() -> rows(label, HUDI));
      if (rows.isPresent() && rows.get() > 0) {
        double m = rows.get() / 1e6;
        b.append(" sluice_s_per_mrow=").append(num(s.map(x -> x / m), 3));
        b.append(" hudi_s_per_mrow=").append(num(h.map(x -> x / m), 3));
      }
    }
    if (label.equals("W5")) {
      for (String engine : List.of(SLUICE, HUDI)) {
        Optional<Double> lookups = median(label, engine, "lookups");
        Optional<Double> index = median(label, engine, "index_files");
        Optional<Double> data = median(label, engine, "data_files");
        if (lookups.isPresent() && lookups.get() > 0) {
          b.append(' ').append(engine).append("_index_files_per_lookup=")
              .append(index.filter(x -> x >= 0).map(x -> fmt(x / lookups.get(), 3)).orElse("n/a"));
          b.append(' ').append(engine).append("_data_files_per_lookup=")
              .append(data.map(x -> fmt(x / lookups.get(), 3)).orElse("n/a"));
        }
      }
    }
    return b.toString();
  }

  private String sec(Optional<Double> v, String label, String engine) {
    if (v.isPresent()) {
      return fmt(v.get(), 3);
    }
    return whyUnavailable(label, engine).map(w -> w.startsWith("failed") ? "failed" : "n/a").orElse("-");
  }

  private static String ratio(Optional<Double> num, Optional<Double> den) {
    if (num.isEmpty() || den.isEmpty() || den.get() <= 0) {
      return "n/a";
    }
    return fmt(num.get() / den.get(), 2);
  }

  private static String num(Optional<Double> v, int decimals) {
    return v.map(x -> fmt(x, decimals)).orElse("n/a");
  }

  private static String mb(Optional<Double> bytes) {
    return bytes.map(b -> fmt(b / (1024 * 1024), 1)).orElse("-");
  }

  private static String fmt(double v, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }
}
