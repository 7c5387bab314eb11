package dev.sluice.bench;

import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.data.Workloads;
import dev.sluice.tools.records.JsonRecordWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;

/**
 * {@code sluice-bench --cli}: what the command line costs as a user or a cron job runs it, one {@code bin/sluice}
 * process per command (JVM start, class loading, a cold JIT, input parsing, row formatting), beside the same command
 * lines run through {@code Main.execute} in one warmed JVM. Per table type (cow, mor): create, insert of the initial
 * records, N upserts (half updates spread over all file groups, half new keys, as W2), a full query to
 * {@code /dev/null} as JSON Lines and as CSV, a query of the key column only, and on mor a forced compaction
 * (schedule, then run). The inputs are JSON Lines files of the benchmark records (written once, untimed).
 *
 * <p>Before the timed runs, each side runs the whole sequence once on a small scratch table, untimed: for the
 * processes that builds bin/sluice if needed and its class-data sharing archives (so the figures are a user's
 * steady state; the first-use runs are printed too), for the in-JVM side it loads the classes and warms the JIT.
 */
final class CliBench {
  /**
   * Sizes.
   *
   * @param records the initial insert
   * @param batch records per upsert
   * @param upserts upserts per table
   * @param reps default repetitions (each on fresh tables)
   */
  record Scale(String name, long records, int batch, int upserts, int reps) {
    static Scale named(String name) {
      return switch (name.toLowerCase(Locale.ROOT)) {
        case "smoke" -> new Scale("smoke", 5_000, 1_000, 2, 1);
        case "quick" -> new Scale("quick", 50_000, 5_000, 3, 2);
        case "full" -> new Scale("full", 1_000_000, 100_000, 10, 3);
        default -> throw new IllegalArgumentException("unknown scale " + name + " (smoke, quick, full)");
      };
    }
  }

  static final String USAGE = String.join(System.lineSeparator(),
      "usage: sluice-bench --cli [--scale smoke|quick|full] [--reps N] [--upserts N] [--types cow,mor]",
      "                          [--java-opts \"OPTS\"] [--launcher PATH] [--compare PATH] [--work-dir DIR] [--keep]",
      "  scales: smoke (5k records, upserts of 1k), quick (50k, upserts of 5k),",
      "          full (1M, upserts of 100k: the issue's workload); --upserts: upserts per table (default 2, 3, 10)",
      "  --java-opts: SLUICE_JAVA_OPTS for the bin/sluice processes and the options of the in-JVM side",
      "          (default: the launcher's own)",
      "  --launcher: the script the processes run (default: this checkout's bin/sluice), e.g. an older build's",
      "          to compare; the in-JVM side always runs this checkout's CLI",
      "  --compare: also run every step with this launcher, alternating with --launcher step by step on a table of",
      "          its own (an A/B comparison that machine drift affects alike); its medians are the base_s column;",
      "          its processes keep their class-data sharing archives in WORK-DIR/compare-cache");

  private static final String PARALLEL_GC = "-XX:+UseParallelGC";

  private final Scale scale;
  private final int reps;
  private final int upserts;
  private final List<String> types;
  private final String javaOpts;
  private final Path work;
  private final boolean keep;
  private final Path root;
  private final Path launcher;
  private final Path compare;
  private final PrintStream out;
  /** Seconds by side ("cli", "jvm"), then type/step. */
  private final Map<String, Map<String, List<Double>>> seconds = new LinkedHashMap<>();
  private final Map<String, Double> firstUse = new LinkedHashMap<>();
  private boolean ok = true;
  /** The CPU seconds of the last process {@link #process} ran. */
  private double lastCpu;

  private CliBench(Scale scale, int reps, int upserts, List<String> types, String javaOpts, Path work, boolean keep,
      Path root, Path launcher, Path compare, PrintStream out) {
    this.scale = scale;
    this.reps = reps;
    this.upserts = upserts;
    this.types = types;
    this.javaOpts = javaOpts;
    this.work = work;
    this.keep = keep;
    this.root = root;
    this.launcher = launcher;
    this.compare = compare;
    this.out = out;
  }

