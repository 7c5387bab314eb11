package dev.sluice.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;

/**
 * Test harness around Apache Spark 3.5 with one of Hudi's Spark bundles (module hudi-spark-oracle): each call runs
 * in a child JVM running {@code dev.sluice.oracle.SparkOracle} in local mode, reads or writes a table through Spark's
 * DataFrame API as Hudi's Spark users do, and fails with an {@link AssertionError} carrying its stderr when it fails.
 * A Spark start-up costs tens of seconds on a small machine, so the child JVM stays up for the calls that follow
 * in this test JVM when {@code sluice.spark.oracle.shared} is {@code true} ({@link SparkServer}; this module's
 * default). Public for sluice-spark's
 * interop test (Sluice-on-Spark beside Hudi-on-Spark), which takes this module's test jar.
 */
public final class HudiSpark {
  /** System property naming hudi-spark-oracle's build directory; defaults to {@code ../hudi-spark-oracle/target}. */
  static final String DIR_PROPERTY = "sluice.spark.oracle.dir";

  // Spark 3.5 on Java 17 needs these opened (the list Spark's own launcher passes to executors)
  private static final List<String> JAVA_FLAGS = List.of("-XX:+IgnoreUnrecognizedVMOptions", "-Xmx1g",
      "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djdk.reflect.useDirectMethodHandle=false",
      "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
      "--add-opens=java.base/sun.security.action=ALL-UNNAMED", "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
      "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String hudiVersion;
  private final String classpath;

  private HudiSpark(String hudiVersion, String classpath) {
    this.hudiVersion = hudiVersion;
    this.classpath = classpath;
  }

  /** Spark with Hudi's Spark bundle of {@code hudiVersion} ({@code 0.15.0}, {@code 1.0.2} or {@code 1.1.1}). */
  public static HudiSpark locate(String hudiVersion) {
    Path dir = Path.of(System.getProperty(DIR_PROPERTY, "../hudi-spark-oracle/target")).toAbsolutePath().normalize();
    Path classes = dir.resolve("classes");
    Path deps = dir.resolve("oracle.classpath");
    Path bundle = dir.resolve("bundles").resolve("hudi-" + hudiVersion + ".jar");
    if (!Files.isRegularFile(deps) || !Files.isRegularFile(bundle)
        || !Files.isRegularFile(classes.resolve("dev/sluice/oracle/SparkOracle.class"))) {
      throw new AssertionError("The Spark oracle is not built: expected " + deps + ", " + bundle + " and " + classes
          + ". Build it first: `mvn -B -q -pl hudi-spark-oracle -am compile` from the repository root.");
    }
    try {
      return new HudiSpark(hudiVersion, String.join(File.pathSeparator, classes.toString(),
          Files.readString(deps, StandardCharsets.UTF_8).trim(), bundle.toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One read of a batch: {@code table} as {@code query} ({@code snapshot}, {@code read_optimized}) with options. */
  public record Read(Path table, String query, Map<String, String> options) {
    /** The oracle's arguments for this read (a {@code read} command, for {@link #batch}). */
    public List<String> args() {
      List<String> args = new ArrayList<>(List.of("read", "--table", table.toString(), "--query", query));
      options.forEach((k, v) -> {
        args.add("--conf");
        args.add(k + "=" + v);
      });
      return args;
    }
  }

  /** The table as {@code spark.read.format("hudi")} with {@code options} returns it: one map per row, by key. */
  List<Map<String, Object>> read(Path table, String query, Map<String, String> options) {
    return parseRows(run(new Read(table, query, options).args()));
  }

  /**
   * The rows of each of {@code reads}, in order, read in one Spark JVM and session (the oracle's {@code batch}):
   * one Spark start-up for all of them.
   */
  public List<List<Map<String, Object>>> read(List<Read> reads, Path scratch) {
    return batch(reads.stream().map(Read::args).toList(), scratch);
  }

  /**
   * Runs {@code commands} (each the oracle's arguments: {@link Read#args}, {@link #writeCommand}) in order in one
   * Spark JVM and session; per command the rows it printed (none for a write). Fails naming the first that failed.
   */
  public List<List<Map<String, Object>>> batch(List<List<String>> commands, Path scratch) {
    List<List<Map<String, Object>>> out = new ArrayList<>();
    batchLines(commands, scratch).forEach(s -> out.add(parseRows(s)));
    return out;
  }

  /** As {@link #batch}, but each command's output lines as printed (for commands whose output is not rows). */
  List<List<String>> batchLines(List<List<String>> commands, Path scratch) {
    StringBuilder script = new StringBuilder();
    for (List<String> c : commands) {
      try {
        script.append(JSON.writeValueAsString(c)).append('\n');
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    List<String> lines;
    try {
      Path file = Files.createTempFile(scratch, "spark-batch", ".txt");
      Files.writeString(file, script, StandardCharsets.UTF_8);
      lines = run(List.of("batch", "--script", file.toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<List<String>> sections = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("#batch ")) {
        String[] parts = line.split(" ");
        if (!parts[2].equals("0")) {
          throw new AssertionError("the Spark oracle (Hudi " + hudiVersion + ") failed on "
              + commands.get(sections.size()));
        }
        sections.add(new ArrayList<>());
      } else if (!sections.isEmpty()) {
        sections.get(sections.size() - 1).add(line);
      }
    }
    if (sections.size() != commands.size()) {
      throw new AssertionError("the Spark oracle answered " + sections.size() + " of " + commands.size() + " commands");
    }
    return sections;
  }

  /**
   * Output lines of a {@code read} or {@code sql} command as rows (one map per JSON line): numbers as numbers, a
   * struct or array value as its JSON text, anything else as text.
   */
  static List<Map<String, Object>> parseRows(List<String> lines) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      try {
        Map<String, Object> row = new LinkedHashMap<>();
        JsonNode node = JSON.readTree(line);
        // a struct or an array column stays its JSON text (asText would make it empty)
        node.fields().forEachRemaining(e -> row.put(e.getKey(), e.getValue().isNumber() ? e.getValue().numberValue()
            : e.getValue().isContainerNode() ? e.getValue().toString() : e.getValue().asText()));
        rows.add(row);
      } catch (IOException e) {
        throw new AssertionError("bad JSON line from the Spark oracle: " + line, e);
      }
    }
    return rows;
  }

  /**
   * Several reads in one Spark session (one start-up): per entry of {@code queries} (read options, e.g.
   * {@code hoodie.datasource.query.type=incremental} with its range, and the table's location under {@code path})
   * the rows as {@link #read} gives them, or empty with Hudi's error message when Hudi refused that read.
   */
  List<Answer> reads(List<Map<String, String>> queries, Path scratch) {
    StringBuilder lines = new StringBuilder();
    try {
      for (Map<String, String> q : queries) {
        lines.append(JSON.writeValueAsString(q)).append('\n');
      }
      Path file = Files.createTempFile(scratch, "spark-queries", ".jsonl");
      Files.writeString(file, lines, StandardCharsets.UTF_8);
      List<Answer> out = new ArrayList<>();
      List<Map<String, Object>> rows = null;
      for (String line : run(List.of("reads", "--queries", file.toString()))) {
        if (line.startsWith("#query ")) {
          String[] parts = line.split(" ", 4);
          rows = new ArrayList<>();
          out.add(new Answer(rows, parts[2].equals("error") ? java.util.Optional.of(parts.length > 3 ? parts[3] : "")
              : java.util.Optional.empty()));
        } else if (!line.isBlank()) {
          Map<String, Object> row = new LinkedHashMap<>();
          JSON.readTree(line).fields().forEachRemaining(e -> row.put(e.getKey(), e.getValue().isNumber()
              ? e.getValue().numberValue() : e.getValue().asText()));
          rows.add(row);
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One answer of {@link #reads}: the rows, or Hudi's error. */
  record Answer(List<Map<String, Object>> rows, java.util.Optional<String> error) {
  }

  /**
   * Writes {@code records} with {@code df.write.format("hudi")}, operation {@code op}, append mode; {@code ddl} is
   * the Spark schema of the records (e.g. {@code "id STRING, ts BIGINT"}), {@code options} Hudi's write options.
   */
  void write(Path table, String op, List<GenericRecord> records, String ddl, Map<String, String> options,
      Path scratch) {
    run(writeArgs(table, op, records, ddl, options, scratch));
  }

  /** The oracle's arguments of {@link #write} (its input file written under {@code scratch}), for a batch. */
  static List<String> writeArgs(Path table, String op, List<GenericRecord> records, String ddl,
      Map<String, String> options, Path scratch) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (GenericRecord r : records) {
      Map<String, Object> row = new LinkedHashMap<>();
      for (Schema.Field f : r.getSchema().getFields()) {
        Object v = r.get(f.pos());
        row.put(f.name(), v instanceof Utf8 || v instanceof CharSequence ? v.toString() : v);
      }
      rows.add(row);
    }
    return writeArgsOfRows(table, op, rows, ddl, options, scratch);
  }

  /**
   * The oracle's arguments for a {@code df.write.format("hudi")} of {@code rows} (column name to value), operation
   * {@code op}, append mode, for {@link #batch}; the rows go to a JSON-lines file under {@code scratch}.
   */
  public List<String> writeCommand(Path table, String op, List<Map<String, Object>> rows, String ddl,
      Map<String, String> options, Path scratch) {
    return writeArgsOfRows(table, op, rows, ddl, options, scratch);
  }

  private static List<String> writeArgsOfRows(Path table, String op, List<Map<String, Object>> rows, String ddl,
      Map<String, String> options, Path scratch) {
    StringBuilder lines = new StringBuilder();
    for (Map<String, Object> row : rows) {
      try {
        lines.append(JSON.writeValueAsString(row)).append('\n');
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Path input;
    try {
      input = Files.createTempFile(scratch, "spark-input", ".json");
      Files.writeString(input, lines, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> args = new ArrayList<>(List.of("write", "--table", table.toString(), "--op", op,
        "--input", input.toString(), "--schema-ddl", ddl));
    options.forEach((k, v) -> {
      args.add("--conf");
      args.add(k + "=" + v);
    });
    return args;
  }

  private List<String> run(List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JAVA_FLAGS);
    command.add("-cp");
    command.add(classpath);
    command.add("dev.sluice.oracle.SparkOracle");
    if (SparkServer.enabled()) {
      // Spark starts once per test JVM and Hudi version, not once per call
      return SparkServer.call(command, hudiVersion, args, java.time.Duration.ofMinutes(10));
    }
    command.addAll(args);
    try {
      Path err = Files.createTempFile("spark-oracle", ".err");
      try {
        Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
          p.destroyForcibly();
          throw new AssertionError("the Spark oracle (Hudi " + hudiVersion + ") timed out: " + args);
        }
        if (p.exitValue() != 0) {
          String log = Files.readString(err, StandardCharsets.UTF_8);
          throw new AssertionError("the Spark oracle (Hudi " + hudiVersion + ") failed (" + p.exitValue() + ") on "
              + args + ":\n" + log.substring(Math.max(0, log.length() - 6000)));
        }
        return out.lines().toList();
      } finally {
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
