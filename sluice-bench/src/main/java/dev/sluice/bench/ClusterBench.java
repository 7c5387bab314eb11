package dev.sluice.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code sluice-bench --engine spark-cluster}: the scaling run of Sluice on a real Spark cluster. For each executor
 * count N ({@code --executors 1,2,4}) a driver JVM ({@link SparkClusterWorker}, sluice-spark's class path) starts a
 * standalone Master and N Workers on this machine (Spark 3.5.7's jars from hudi-spark-oracle's list, no
 * distribution), one executor of one core and {@code --executor-memory} per Worker, bulk-inserts
 * {@code --records} records and times an upsert of {@code --upsert} records (updates of the first ones, spread over
 * every file group, then new keys). Prints the throughput, per executor, and the CPU seconds the executors and the
 * driver spent on the upsert. Every N runs in its own JVMs, one after the other, on a fresh table.
 */
final class ClusterBench {
  static final String USAGE = String.join(System.lineSeparator(),
      "usage: sluice-bench --engine spark-cluster [--executors 1,2,4] [--records N] [--upsert N] [--type mor|cow]",
      "                    [--executor-memory 1g] [--driver-heap 1g] [--seed N] [--work-dir DIR] [--keep]",
      "                    [--spark-oracle-dir DIR] [--timeout-min N]",
      "  defaults: 10,000,000 records loaded, a 10,000,000-record upsert (all updates), Merge-on-Read, BLOOM index");

  private ClusterBench() {
  }

  /** Whether the command line asks for this run ({@code --engine spark-cluster}). */
  static boolean wanted(String[] args) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("--engine") && args[i + 1].equals("spark-cluster")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Runs the scaling run.
   *
   * @param args the command line (see {@link #USAGE})
   * @param out where the results go
   * @return the exit status: 0 when every run succeeded, 1 when one failed, 2 on a bad command line
   */
  static int run(String[] args, PrintStream out) {
    List<Integer> executors = List.of(1, 2, 4);
    long records = 10_000_000L;
    long upsert = 10_000_000L;
    String type = "mor";
    String memory = "1g";
    String driverHeap = "1g";
    long seed = 20_240_601L;
    Path work = null;
    boolean keep = false;
    Path sparkOracleDir = Path.of(System.getProperty("sluice.spark.oracle.dir", "hudi-spark-oracle/target"));
    int timeout = 60;
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--engine" -> i++;
          case "--executors" -> executors = Arrays.stream(value(args, ++i, a).split(",")).map(String::trim)
              .map(Integer::parseInt).toList();
          case "--records" -> records = Long.parseLong(value(args, ++i, a));
          case "--upsert" -> upsert = Long.parseLong(value(args, ++i, a));
          case "--type" -> type = value(args, ++i, a).toLowerCase(Locale.ROOT);
          case "--executor-memory" -> memory = value(args, ++i, a);
          case "--driver-heap" -> driverHeap = value(args, ++i, a);
          case "--seed" -> seed = Long.parseLong(value(args, ++i, a));
          case "--work-dir" -> work = Path.of(value(args, ++i, a));
          case "--keep" -> keep = true;
          case "--spark-oracle-dir" -> sparkOracleDir = Path.of(value(args, ++i, a));
          case "--timeout-min" -> timeout = Integer.parseInt(value(args, ++i, a));
          default -> throw new IllegalArgumentException("unknown option " + a);
        }
      }
      if (!type.equals("mor") && !type.equals("cow")) {
        throw new IllegalArgumentException("--type must be mor or cow, got " + type);
      }
      if (records < 1 || upsert < 1 || executors.isEmpty() || executors.stream().anyMatch(n -> n < 1)) {
        throw new IllegalArgumentException("--records, --upsert and --executors must be positive");
      }
    } catch (IllegalArgumentException e) {
      out.println("sluice-bench: " + e.getMessage());
      out.println(USAGE);
      return 2;
    }
    Path sparkClasspathFile = sparkOracleDir.toAbsolutePath().normalize().resolve("oracle.classpath");
    if (!Files.isRegularFile(sparkClasspathFile)) {
      throw new IllegalStateException("hudi-spark-oracle is not built: expected " + sparkClasspathFile
          + " (build with: mvn -B -q -DskipTests -pl sluice-bench -am package)");
    }
    try {
      Path dir = work != null ? Files.createDirectories(work) : Files.createTempDirectory("sluice-bench-cluster");
      out.printf(Locale.ROOT, "sluice-bench --engine spark-cluster: %,d records loaded (bulk insert), upsert of %,d "
              + "records, %s, executors %s (one core, %s each, Workers on 127.0.0.1), driver -Xmx%s, %d cores; "
              + "work dir %s%n", records, upsert, type.equals("mor") ? "Merge-on-Read" : "Copy-on-Write", executors,
          memory, driverHeap, Runtime.getRuntime().availableProcessors(), dir);
      Map<Integer, Map<String, String>> results = new LinkedHashMap<>();
      boolean ok = true;
      for (int n : executors) {
        Path runDir = dir.resolve("executors-" + n);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-Xmx" + driverHeap));
        cmd.addAll(SqlBench.SPARK_JVM);
        cmd.addAll(List.of("-cp", BenchDriver.sluiceSparkClasspath(), SparkClusterWorker.class.getName(),
            sparkClasspathFile.toString(), Integer.toString(n), Long.toString(records), Long.toString(upsert), type,
            memory, runDir.toString(), Long.toString(seed)));
        Files.createDirectories(runDir);
        Path log = runDir.resolve("driver.log");
        Path stdout = runDir.resolve("driver.out");
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).redirectOutput(stdout.toFile()).start();
        boolean ended = p.waitFor(timeout, TimeUnit.MINUTES);
        Map<String, String> line = null;
        if (Files.exists(stdout)) {
          for (String l : Files.readAllLines(stdout, StandardCharsets.UTF_8)) {
            if (l.startsWith("CLUSTER ")) {
              out.println(l);
              line = fields(l);
            }
          }
        }
        if (!ended || p.exitValue() != 0 || line == null) {
          p.descendants().forEach(ProcessHandle::destroyForcibly);
          p.destroyForcibly();
          out.println("sluice-bench: the run with " + n + " executor(s) failed (" + (ended ? "exit " + p.exitValue()
              : "timed out") + "); its log " + log + ":" + System.lineSeparator() + ChildJvm.tail(log, 30));
          ok = false;
          continue;
        }
        results.put(n, line);
      }
      print(results, out);
      if (!keep && work == null) {
        delete(dir);
      }
      return ok ? 0 : 1;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static void print(Map<Integer, Map<String, String>> results, PrintStream out) {
    out.println("executors | load s | upsert s | upsert records/s | per executor | executor CPU s | driver CPU s");
    for (Map.Entry<Integer, Map<String, String>> e : results.entrySet()) {
      Map<String, String> f = e.getValue();
      double seconds = Double.parseDouble(f.get("upsert_s"));
      double perSecond = Long.parseLong(f.get("upsert")) / seconds;
      out.printf(Locale.ROOT, "%d | %.1f | %.1f | %,.0f | %,.0f | %.1f | %.1f%n", e.getKey(),
          Double.parseDouble(f.get("load_s")), seconds, perSecond, perSecond / e.getKey(),
          Double.parseDouble(f.get("executor_cpu_s")), Double.parseDouble(f.get("driver_cpu_s")));
    }
  }

  /** {@code CLUSTER a=1 b=2} as a map. */
  static Map<String, String> fields(String line) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String part : line.substring("CLUSTER ".length()).trim().split(" ")) {
      int eq = part.indexOf('=');
      m.put(part.substring(0, eq), part.substring(eq + 1));
    }
    return m;
  }

  /** Spark's jars from hudi-spark-oracle's class path file, without the oracle's own code and Hive. */
  static List<Path> sparkJars(Path classpathFile) throws IOException {
    return Arrays.stream(Files.readString(classpathFile, StandardCharsets.UTF_8).trim().split(":"))
        .map(Path::of)
        .filter(p -> !p.getFileName().toString().startsWith("oracle-common")
            && !p.getFileName().toString().startsWith("hive-exec"))
        .toList();
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }
}
