package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.bench.data.Workloads;
import dev.sluice.bench.measure.Dirs;
import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.steps.StepRunner;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The benchmark driver: runs every selected workload on Sluice and on Apache Hudi 0.15.0 (its Java write client, in
 * a JVM with hudi-oracle's classpath) and on the raw-file floor, each step in a fresh child JVM with the same heap
 * and GC, the two engines alternating first place from one repetition to the next; then prints the medians and
 * one {@code RESULT} line per workload. With {@code --table-version 8|9} Sluice creates its tables at that version
 * and a third engine, {@code hudi1} (Hudi 1.1.1's Java client on version 9 tables, in a JVM with hudi1-oracle's
 * classpath), runs the same steps on the same data beside Hudi 0.15.0 (not W5's lookups). Tables a workload starts
 * from (the W1 table, the MoR table after k delta commits) are built once per engine, untimed, and copied for every
 * step that changes them.
 */
public final class BenchDriver {
  private static final List<String> WORKLOADS = List.of("W1-bulk", "W1-insert", "W2-cow", "W2-mor",
      "W2-cow" + BenchResults.MDT, "W2-mor" + BenchResults.MDT, "W3", "W4", "W5", "W6-cow", "W6-mor");

  private final BenchOptions o;
  private final PrintStream out;
  private final Path work;
  private final Path tables;
  private final ChildJvm jvm;
  private final Map<String, ChildJvm.Side> sides = new HashMap<>();
  private final BenchResults results = new BenchResults();
  /** Setup tables already built: engine/name to folder, or empty if building failed. */
  private final Map<String, Optional<Path>> setups = new HashMap<>();
  /** Per engine: true if its delta commits wrote log files. */
  private final Map<String, Boolean> deltasWroteLogs = new HashMap<>();
  private int copies;

  private BenchDriver(BenchOptions o, PrintStream out) throws IOException {
    this.o = o;
    this.out = out;
    this.work = o.workDir().isPresent() ? Files.createDirectories(o.workDir().get())
        : Files.createTempDirectory("sluice-bench");
    this.tables = Files.createDirectories(work.resolve("tables"));
    Path tmp = Files.createDirectories(work.resolve("tmp"));
    this.jvm = new ChildJvm(ChildJvm.standardOptions(o.heap(), tmp, o.jvmOpts()), work.resolve("logs"),
        o.timeoutMinutes());
    sides.put(BenchResults.SLUICE, new ChildJvm.Side(BenchResults.SLUICE, sluiceClasspath(),
        SluiceWorker.class.getName()));
    sides.put(BenchResults.FLOOR, new ChildJvm.Side(BenchResults.FLOOR, sluiceClasspath(),
        SluiceWorker.class.getName()));
    sides.put(BenchResults.HUDI, new ChildJvm.Side(BenchResults.HUDI, hudiClasspath(o.oracleDir()),
        "dev.sluice.oracle.BenchWorker"));
    if (o.runs(BenchResults.SLUICE_SPARK)) {
      sides.put(BenchResults.SLUICE_SPARK, new ChildJvm.Side(BenchResults.SLUICE_SPARK,
          // by name: the worker's class refers to Spark's, which this JVM does not have
          sluiceSparkClasspath(), "dev.sluice.bench.SluiceSparkWorker"));
    }
    if (o.runs(BenchResults.SPARK_PARQUET)) {
      // the same class path as Sluice on Spark: the same Spark, and Sluice's API to list a table's base files
      sides.put(BenchResults.SPARK_PARQUET, new ChildJvm.Side(BenchResults.SPARK_PARQUET, sluiceSparkClasspath(),
          "dev.sluice.bench.SparkParquetWorker"));
    }
    if (o.runs(BenchResults.HUDI_SPARK)) {
      sides.put(BenchResults.HUDI_SPARK, new ChildJvm.Side(BenchResults.HUDI_SPARK,
          SqlBench.sparkClasspath(o.sparkOracleDir()), "dev.sluice.oracle.HudiSparkBenchWorker"));
    }
    if (o.runs(BenchResults.HUDI1)) {
      sides.put(BenchResults.HUDI1, new ChildJvm.Side(BenchResults.HUDI1, hudiClasspath(o.hudi1OracleDir()),
          "dev.sluice.oracle.Hudi1BenchWorker"));
    }
  }

  /**
   * Runs the benchmarks; exits 0 if every worker succeeded and every row check passed, 1 otherwise, 2 on a bad
   * command line.
   *
   * @param args see {@link BenchOptions#USAGE}
   */
  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("--cli")) {
      System.exit(CliBench.main(List.of(args).subList(1, args.length), System.out));
      return;
    }
    if (ClusterBench.wanted(args)) {
      System.exit(ClusterBench.run(args, System.out));
      return;
    }
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      boolean help = "help".equals(e.getMessage());
      if (!help) {
        System.err.println("sluice-bench: " + e.getMessage());
      }
      System.err.println(BenchOptions.USAGE);
      System.exit(help ? 0 : 2);
      return;
    }
    System.exit(run(options, System.out));
  }

  /** Runs with {@code options}, printing to {@code out}; returns the exit status. */
  static int run(BenchOptions options, PrintStream out) {
    try {
      BenchDriver d = new BenchDriver(options, out);
      return d.runAll();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private int runAll() {
    BenchOptions.Scale s = o.scale();
    out.printf(Locale.ROOT, "sluice-bench: scale %s (%,d records, batches of %,d, %,d deletes, %,d lookups, "
            + "delta commits %s, warm-up runs of %,d records), %d rep(s), -Xmx%s, parallelism %d, %d cores; work dir "
            + "%s; Sluice's tables at version %d%s%n", s.name(), s.records(), s.batch(), s.deletes(), s.lookups(),
        s.commits(), s.warmup(), o.reps(),
        o.heap(), o.parallelism(),
        Runtime.getRuntime().availableProcessors(), work, o.tableVersion(),
        (o.runs(BenchResults.HUDI1) ? ", hudi1: Hudi 1.1.1 on version 9" : "")
            + (o.runs(BenchResults.SLUICE_SPARK) || o.runs(BenchResults.HUDI_SPARK) ? ", Spark 3.5.7 local["
            + o.parallelism() + "]: sluice-spark (format sluice), hudi-spark (Hudi 0.15.0's format hudi)"
            + (o.runs(BenchResults.SPARK_PARQUET) ? ", spark-parquet (format parquet, no table format)" : "") : ""));
    declareRows();
    if (o.runs(BenchResults.SPARK_PARQUET)) {
      results.note("spark-parquet (plain Parquet, no table format): W1 and W3 only, no upsert or compaction (\"-\"); "
          + "W1 without dedupe, index, sort or meta columns, and W3 reads the base files of the read-optimized view, "
          + "so its snapshot reads (log files not merged) are a lower bound");
    }
    for (int rep = 0; rep < o.reps(); rep++) {
      // alternate which engine goes first, so drift of the machine does not favour one side
      List<String> order = rep % 2 == 0 ? List.of(BenchResults.SLUICE_SPARK, BenchResults.HUDI_SPARK,
          BenchResults.SPARK_PARQUET, BenchResults.SLUICE, BenchResults.HUDI, BenchResults.HUDI1)
          : List.of(BenchResults.HUDI1, BenchResults.HUDI, BenchResults.SLUICE, BenchResults.SPARK_PARQUET,
          BenchResults.HUDI_SPARK, BenchResults.SLUICE_SPARK);
      for (String w : WORKLOADS) {
        if (!active(w)) {
          continue;
        }
        for (String engine : order) {
          if (o.runs(engine)) {
            workload(w, engine, rep);
          }
        }
        if (o.runs(BenchResults.FLOOR)) {
          floor(w, rep);
        }
      }
    }
    if (o.memoryRuns()) {
      memoryRuns();
    }
    boolean workloads = WORKLOADS.stream().anyMatch(this::active);
    if (workloads) {
      results.print(out, "medians over " + o.reps() + " rep(s), seconds (ratios: " + (results.sparkRan()
          ? "hudi-spark/sluice-spark, hudi-spark/spark-parquet, sluice-spark/spark-parquet, sluice-spark/sluice"
          : "hudi/sluice, sluice/floor") + "):");
    }
    if (o.metadataCost()) {
      out.println();
      for (String w : List.of("W2-cow", "W2-mor")) {
        for (String engine : List.of(BenchResults.SLUICE, BenchResults.HUDI)) {
          if (active(w) && o.runs(engine)) {
            out.println(results.metadataCostLine(w, engine));
          }
        }
      }
    }
    boolean ok = !results.anyFailure();
    if (o.scaleSelected()) {
      ok &= new ScaleBench(o, out, tables, common(), jvm, sides).run();
    }
    if (o.sqlSelected()) {
      ok &= new SqlBench(o, out, jvm, this::table, work, sluiceClasspath()).run();
    }
    for (String label : labels()) {
      ok &= results.rowsOk(label);
    }
    cleanUp(ok);
    return ok ? 0 : 1;
  }

  private List<String> labels() {
    List<String> out = new ArrayList<>();
    for (String w : WORKLOADS) {
      if (active(w)) {
        out.addAll(labelsOf(w));
      }
    }
    return out;
  }

  /** True if workload {@code w} runs: selected, and one of the metadata-table copies of W2 only with --metadata-cost. */
  private boolean active(String w) {
    boolean mdt = w.endsWith(BenchResults.MDT);
    return (!mdt || o.metadataCost()) && o.selected(mdt ? w.substring(0, w.length() - BenchResults.MDT.length()) : w);
  }

  private List<String> labelsOf(String w) {
    if (w.startsWith("W2-")) {
      return List.of(w);
    }
    if (w.equals("W1-bulk") || w.equals("W1-insert") || w.equals("W4")
        || w.equals("W5") || w.equals("W6-cow") || w.equals("W6-mor")) {
      return List.of(w);
    }
    List<String> out = new ArrayList<>();
    for (int k : o.scale().commits()) {
      out.add("W3-snap-" + k);
      out.add("W3-ro-" + k);
    }
    return out;
  }

  private void declareRows() {
    BenchOptions.Scale s = o.scale();
    long n = s.records();
    for (String w : WORKLOADS) {
      if (!active(w)) {
        continue;
      }
      switch (w) {
        case "W1-bulk", "W1-insert" -> results.declare(w, n);
        case "W2-cow", "W2-mor", "W2-cow" + BenchResults.MDT, "W2-mor" + BenchResults.MDT ->
            results.declare(w, Workloads.sizeAfter(n, 1, s.batch()));
        case "W3" -> {
          for (int k : s.commits()) {
            results.declare("W3-snap-" + k, Workloads.sizeAfter(n, k, s.batch()));
            // read-optimized: base files only; rows differ by engine layout, so not checked
            results.declare("W3-ro-" + k, -1);
          }
        }
        case "W4" -> results.declare(w, Workloads.sizeAfter(n, s.lastCommit(), s.batch()));
        case "W5" -> results.declare(w, s.lookups());
        case "W6-cow", "W6-mor" -> results.declare(w, n - s.deletes());
        default -> throw new IllegalStateException(w);
      }
    }
  }

  /** Options every step gets. */
  private Map<String, String> common() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("seed", Long.toString(o.seed()));
    m.put("small-file-limit", Long.toString(104_857_600L));
    m.put("max-file-size", Long.toString(125_829_120L));
    m.put("parallelism", Integer.toString(o.parallelism()));
    m.put("warmup", Long.toString(o.scale().warmup()));
    m.put("scratch", work.resolve("scratch").toString());
    m.put("records", Long.toString(o.scale().records()));
    m.put("log-format", o.logFormat());
    m.put("metadata-table", Boolean.toString(o.metadataTable()));
    // Sluice's side creates its tables at this version; hudi1 always writes 9, hudi (0.15.0) 6
    m.put("table-version", Integer.toString(o.tableVersion()));
    return m;
  }

  private void workload(String w, String engine, int rep) {
    if ((w.equals("W5") || w.startsWith("W6")) && isSpark(engine)) {
      results.unavailable(w, engine, "n/a: not a Spark workload (point lookups and deletes are not run on Spark)");
      return;
    }
    if ((w.startsWith("W2") || w.equals("W4")) && engine.equals(BenchResults.SPARK_PARQUET)) {
      // no upsert or compaction in plain Parquet: shown as "-", the docs say why
      return;
    }
    if (w.equals("W5") && engine.equals(BenchResults.HUDI1)) {
      results.unavailable(w, engine, "n/a: point lookups are not run on Hudi 1.1.1 (hudi1)");
      return;
    }
    BenchOptions.Scale s = o.scale();
    Map<String, String> a = common();
    switch (w) {
      case "W1-bulk", "W1-insert" -> {
        a.put("table", fresh(engine, w).toString());
        a.put("type", "cow");
        a.put("label", w);
        step(w, engine, rep, w.equals("W1-bulk") ? "bulk-insert" : "insert", a, List.of());
      }
      case "W2-cow", "W2-mor", "W2-cow" + BenchResults.MDT, "W2-mor" + BenchResults.MDT, "W6-cow", "W6-mor" -> {
        boolean mor = w.contains("-mor");
        // --metadata-cost: the same upsert on a base table that keeps the metadata table, keeping it
        boolean mdt = w.endsWith(BenchResults.MDT);
        if (mdt) {
          a.put("metadata-table", "true");
        }
        Optional<Path> base = setup(engine, (mor ? "mor-base" : "cow-base") + (mdt ? "-mdt" : ""));
        if (base.isEmpty()) {
          results.unavailable(w, engine, "failed: its setup table could not be built");
          return;
        }
        Path copy = copyOf(base.get(), engine, w);
        a.put("table", copy.toString());
        a.put("type", mor ? "mor" : "cow");
        a.put("label", w);
        if (w.startsWith("W2")) {
          a.put("batch", Integer.toString(s.batch()));
        } else {
          a.put("count", Integer.toString(s.deletes()));
        }
        step(w, engine, rep, w.startsWith("W2") ? "upsert" : "delete", a, List.of());
        Dirs.delete(copy);
        if (mor && engine.equals(BenchResults.SLUICE)) {
          flagMissingLogs(w);
        }
      }
      case "W3" -> reads(engine, rep, s.commits(), List.of(), "");
      case "W4" -> compaction(engine, rep, List.of(), "W4");
      case "W5" -> {
        Optional<Path> base = setup(engine, "cow-base");
        if (base.isEmpty()) {
          results.unavailable(w, engine, "failed: its setup table could not be built");
          return;
        }
        a.put("table", base.get().toString());
        a.put("type", "cow");
        a.put("label", w);
        a.put("count", Integer.toString(s.lookups()));
        step(w, engine, rep, "lookup", a, List.of());
      }
      default -> throw new IllegalStateException(w);
    }
  }

  /** Sluice's MoR write wrote no log files: the MoR write path is not there yet, so its number is not MoR's. */
  private void flagMissingLogs(String label) {
    List<JsonNode> r = results.reports(label, BenchResults.SLUICE);
    if (!r.isEmpty() && r.get(r.size() - 1).path("log_files").asLong() == 0) {
      double sec = r.get(r.size() - 1).path("seconds").asDouble();
      results.unavailable(label, BenchResults.SLUICE, String.format(Locale.ROOT,
          "n/a: Sluice wrote no log files (Merge-on-Read log writes missing; it rewrote base files in %.3f s)", sec));
    }
  }

  private void reads(String engine, int rep, List<Integer> commits, List<String> jvmOverrides, String suffix) {
    String writer = tablesFor(engine);
    Optional<Path> ignored = setup(writer, "mor-deltas");
    List<String> specs = new ArrayList<>();
    for (int k : commits) {
      Optional<Path> t = setups.getOrDefault(writer + "/mor-d" + k, Optional.empty());
      if (ignored.isEmpty() || t.isEmpty()) {
        results.unavailable("W3-snap-" + k + suffix, engine, "failed: its setup table could not be built");
        results.unavailable("W3-ro-" + k + suffix, engine, "failed: its setup table could not be built");
        continue;
      }
      if (engine.equals(BenchResults.SLUICE) && !deltasWroteLogs.getOrDefault(engine, true)) {
        results.unavailable("W3-snap-" + k + suffix, engine,
            "n/a: Sluice's delta commits wrote no log files (Merge-on-Read log writes missing)");
      }
      specs.add("W3-snap-" + k + suffix + "=" + t.get() + "@snapshot");
      if (suffix.isEmpty()) {
        specs.add("W3-ro-" + k + "=" + t.get() + "@ro");
      }
    }
    if (specs.isEmpty()) {
      return;
    }
    Map<String, String> a = common();
    a.put("reads", String.join(",", specs));
    a.put("type", "mor");
    List<String> labels = new ArrayList<>();
    specs.forEach(spec -> labels.add(spec.substring(0, spec.indexOf('='))));
    step("W3", labels, engine, rep, "read", a, jvmOverrides);
  }

  /**
   * Whose W3 tables {@code engine} reads: its own; spark-parquet, which cannot write them, reads Sluice on Spark's
   * of the same run (the read-optimized rows are then checked against Sluice on Spark's), else Sluice alone's.
   */
  private String tablesFor(String engine) {
    if (!engine.equals(BenchResults.SPARK_PARQUET)) {
      return engine;
    }
    String writer = o.runs(BenchResults.SLUICE_SPARK) ? BenchResults.SLUICE_SPARK : BenchResults.SLUICE;
    results.parquetReadsTablesOf(writer);
    return writer;
  }

  private void compaction(String engine, int rep, List<String> jvmOverrides, String label) {
    setup(engine, "mor-deltas");
    Optional<Path> last = setups.getOrDefault(engine + "/mor-d" + o.scale().lastCommit(), Optional.empty());
    if (last.isEmpty()) {
      results.unavailable(label, engine, "failed: its setup table could not be built");
      return;
    }
    Path copy = copyOf(last.get(), engine, label);
    Map<String, String> a = common();
    a.put("table", copy.toString());
    a.put("type", "mor");
    a.put("label", label);
    step("W4", List.of(label), engine, rep, "compact", a, jvmOverrides);
    Dirs.delete(copy);
  }

  /** Runs one worker step; its reports go to the results under their labels. */
  private void step(String workload, String engine, int rep, String step, Map<String, String> args,
      List<String> jvmOverrides) {
    step(workload, labelsOf(workload), engine, rep, step, args, jvmOverrides);
  }

  /** Runs one worker step; on failure every label in {@code labels} is marked failed for {@code engine}. */
  private void step(String workload, List<String> labels, String engine, int rep, String step,
      Map<String, String> args, List<String> jvmOverrides) {
    List<String> jvmOptions = new ArrayList<>(jvmOverrides);
    if (o.jfrDir().isPresent() && (engine.equals(BenchResults.SLUICE) || (engine.equals(BenchResults.HUDI)
        && o.jfrHudi()))) {
      jvmOptions.add("-D" + StepRunner.JFR_DIR + "=" + o.jfrDir().get().toAbsolutePath().resolve("r" + rep));
    }
    ChildJvm.Outcome r = jvm.run(sides.get(engine), StepArgs.format(step, mergeOnReadLimits(args)),
        withSpark(engine, jvmOptions));
    out.printf(Locale.ROOT, "  rep %d %-9s %-6s %-12s %s%n", rep + 1, workload, engine, step,
        r.ok() ? summary(r.reports()) : "FAILED (exit " + r.exitCode() + ", log " + r.log() + ")");
    out.flush();
    if (!r.ok()) {
      System.err.println(ChildJvm.tail(r.log(), 30));
      for (String label : labels) {
        results.unavailable(label, engine, "failed: worker exit " + r.exitCode() + " (" + r.log() + ")");
      }
      return;
    }
    for (JsonNode report : r.reports()) {
      String label = report.path("label").asText();
      if (report.has("missing")) {
        results.unavailable(label, engine, "n/a: " + report.get("missing").asText() + " is missing");
      } else {
        results.add(label, engine, report);
      }
    }
  }

  /**
   * Merge-on-Read steps run with a small-file limit of 0 on both sides: with a BLOOM index (which cannot index
   * log files) Hudi "corrects" a base file below the limit by rewriting it, as Copy-on-Write does, so with the
   * default limit no update would reach a log file.
   */
  private static Map<String, String> mergeOnReadLimits(Map<String, String> args) {
    if ("mor".equals(args.get("type"))) {
      args.put("small-file-limit", "0");
    }
    return args;
  }

  private static String summary(List<JsonNode> reports) {
    StringBuilder b = new StringBuilder();
    for (JsonNode r : reports) {
      if (b.length() > 0) {
        b.append("; ");
      }
      b.append(r.path("label").asText());
      if (r.has("missing")) {
        b.append(" missing ").append(r.get("missing").asText());
        continue;
      }
      b.append(String.format(Locale.ROOT, " %.3f s", r.path("seconds").asDouble()));
      if (r.has("rows")) {
        b.append(", ").append(r.get("rows").asLong()).append(" rows");
      }
      if (r.path("bytes").asLong() > 0) {
        b.append(String.format(Locale.ROOT, ", %.1f MB", r.path("bytes").asLong() / 1048576.0));
      }
      if (r.path("log_files").asLong() > 0) {
        b.append(", ").append(r.path("log_files").asLong()).append(" log files");
      }
    }
    return b.toString();
  }

  private void floor(String w, int rep) {
    BenchOptions.Scale s = o.scale();
    Map<String, String> a = common();
    switch (w) {
      case "W1-bulk" -> {
        Path dir = fresh(BenchResults.FLOOR, w);
        a.put("out", dir.toString());
        a.put("label", w);
        floorStep(w, rep, "floor-insert", a,
            List.of("W1-bulk", "W1-insert").stream().filter(o::selected).toList());
        Dirs.delete(dir);
      }
      case "W2-cow", "W6-cow" -> {
        Optional<Path> base = setup(BenchResults.SLUICE, "cow-base");
        if (base.isEmpty()) {
          return;
        }
        Path dir = fresh(BenchResults.FLOOR, w);
        a.put("table", base.get().toString());
        a.put("out", dir.toString());
        a.put("label", w);
        if (w.startsWith("W2")) {
          a.put("batch", Integer.toString(s.batch()));
        } else {
          a.put("count", Integer.toString(s.deletes()));
        }
        floorStep(w, rep, "floor-rewrite", a, List.of(w));
        Dirs.delete(dir);
      }
      case "W2-mor", "W6-mor" -> {
        Path dir = fresh(BenchResults.FLOOR, w);
        mkdirs(dir);
        a.put("out", dir.resolve("changed.avro").toString());
        a.put("label", w);
        if (w.startsWith("W2")) {
          a.put("batch", Integer.toString(s.batch()));
        } else {
          a.put("count", Integer.toString(s.deletes()));
        }
        floorStep(w, rep, "floor-encode", a, List.of(w));
        Dirs.delete(dir);
      }
      case "W3" -> {
        setup(BenchResults.SLUICE, "mor-deltas");
        List<String> specs = new ArrayList<>();
        for (int k : s.commits()) {
          Optional<Path> t = setups.getOrDefault(BenchResults.SLUICE + "/mor-d" + k, Optional.empty());
          if (t.isPresent()) {
            specs.add("W3-snap-" + k + "=" + t.get() + "@snapshot");
            specs.add("W3-ro-" + k + "=" + t.get() + "@ro");
          }
        }
        if (!specs.isEmpty()) {
          a.put("reads", String.join(",", specs));
          floorStep(w, rep, "floor-read", a, labelsOf(w));
        }
      }
      case "W1-insert" -> {
        if (!o.selected("W1-bulk")) {
          floor("W1-bulk", rep);
        }
      }
      default -> {
        // W4 and W5 have none
      }
    }
  }

  /** A floor step; its report counts for every label in {@code labels}. */
  private void floorStep(String w, int rep, String step, Map<String, String> a, List<String> labels) {
    ChildJvm.Outcome r = jvm.run(sides.get(BenchResults.FLOOR), StepArgs.format(step, a), List.of());
    out.printf(Locale.ROOT, "  rep %d %-9s %-6s %-12s %s%n", rep + 1, w, "floor", step,
        r.ok() ? summary(r.reports()) : "FAILED (exit " + r.exitCode() + ", log " + r.log() + ")");
    if (!r.ok()) {
      System.err.println(ChildJvm.tail(r.log(), 30));
      labels.forEach(l -> results.unavailable(l, BenchResults.FLOOR, "failed: floor exit " + r.exitCode()));
      return;
    }
    for (JsonNode report : r.reports()) {
      String label = report.path("label").asText();
      if (label.startsWith("W3")) {
        results.add(label, BenchResults.FLOOR, report);
      } else {
        labels.forEach(l -> results.add(l, BenchResults.FLOOR, report));
      }
    }
  }

  /**
   * The SQL workload's table {@code name} (cow-base, mor-base or mor-dK) as the engine {@code --sql-tables} names
   * wrote it, built once; empty if building it failed.
   */
  private Optional<Path> table(String name) {
    String writer = o.sqlTables();
    if (name.startsWith("mor-d")) {
      setup(writer, "mor-deltas");
      return setups.getOrDefault(writer + "/" + name, Optional.empty());
    }
    return setup(writer, name);
  }

  /**
   * Builds (once) the table {@code name} of {@code engine}: cow-base, mor-base (each also with the metadata table,
   * {@code -mdt}) or mor-deltas (mor-d1, ...).
   */
  private Optional<Path> setup(String engine, String name) {
    String key = engine + "/" + name;
    if (setups.containsKey(key)) {
      return setups.get(key);
    }
    Path dir = tables.resolve(engine).resolve(name);
    Map<String, String> a = common();
    a.put("warmup", "0");
    boolean ok;
    if (name.equals("mor-deltas")) {
      Optional<Path> base = setup(engine, "mor-base");
      if (base.isEmpty()) {
        setups.put(key, Optional.empty());
        return Optional.empty();
      }
      Dirs.copy(base.get(), dir);
      a.put("table", dir.toString());
      a.put("batch", Integer.toString(o.scale().batch()));
      a.put("commits", o.scale().commits().stream().map(String::valueOf).reduce((x, y) -> x + "," + y).orElse(""));
      a.put("snapshot-prefix", tables.resolve(engine).resolve("mor-d").toString());
      // W2-mor over many delta commits: each commit's time is reported; the first after a cold start is slowest
      a.put("warmup", Long.toString(o.scale().warmup()));
      a.put("type", "mor");
      ChildJvm.Outcome r = jvm.run(sides.get(engine), StepArgs.format("setup-deltas", mergeOnReadLimits(a)),
          withSpark(engine, List.of()));
      ok = r.ok();
      boolean logs = false;
      StringBuilder times = new StringBuilder();
      for (JsonNode rep : r.reports()) {
        logs |= rep.path("log_files").asLong() > 0;
        times.append(String.format(Locale.ROOT, " %.2f", rep.path("seconds").asDouble()));
      }
      deltasWroteLogs.put(engine, logs);
      results.note(String.format(Locale.ROOT, "W2-mor delta commits 1..%d, %s, seconds each (setup, 1 run):%s%s",
          o.scale().lastCommit(), engine, times, logs ? "" : " (no log files written)"));
      for (int k : o.scale().commits()) {
        setups.put(engine + "/mor-d" + k, ok ? Optional.of(tables.resolve(engine).resolve("mor-d" + k))
            : Optional.empty());
      }
      Dirs.delete(dir);
      report("setup " + name, engine, r);
    } else {
      a.put("table", dir.toString());
      a.put("type", name.startsWith("mor") ? "mor" : "cow");
      if (name.endsWith("-mdt")) {
        a.put("metadata-table", "true");
      }
      ChildJvm.Outcome r = jvm.run(sides.get(engine), StepArgs.format("setup-base", mergeOnReadLimits(a)),
          withSpark(engine, List.of()));
      ok = r.ok();
      report("setup " + name, engine, r);
    }
    Optional<Path> result = ok ? Optional.of(dir) : Optional.empty();
    setups.put(key, result);
    return result;
  }

  private void report(String what, String engine, ChildJvm.Outcome r) {
    out.printf(Locale.ROOT, "  %-28s %-6s %s%n", what, engine, r.ok() ? summary(r.reports()) + String.format(
        Locale.ROOT, " (JVM %.1f s)", r.wallSeconds()) : "FAILED (exit " + r.exitCode() + ", log " + r.log() + ")");
    if (!r.ok()) {
      System.err.println(ChildJvm.tail(r.log(), 30));
    }
  }

  /** The {@code -Xmx512m} runs: W3's snapshot read after the last delta commit, and W4. */
  private void memoryRuns() {
    List<String> small = List.of("-Xmx512m");
    int last = o.scale().lastCommit();
    for (String engine : List.of(BenchResults.SLUICE, BenchResults.HUDI)) {
      if (!o.runs(engine)) {
        continue;
      }
      if (o.selected("W3")) {
        String label = "W3-snap-" + last + "@512m";
        reads(engine, 0, List.of(last), small, "@512m");
        memoryLine(label, engine);
      }
      if (o.selected("W4")) {
        compaction(engine, 0, small, "W4@512m");
        memoryLine("W4@512m", engine);
      }
    }
  }

  private void memoryLine(String label, String engine) {
    Optional<String> why = results.whyUnavailable(label, engine);
    List<JsonNode> r = results.reports(label, engine);
    String status = why.map(w -> w.startsWith("failed") ? "did not finish (" + w + ")" : w)
        .orElse(r.isEmpty() ? "not run" : String.format(Locale.ROOT, "finished in %.3f s, peak heap %.0f MB, %d rows",
            r.get(0).path("seconds").asDouble(), r.get(0).path("peak_heap").asDouble() / 1048576,
            r.get(0).path("rows").asLong()));
    results.memory("MEMORY workload=" + label + " xmx=512m " + engine + ": " + status);
  }

  private Path fresh(String engine, String w) {
    return tables.resolve(engine).resolve(w + "-" + (++copies));
  }

  private Path copyOf(Path base, String engine, String w) {
    Path copy = fresh(engine, w);
    Dirs.copy(base, copy);
    return copy;
  }

  private static void mkdirs(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void cleanUp(boolean ok) {
    if (o.keep()) {
      out.println("kept " + work);
      return;
    }
    Dirs.delete(tables);
    Dirs.delete(work.resolve("tmp"));
    Dirs.delete(work.resolve("scratch"));
    if (ok) {
      Dirs.delete(work);
    } else {
      out.println("worker logs kept in " + work.resolve("logs"));
    }
  }

  private static String sluiceClasspath() {
    String classes = System.getProperty("sluice.bench.classes");
    String file = System.getProperty("sluice.bench.classpath.file");
    if (classes != null && file != null) {
      try {
        return classes + File.pathSeparator + Files.readString(Path.of(file), StandardCharsets.UTF_8).trim();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    return System.getProperty("java.class.path");
  }

  private static boolean isSpark(String engine) {
    return engine.equals(BenchResults.SLUICE_SPARK) || engine.equals(BenchResults.HUDI_SPARK)
        || engine.equals(BenchResults.SPARK_PARQUET);
  }

  /** A Spark worker's JVM options: {@code options} and what Spark 3.5 needs opened on Java 17. */
  private static List<String> withSpark(String engine, List<String> options) {
    if (!isSpark(engine)) {
      return options;
    }
    List<String> out = new ArrayList<>(SqlBench.SPARK_JVM);
    out.addAll(options);
    return out;
  }

  /**
   * The Sluice-on-Spark worker's class path: where this module's classes (the worker) and bench-data's (the steps)
   * were loaded from, sluice-spark's classes and its class path file (Spark 3.5, the Jackson it needs, Sluice's
   * core). Not this module's own class path: its Jackson is newer than Spark's Scala module takes.
   */
  static String sluiceSparkClasspath() {
    Path dir = Path.of(System.getProperty("sluice.spark.dir", "sluice-spark/target"));
    Path file = dir.resolve("spark.classpath");
    Path classes = dir.resolve("classes");
    if (!Files.isRegularFile(file) || !Files.isDirectory(classes)) {
      throw new IllegalStateException("sluice-spark is not built: expected " + file + " and " + classes
          + " (build with: mvn -B -q -DskipTests -pl sluice-bench -am package)");
    }
    try {
      return String.join(File.pathSeparator, codeSource(SluiceWorker.class), codeSource(StepRunner.class),
          classes.toString(), Files.readString(file, StandardCharsets.UTF_8).trim());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static String codeSource(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException("where " + c.getName() + " was loaded from", e);
    }
  }

  private static String hudiClasspath(Path oracleDir) {
    Path file = oracleDir.resolve("oracle.classpath");
    Path classes = oracleDir.resolve("classes");
    if (!Files.isRegularFile(file) || !Files.isDirectory(classes)) {
      throw new IllegalStateException("hudi-oracle is not built: expected " + file + " and " + classes
          + " (build with: mvn -B -q -DskipTests -pl sluice-bench -am package)");
    }
    try {
      return classes + File.pathSeparator + Files.readString(file, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