  /** Parses {@code args} (after {@code --cli}), runs, returns the exit status (2: bad command line). */
  static int main(List<String> args, PrintStream out) {
    Scale scale = Scale.named("quick");
    Integer reps = null;
    Integer upserts = null;
    List<String> types = List.of("cow", "mor");
    String javaOpts = PARALLEL_GC;
    Path work = null;
    Path launcher = null;
    Path compare = null;
    boolean keep = false;
    try {
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        switch (a) {
          case "--scale" -> scale = Scale.named(args.get(++i));
          case "--reps" -> reps = Integer.parseInt(args.get(++i));
          case "--upserts" -> upserts = Integer.parseInt(args.get(++i));
          case "--types" -> types = List.of(args.get(++i).split(","));
          case "--java-opts" -> javaOpts = args.get(++i);
          case "--work-dir" -> work = Path.of(args.get(++i));
          case "--keep" -> keep = true;
          case "--launcher" -> launcher = Path.of(args.get(++i)).toAbsolutePath();
          case "--compare" -> compare = Path.of(args.get(++i)).toAbsolutePath();
          case "--help", "-h" -> {
            out.println(USAGE);
            return 0;
          }
          default -> throw new IllegalArgumentException("unknown option " + a);
        }
      }
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      System.err.println("sluice-bench --cli: " + e.getMessage());
      System.err.println(USAGE);
      return 2;
    }
    try {
      Path dir = work != null ? Files.createDirectories(work) : Files.createTempDirectory("sluice-bench-cli");
      CliBench b = new CliBench(scale, reps != null ? reps : scale.reps(), upserts != null ? upserts : scale.upserts(),
          types, javaOpts, dir, keep, repoRoot(), launcher != null ? launcher : repoRoot().resolve("bin/sluice"), compare, out);
      return b.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A warning when {@code nullDevice} (the queries' rows go there) is not a character device. A container that lost
   * its {@code /dev/null} and got a regular file in its place (a shell's {@code > /dev/null} creates one) makes every
   * query write its rows to memory-backed storage: on this machine that cost a 1.15M-row query about a second of
   * system CPU, which the query's figures would then include.
   */
  static Optional<String> nullDeviceWarning(Path nullDevice) throws IOException {
    // only a Unix file system tells a file's type bits (and only there is /dev/null a device)
    if (!nullDevice.getFileSystem().supportedFileAttributeViews().contains("unix") || !Files.exists(nullDevice)) {
      return Optional.empty();
    }
    Object type = Files.readAttributes(nullDevice, "unix:mode").get("mode");
    // S_IFCHR: the file type bits of st_mode say character device
    boolean characterDevice = type instanceof Integer mode && (mode & 0170000) == 0020000;
    return characterDevice ? Optional.empty() : Optional.of("  WARNING: " + nullDevice
        + " is not a character device here (a regular file took its place): the queries' rows are written to it and"
        + " their times include that write. As root: rm /dev/null && mknod -m 666 /dev/null c 1 3");
  }

  private static Path repoRoot() {
    String r = System.getProperty("sluice.root");
    return r != null ? Path.of(r) : Path.of("").toAbsolutePath();
  }

  private int run() throws IOException {
    out.printf(Locale.ROOT, "sluice-bench --cli: scale %s (%,d records, %d upserts of %,d), %d rep(s), java options "
        + "\"%s\", %d cores; processes run %s; work dir %s%n", scale.name(), scale.records(), upserts, scale.batch(),
        reps, javaOpts, Runtime.getRuntime().availableProcessors(), launcher, work);
    // the processes' java is JAVA_HOME's (bin/sluice's rule), the in-JVM side's this JVM's: say both
    String javaHome = System.getenv("JAVA_HOME");
    out.printf(Locale.ROOT, "  processes' java: %s; in-JVM side: Java %s (%s)%n", javaHome == null || javaHome.isEmpty()
        ? "the java on the PATH" : javaHome + "/bin/java", System.getProperty("java.version"),
        System.getProperty("java.home"));
    nullDeviceWarning(Path.of("/dev/null")).ifPresent(out::println);
    Path inputs = Files.createDirectories(work.resolve("inputs"));
    long warmRecords = Math.max(1_000, scale.records() / 10);
    int warmBatch = Math.max(100, scale.batch() / 10);
    writeInputs(inputs, "warm-", warmRecords, warmBatch, 1);
    writeInputs(inputs, "", scale.records(), scale.batch(), upserts);
    for (String type : types) {
      // untimed: bin/sluice builds itself and its archives; the figures are printed as first use
      List<Step> warm = steps(type, work.resolve("warm-cli-" + type), inputs, "warm-", 1);
      for (Step s : warm) {
        firstUse.put(type + "/" + s.name(), process(launcher, s));
      }
      if (compare != null) {
        for (Step s : steps(type, work.resolve("warm-base-" + type), inputs, "warm-", 1)) {
          process(compare, s);
        }
      }
    }
    for (int rep = 0; rep < reps; rep++) {
      for (String type : types) {
        Path t = work.resolve("rep" + rep + "-cli-" + type);
        Path b = work.resolve("rep" + rep + "-base-" + type);
        List<Step> base = steps(type, b, inputs, "", upserts);
        List<Step> steps = steps(type, t, inputs, "", upserts);
        for (int i = 0; i < steps.size(); i++) {
          // with --compare, the two launchers take turns going first
          boolean baseFirst = compare != null && (rep + i) % 2 == 1;
          if (baseFirst) {
            timeBase(rep, type, base.get(i));
          }
          Step s = steps.get(i);
          double sec = process(launcher, s);
          record("cli", type, s.name(), sec);
          record("cli-cpu", type, s.name(), lastCpu);
          out.printf(Locale.ROOT, "  rep %d cli %s %-14s %8.3f s %8.3f cpu s%n", rep, type, s.name(), sec, lastCpu);
          if (compare != null && !baseFirst) {
            timeBase(rep, type, base.get(i));
          }
        }
        delete(t);
        delete(b);
        inJvm(rep, type, inputs);
      }
    }
    print();
    if (!keep) {
      delete(work);
    }
    return ok ? 0 : 1;
  }

  /** One command line; {@code query} says its rows go to /dev/null. */
  record Step(String name, List<String> args) {
    boolean query() {
      return args.get(0).equals("query");
    }
  }

  private List<Step> steps(String type, Path table, Path inputs, String prefix, int n) {
    String t = table.toString();
    List<String> conf = type.equals("mor")
        // as the benchmark's MoR workloads: updates go to log files instead of rewriting small base files
        ? List.of("--conf", "hoodie.parquet.small.file.limit=0") : List.of();
    List<Step> steps = new ArrayList<>();
    steps.add(new Step("create", List.of("create", t, "--type", type, "--record-key", BenchRecords.KEY, "--precombine",
        BenchRecords.ORDERING, "--partition-path", BenchRecords.PARTITION, "--schema",
        inputs.resolve("schema.avsc").toString())));
    steps.add(new Step("insert", concat(List.of("insert", t, inputs.resolve(prefix + "initial.jsonl").toString()), conf)));
    for (int k = 1; k <= n; k++) {
      steps.add(new Step("upsert", concat(List.of("upsert", t, inputs.resolve(prefix + "upsert-" + k + ".jsonl")
          .toString()), conf)));
    }
    steps.add(new Step("query-jsonl", List.of("query", t, "--format", "jsonl")));
    steps.add(new Step("query-csv", List.of("query", t, "--format", "csv")));
    steps.add(new Step("query-key", List.of("query", t, "--columns", BenchRecords.KEY, "--format", "jsonl")));
    if (type.equals("mor")) {
      steps.add(new Step("compact-sched", List.of("compact", t, "--schedule", "--force")));
      steps.add(new Step("compact-run", List.of("compact", t, "--run")));
    }
    return steps;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private void timeBase(int rep, String type, Step s) throws IOException {
    double sec = process(compare, s);
    record("base", type, s.name(), sec);
    out.printf(Locale.ROOT, "  rep %d base %s %-14s %8.3f s%n", rep, type, s.name(), sec);
  }

  /**
   * The CPU seconds (user + system) of this JVM's finished and reaped child processes so far, with their own reaped
   * children (Linux's /proc/self/stat, in its 1/100 s ticks); NaN where there is no such file. The machine is often
   * shared: CPU seconds say more than wall seconds then.
   */
  static double childCpuSeconds() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      // the fields after the command name, which is in parentheses and may hold spaces
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      // cutime and cstime are the 16th and 17th fields of the whole line, the 14th and 15th after the name
      return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / 100.0;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /**
   * The environment a step's process gets beyond this JVM's: the JVM options, and for the {@code --compare} side a
   * class-data sharing cache of its own under the work folder. The launcher keeps one archive per kind of command
   * and deletes the others of that kind when it records one, so two builds sharing a cache would each delete the
   * other's archive and record a new one at every step (both sides then timed without their archives).
   */
  static Map<String, String> environment(boolean compareSide, String javaOpts, Path work) {
    return compareSide ? Map.of("SLUICE_JAVA_OPTS", javaOpts, "SLUICE_CACHE_DIR", work.resolve("compare-cache").toString())
        : Map.of("SLUICE_JAVA_OPTS", javaOpts);
  }

  /**
   * Runs one step as a process of {@code script}; its wall time from start to exit (its CPU seconds are left in
   * {@link #lastCpu}).
   */
  private double process(Path script, Step s) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(script.toString());
    cmd.addAll(s.args());
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().putAll(environment(script.equals(compare) && !script.equals(launcher), javaOpts, work));
    Path log = work.resolve("cli.log");
    pb.redirectOutput(s.query() ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    double cpuBefore = childCpuSeconds();
    long start = System.nanoTime();
    Process p = pb.start();
    try {
      if (!p.waitFor(60, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IOException("bin/sluice " + s.args() + " timed out");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    double sec = (System.nanoTime() - start) / 1e9;
    lastCpu = childCpuSeconds() - cpuBefore;
    if (p.exitValue() != 0) {
      ok = false;
      out.println("FAILED: " + script + " " + String.join(" ", s.args()) + " exited " + p.exitValue() + "; see " + log);
    }
    return sec;
  }

  /** The same steps through Main.execute in one child JVM, after the warm-up sequence on a scratch table. */
  private void inJvm(int rep, String type, Path inputs) throws IOException {
    Path warmFile = work.resolve("steps-warm-" + type);
    Path timedFile = work.resolve("steps-" + type);
    Path table = work.resolve("rep" + rep + "-jvm-" + type);
    List<Step> timed = steps(type, table, inputs, "", upserts);
    writeSteps(warmFile, steps(type, work.resolve("rep" + rep + "-jvm-warm-" + type), inputs, "warm-", 1));
    writeSteps(timedFile, timed);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of(javaOpts.trim().split("\\s+")));
    cmd.addAll(List.of("-cp", System.getProperty("sluice.bench.classes", root.resolve("sluice-bench/target/classes")
        .toString()) + java.io.File.pathSeparator + cliClasspath(), CliInJvm.class.getName(), warmFile.toString(),
        timedFile.toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(
        work.resolve("jvm.log").toFile()));
    Process p = pb.start();
    List<String> lines;
    try (var r = p.inputReader(StandardCharsets.UTF_8)) {
      lines = r.lines().toList();
    }
    try {
      p.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    if (p.exitValue() != 0) {
      ok = false;
      out.println("FAILED: the in-JVM run of " + type + " exited " + p.exitValue() + "; see " + work.resolve("jvm.log"));
    }
    long expected = Workloads.sizeAfter(scale.records(), upserts, scale.batch());
    for (String l : lines) {
      String[] f = l.split(" ");
      if (f.length != 6 || !f[0].equals("STEP")) {
        continue;
      }
      double sec = Double.parseDouble(f[2]);
      double cpu = Double.parseDouble(f[5]);
      record("jvm", type, f[1], sec);
      record("jvm-cpu", type, f[1], cpu);
      long rows = Long.parseLong(f[4]) - (f[1].equals("query-csv") ? 1 : 0);
      String check = "";
      if (f[1].startsWith("query") && rows != expected) {
        ok = false;
        check = "  ROWS " + rows + " != expected " + expected;
      }
      out.printf(Locale.ROOT, "  rep %d jvm %s %-14s %8.3f s %8.3f cpu s%s%n", rep, type, f[1], sec, cpu, check);
    }
    delete(table);
  }

  private String cliClasspath() throws IOException {
    Path target = root.resolve("sluice-cli/target");
    try (Stream<Path> jars = Files.list(target)) {
      String jar = jars.map(Path::toString).filter(n -> n.matches(".*/sluice-cli-[^/]*\\.jar")
          && !n.endsWith("-tests.jar") && !n.endsWith("-sources.jar")).findFirst()
          .orElse(target.resolve("classes").toString());
      return jar + java.io.File.pathSeparator + Files.readString(target.resolve("cli.classpath")).trim();
    }
  }

  private static void writeSteps(Path file, List<Step> steps) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Step s : steps) {
      lines.add(s.name() + "\t" + String.join("\t", s.args()));
    }
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  private void writeInputs(Path dir, String prefix, long records, int batch, int n) throws IOException {
    Files.writeString(dir.resolve("schema.avsc"), BenchRecords.SCHEMA.toString(true));
    Workloads w = new Workloads(20_240_601L);
    writeJson(dir.resolve(prefix + "initial.jsonl"), w.stream(0, records));
    for (int k = 1; k <= n; k++) {
      long size = Workloads.sizeAfter(records, k - 1, batch);
      writeJson(dir.resolve(prefix + "upsert-" + k + ".jsonl"), w.upsert(k, size, batch).iterator());
    }
  }

  private static void writeJson(Path file, Iterator<GenericRecord> records) throws IOException {
    try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
      JsonRecordWriter w = new JsonRecordWriter(os, BenchRecords.SCHEMA);
      while (records.hasNext()) {
        w.write(records.next());
      }
      w.close();
    }
  }

  private void record(String side, String type, String step, double sec) {
    seconds.computeIfAbsent(side, s -> new LinkedHashMap<>()).computeIfAbsent(type + "/" + step,
        k -> new ArrayList<>()).add(sec);
  }

  private void print() {
    long rows = Workloads.sizeAfter(scale.records(), upserts, scale.batch());
    out.println();
    out.printf(Locale.ROOT, "%-18s %9s %9s %8s %9s %9s %8s %12s %10s %9s %9s%n", "step", "cli_s", "jvm_s", "cli/jvm",
        "cli_cpu", "jvm_cpu", "cpu c/j", "cli_rows/s", "first_s", "base_s", "base/cli");
    Map<String, List<Double>> baseSide = seconds.getOrDefault("base", Map.of());
    Map<String, List<Double>> cli = seconds.getOrDefault("cli", Map.of());
    Map<String, List<Double>> jvm = seconds.getOrDefault("jvm", Map.of());
    for (String step : cli.keySet()) {
      double c = median(cli.get(step));
      double j = jvm.containsKey(step) ? median(jvm.get(step)) : Double.NaN;
      boolean query = step.contains("/query");
      double rate = query ? rows / c : Double.NaN;
      Double first = firstUse.get(step);
      double b = baseSide.containsKey(step) ? median(baseSide.get(step)) : Double.NaN;
      double cc = medianOf("cli-cpu", step);
      double jc = medianOf("jvm-cpu", step);
      out.printf(Locale.ROOT, "%-18s %9.3f %9.3f %8.2f %9.3f %9.3f %8.2f %12s %10s %9.3f %9.2f%n", step, c, j, c / j,
          cc, jc, cc / jc, query ? String.format(Locale.ROOT, "%,.0f", rate) : "-",
          first == null ? "-" : String.format(Locale.ROOT, "%.3f", first), b, b / c);
    }
    for (String step : cli.keySet()) {
      double c = median(cli.get(step));
      double j = jvm.containsKey(step) ? median(jvm.get(step)) : Double.NaN;
      String base = baseSide.containsKey(step) ? String.format(Locale.ROOT, " base_s=%.3f base_over_cli=%.2f",
          median(baseSide.get(step)), median(baseSide.get(step)) / c) : "";
      double cc = medianOf("cli-cpu", step);
      double jc = medianOf("jvm-cpu", step);
      out.printf(Locale.ROOT, "CLI-RESULT step=%s cli_s=%.3f jvm_s=%.3f cli_over_jvm=%.2f cli_cpu_s=%.3f jvm_cpu_s=%.3f "
          + "cpu_cli_over_jvm=%.2f n=%d%s%s%n", step, c, j, c / j, cc, jc, cc / jc, cli.get(step).size(),
          step.contains("/query") ? String.format(Locale.ROOT, " rows=%d cli_rows_per_s=%.0f", rows, rows / c) : "",
          base);
    }
    out.println("(first_s: the step's first run, on the small warm-up table, which builds the launcher's class-data "
        + "sharing archive of its kind)");
  }

  /** The median of one side's figures for a step; NaN if that side has none. */
  private double medianOf(String side, String step) {
    List<Double> v = seconds.getOrDefault(side, Map.of()).get(step);
    return v == null ? Double.NaN : median(v);
  }

  static double median(List<Double> values) {
    List<Double> v = new ArrayList<>(values);
    v.sort(Comparator.naturalOrder());
    int n = v.size();
    return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
  }

  private static void delete(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> all = Files.walk(p)) {
      for (Path q : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(q);
      }
    }
  }
}
