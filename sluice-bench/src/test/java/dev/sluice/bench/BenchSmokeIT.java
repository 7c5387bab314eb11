package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.bench.data.BenchRecords;
import dev.sluice.bench.data.Workloads;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs the benchmark driver at smoke scale (5,000 records, one repetition) against Sluice and the real Apache Hudi
 * 0.15.0 in child JVMs, and checks that every workload produced its RESULT line with the same row counts on both
 * sides. Nothing about time is asserted.
 */
class BenchSmokeIT {
  private static final List<String> LABELS = List.of("W1-bulk", "W2-cow", "W2-mor", "W3-snap-1", "W3-ro-1",
      "W3-snap-2", "W3-ro-2", "W4", "W5", "W6-mor");
  private static final List<String> WITH_FLOOR = List.of("W1-bulk", "W2-cow", "W2-mor", "W3-snap-1", "W3-ro-1",
      "W6-mor");

  @TempDir
  Path work;

  @Test
  void everyWorkloadReportsOnBothEnginesWithTheSameRows() {
    List<String> args = new ArrayList<>(List.of("--scale", "smoke", "--work-dir", work.toString(),
        // C1 only: the smoke run checks plumbing, not speed, and the machine is shared
        "--jvm-opt", "-XX:TieredStopAtLevel=1"));
    String extra = System.getProperty("sluice.bench.smoke.args", "").trim();
    if (!extra.isEmpty()) {
      args.addAll(List.of(extra.split("\\s+")));
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status = BenchDriver.run(BenchOptions.parse(args.toArray(new String[0])),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String output = bytes.toString(StandardCharsets.UTF_8);
    System.out.println(output);
    assertEquals(0, status, output);

    Map<String, Map<String, String>> results = new HashMap<>();
    for (String line : output.split("\n")) {
      if (line.startsWith("RESULT ")) {
        Map<String, String> fields = new HashMap<>();
        for (String kv : line.substring(7).trim().split(" ")) {
          int eq = kv.indexOf('=');
          fields.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        results.put(fields.get("workload"), fields);
      }
    }
    for (String label : LABELS) {
      Map<String, String> r = results.get(label);
      assertTrue(r != null, "no RESULT line for " + label + "\n" + output);
      for (String key : List.of("sluice_s", "hudi_s", "ratio", "sluice_bytes", "hudi_bytes", "floor_s")) {
        assertTrue(r.containsKey(key), label + " lacks " + key);
      }
      assertEquals("true", r.get("rows_ok"), label + ": " + r);
      // Hudi has every feature, so it always measures
      assertTrue(Double.parseDouble(r.get("hudi_s")) > 0, label + ": " + r);
      if (!r.get("expected_rows").equals("n/a")) {
        assertEquals(r.get("expected_rows"), r.get("hudi_rows"), label + ": " + r);
        if (!r.get("sluice_s").equals("n/a")) {
          assertEquals(r.get("expected_rows"), r.get("sluice_rows"), label + ": " + r);
        }
      }
      if (r.get("sluice_s").equals("n/a")) {
        assertTrue(output.contains("  " + label + " sluice: n/a: "), "an n/a needs its reason: " + label);
      } else {
        assertTrue(Double.parseDouble(r.get("sluice_s")) > 0, label + ": " + r);
      }
    }
    for (String label : WITH_FLOOR) {
      assertTrue(Double.parseDouble(results.get(label).get("floor_s")) > 0, label + " floor: " + results.get(label));
    }
    for (String label : List.of("W1-bulk", "W2-cow", "W2-mor", "W6-mor")) {
      assertTrue(Long.parseLong(results.get(label).get("hudi_bytes")) > 0, label);
    }
    assertTrue(Long.parseLong(results.get("W1-bulk").get("sluice_bytes")) > 0);
    assertTrue(results.get("W5").get("sluice_index_files_per_lookup") != null);
  }

  /**
   * {@code --table-version 9}, tiny (no warm-up, no floor; W2-mor and W3 only, to stay near a minute: their setup
   * bulk-inserts the base table, W2-mor upserts into log files, W3 writes two delta commits and reads them) on
   * Sluice's version 9 tables, Hudi 0.15.0 (version 6) and Hudi 1.1.1's Java client (hudi1, version 9) in their own
   * JVMs; every engine ends with the expected rows and the same ts sum (rows_ok), the RESULT lines carry the hudi1
   * fields, and the tables kept afterwards are at the versions each engine was meant to write.
   */
  @Test
  void tableVersion9RunsBothHudiEnginesWithTheSameRows() throws IOException {
    List<String> args = List.of("--scale", "smoke", "--work-dir", work.toString(), "--jvm-opt",
        "-XX:TieredStopAtLevel=1", "--table-version", "9", "--only", "W2-mor,W3", "--warmup", "0",
        "--engines", "sluice,hudi,hudi1", "--keep");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status = BenchDriver.run(BenchOptions.parse(args.toArray(new String[0])),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String output = bytes.toString(StandardCharsets.UTF_8);
    System.out.println(output);
    assertEquals(0, status, output);
    Map<String, Map<String, String>> results = new HashMap<>();
    for (String line : output.split("\n")) {
      if (line.startsWith("RESULT ")) {
        Map<String, String> fields = new HashMap<>();
        for (String kv : line.substring(7).trim().split(" ")) {
          int eq = kv.indexOf('=');
          fields.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        results.put(fields.get("workload"), fields);
      }
    }
    for (String label : List.of("W2-mor", "W3-snap-1", "W3-snap-2")) {
      Map<String, String> r = results.get(label);
      assertTrue(r != null, "no RESULT line for " + label + "\n" + output);
      assertEquals("true", r.get("rows_ok"), label + ": " + r);
      for (String engine : List.of("sluice", "hudi", "hudi1")) {
        assertEquals(r.get("expected_rows"), r.get(engine + "_rows"), label + " " + engine + ": " + r);
        assertTrue(Double.parseDouble(r.get(engine + "_s")) > 0, label + " " + engine + ": " + r);
      }
      assertTrue(Double.parseDouble(r.get("hudi1_ratio")) > 0, label + ": " + r);
    }
    // read-optimized rows depend on each engine's layout: measured, not checked
    assertTrue(Double.parseDouble(results.get("W3-ro-1").get("hudi1_s")) > 0, results.get("W3-ro-1").toString());
    assertTrue(output.contains("hudi1_s"), "the table has a hudi1 column\n" + output);
    Path tables = work.resolve("tables");
    assertEquals("9", tableVersion(tables.resolve("sluice/mor-base")));
    assertEquals("9", tableVersion(tables.resolve("sluice/mor-d2")));
    assertEquals("9", tableVersion(tables.resolve("hudi1/mor-base")));
    assertEquals("9", tableVersion(tables.resolve("hudi1/mor-d2")));
    assertEquals("6", tableVersion(tables.resolve("hudi/mor-d2")));
  }

  /**
   * {@code --engine spark}, tiny (no warm-up; W1-bulk, W2-mor, W3 and W4): Sluice on Spark, Hudi 0.15.0's Spark data
   * source and Sluice alone, each step in its own JVM, end every workload with the expected rows and the same ts sum
   * (rows_ok); every engine measured each one, and the RESULT lines carry the Spark fields and ratios. Spark's plain
   * Parquet reference (spark-parquet) runs W1-bulk (the expected rows and ts sum, as the formats) and the W3 reads of
   * Sluice on Spark's tables (its read-optimized reads give exactly Sluice on Spark's rows and ts sum), and neither
   * W2 nor W4.
   */
  @Test
  void sparkEnginesEndWithTheRowsOfSluiceAlone() {
    List<String> args = List.of("--scale", "smoke", "--work-dir", work.toString(), "--jvm-opt",
        "-XX:TieredStopAtLevel=1", "--engine", "spark", "--warmup", "0");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status = BenchDriver.run(BenchOptions.parse(args.toArray(new String[0])),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String output = bytes.toString(StandardCharsets.UTF_8);
    System.out.println(output);
    assertEquals(0, status, output);
    Map<String, Map<String, String>> results = new HashMap<>();
    for (String line : output.split("\n")) {
      if (line.startsWith("RESULT ")) {
        Map<String, String> fields = new HashMap<>();
        for (String kv : line.substring(7).trim().split(" ")) {
          int eq = kv.indexOf('=');
          fields.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        results.put(fields.get("workload"), fields);
      }
    }
    assertEquals(Set.of("W1-bulk", "W2-mor", "W3-snap-1", "W3-ro-1", "W3-snap-2", "W3-ro-2", "W4"), results.keySet(),
        output);
    for (Map.Entry<String, Map<String, String>> e : results.entrySet()) {
      Map<String, String> r = e.getValue();
      assertEquals("true", r.get("rows_ok"), e.getKey() + ": " + r);
      for (String engine : List.of("sluice_spark", "hudi_spark", "sluice")) {
        assertTrue(Double.parseDouble(r.get(engine + "_s")) > 0, e.getKey() + " " + engine + ": " + r);
        if (!e.getKey().startsWith("W3-ro")) {
          // read-optimized rows depend on each engine's layout: measured, not checked
          assertEquals(r.get("expected_rows"), r.get(engine + "_rows"), e.getKey() + " " + engine + ": " + r);
        }
      }
      assertTrue(Double.parseDouble(r.get("spark_ratio")) > 0 && Double.parseDouble(r.get("spark_overhead")) > 0,
          r.toString());
      if (e.getKey().equals("W2-mor") || e.getKey().equals("W4")) {
        assertEquals("n/a", r.get("spark_parquet_s"), "plain Parquet has no upsert or compaction: " + r);
        continue;
      }
      assertTrue(Double.parseDouble(r.get("spark_parquet_s")) > 0 && Double.parseDouble(r.get("parquet_ratio")) > 0,
          r.toString());
      if (e.getKey().equals("W1-bulk")) {
        assertEquals(r.get("expected_rows"), r.get("spark_parquet_rows"), r.toString());
        assertTrue(Long.parseLong(r.get("spark_parquet_bytes")) > 0, r.toString());
      }
      if (e.getKey().startsWith("W3-ro")) {
        // the same base files as Sluice on Spark's read-optimized read (its ts sum too: rows_ok above)
        assertEquals(r.get("sluice_spark_rows"), r.get("spark_parquet_rows"), r.toString());
      }
    }
    assertTrue(output.contains("hsp/slsp") && output.contains("hsp/spq"), "the Spark table\n" + output);
  }

  private static String tableVersion(Path table) throws IOException {
    Properties p = new Properties();
    p.load(new StringReader(Files.readString(table.resolve(".hoodie/hoodie.properties"), StandardCharsets.UTF_8)));
    return p.getProperty("hoodie.table.version");
  }

  /** The SCALE workload through the driver, tiny: both engines load, upsert and end with the expected rows. */
  @Test
  void scaleWorkloadEndsWithTheExpectedRowsOnBothEngines() {
    List<String> args = List.of("--scale", "smoke", "--work-dir", work.toString(), "--jvm-opt",
        "-XX:TieredStopAtLevel=1", "--only", "SCALE", "--scale-records", "1500,3000", "--scale-chunk", "1000",
        "--scale-upsert", "200", "--reps", "2", "--sluice-index", "BLOOM", "--hudi-index", "BLOOM");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status = BenchDriver.run(BenchOptions.parse(args.toArray(new String[0])),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String output = bytes.toString(StandardCharsets.UTF_8);
    System.out.println(output);
    assertEquals(0, status, output);
    int lines = 0;
    for (String line : output.split("\n")) {
      if (line.startsWith("SCALE records=")) {
        lines++;
        assertTrue(line.contains(" rows_ok=true"), line);
        assertTrue(line.matches(".* upsert_runs=[0-9.]+,[0-9.]+ .*"), line);
        assertTrue(!line.contains("=n/a"), line);
      }
    }
    // two sizes by two engines
    assertEquals(4, lines, output);
    assertTrue(output.matches("(?s).*SCALE-GROWTH engine=sluice index=BLOOM records=1500\\.\\.3000 upsert_ratio=[0-9.]+ "
        + "cpu_ratio=[0-9.]+\n.*"), output);
    assertTrue(output.contains("SCALE-VS-HUDI records=3000 sluice_index=BLOOM"), output);
    // 1,500 records in commits of 1,000: two commits, the second a partial chunk, on both engines
    assertTrue(output.matches("(?s).*scale 1,500 sluice +load \\(BLOOM\\) +load [0-9.]+ s, [^\\n]*, 2 commits .*"),
        output);
    assertTrue(output.matches("(?s).*scale 1,500 hudi +load \\(BLOOM\\) +load [0-9.]+ s, [^\\n]*, 2 commits .*"),
        output);
  }

  /**
   * The SQL workload through the driver, tiny: Sluice SQL and Spark SQL with Hudi 0.15.0 run the same queries over
   * the same tables and must agree (the driver compares every row: counts, integer sums, sums of doubles); the
   * counts are the tables' sizes. Once over tables Sluice wrote, once over tables Hudi's Java client wrote.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sluice", "hudi"})
  void sqlWorkloadGivesTheSameResultsOnSluiceAndSpark(String writer) {
    List<String> args = List.of("--scale", "smoke", "--work-dir", work.toString(), "--jvm-opt",
        "-XX:TieredStopAtLevel=1", "--only", "SQL", "--reps", "1", "--sql-tables", writer);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BenchOptions options = BenchOptions.parse(args.toArray(new String[0]));
    int status = BenchDriver.run(options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String output = bytes.toString(StandardCharsets.UTF_8);
    System.out.println(output);
    assertEquals(0, status, output);
    Map<String, Map<String, String>> results = new HashMap<>();
    for (String line : output.split("\n")) {
      if (line.startsWith("SQL workload=")) {
        Map<String, String> fields = new HashMap<>();
        for (String kv : line.substring(4).trim().split(" ")) {
          int eq = kv.indexOf('=');
          fields.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        results.put(fields.get("workload"), fields);
      }
    }
    assertEquals(Set.of("SQL-cow-group", "SQL-cow-filter", "SQL-mor-group", "SQL-mor-filter"), results.keySet(),
        output);
    for (Map<String, String> r : results.values()) {
      assertEquals("true", r.get("results_equal"), r.toString());
      assertTrue(Double.parseDouble(r.get("sluice_s")) > 0 && Double.parseDouble(r.get("spark_s")) > 0, r.toString());
    }
    BenchOptions.Scale s = options.scale();
    assertEquals(Long.toString(s.records()), results.get("SQL-cow-group").get("count"));
    assertEquals(Long.toString(Workloads.sizeAfter(s.records(), s.lastCommit(), s.batch())),
        results.get("SQL-mor-group").get("count"));
    assertEquals(Integer.toString(BenchRecords.PARTITIONS), results.get("SQL-cow-group").get("groups"));
    // the filter keeps two partitions' rows with qty >= 500: some, not all
    for (String table : List.of("cow", "mor")) {
      long filtered = Long.parseLong(results.get("SQL-" + table + "-filter").get("count"));
      assertTrue(filtered > 0 && filtered < Long.parseLong(results.get("SQL-" + table + "-group").get("count")),
          table + ": " + filtered);
      assertEquals("2", results.get("SQL-" + table + "-filter").get("groups"));
    }
  }
}
