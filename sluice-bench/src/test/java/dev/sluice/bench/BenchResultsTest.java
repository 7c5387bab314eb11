package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchResultsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode report(double seconds, long rows, long tsSum, long bytes) throws IOException {
    return report(seconds, seconds, rows, tsSum, bytes);
  }

  private static JsonNode report(double seconds, double cpu, long rows, long tsSum, long bytes) throws IOException {
    return JSON.readTree("{\"seconds\": " + seconds + ", \"cpu_seconds\": " + cpu + ", \"rows\": " + rows
        + ", \"ts_sum\": " + tsSum + ", \"bytes\": " + bytes + ", \"peak_heap\": 1048576}");
  }

  @Test
  void resultLineCarriesMediansRatiosAndRowChecks() throws IOException {
    BenchResults r = new BenchResults();
    r.declare("W2-cow", 110);
    r.add("W2-cow", BenchResults.SLUICE, report(2.0, 110, 7, 100));
    r.add("W2-cow", BenchResults.SLUICE, report(1.0, 110, 7, 100));
    r.add("W2-cow", BenchResults.SLUICE, report(9.0, 110, 7, 100));
    r.add("W2-cow", BenchResults.HUDI, report(8.0, 110, 7, 300));
    r.add("W2-cow", BenchResults.FLOOR, report(1.6, 0, 0, 50));
    String line = r.resultLine("W2-cow");
    assertTrue(line.startsWith("RESULT workload=W2-cow sluice_s=2.000 hudi_s=8.000 ratio=4.00 sluice_bytes=100 "
        + "hudi_bytes=300 floor_s=1.600 "), line);
    assertTrue(line.contains(" sluice_floor=1.25 "), line);
    assertTrue(line.contains(" rows_ok=true"), line);
  }

  @Test
  void hudi1FieldsAppearOnlyWhenItRanAndItsRowsAndTsSumAreChecked() throws IOException {
    BenchResults r = new BenchResults();
    r.declare("W2-mor", 110);
    r.add("W2-mor", BenchResults.SLUICE, report(2.0, 110, 7, 100));
    r.add("W2-mor", BenchResults.HUDI, report(8.0, 110, 7, 300));
    assertFalse(r.resultLine("W2-mor").contains("hudi1"), r.resultLine("W2-mor"));
    r.add("W2-mor", BenchResults.HUDI1, report(6.0, 110, 7, 310));
    String line = r.resultLine("W2-mor");
    assertTrue(line.contains(" hudi1_s=6.000 hudi1_ratio=3.00 hudi1_bytes=310 "), line);
    assertTrue(line.contains(" hudi1_rows=110 rows_ok=true"), line);
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    r.print(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8), "medians");
    String table = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(table.contains("hudi1_s") && table.contains("hu1/sl"), table);

    BenchResults wrongRows = new BenchResults();
    wrongRows.declare("W1-bulk", 100);
    wrongRows.add("W1-bulk", BenchResults.SLUICE, report(1.0, 100, 5, 1));
    wrongRows.add("W1-bulk", BenchResults.HUDI1, report(1.0, 99, 5, 1));
    assertFalse(wrongRows.rowsOk("W1-bulk"));
    BenchResults wrongSum = new BenchResults();
    wrongSum.declare("W1-bulk", 100);
    wrongSum.add("W1-bulk", BenchResults.HUDI, report(1.0, 100, 5, 1));
    wrongSum.add("W1-bulk", BenchResults.HUDI1, report(1.0, 100, 6, 1));
    assertFalse(wrongSum.rowsOk("W1-bulk"));
  }

  @Test
  void sparkParquetIsCheckedOnWritesAndReadOptimizedReadsButNotOnSnapshots() throws IOException {
    BenchResults r = new BenchResults();
    r.declare("W1-bulk", 100);
    r.declare("W2-mor", 110);
    r.declare("W3-snap-1", 110);
    r.declare("W3-ro-1", -1);
    r.parquetReadsTablesOf(BenchResults.SLUICE_SPARK);
    for (String engine : List.of(BenchResults.SLUICE_SPARK, BenchResults.HUDI_SPARK)) {
      r.add("W1-bulk", engine, report(engine.equals(BenchResults.HUDI_SPARK) ? 6.0 : 4.0, 100, 5, 10));
      r.add("W2-mor", engine, report(3.0, 110, 8, 10));
      r.add("W3-snap-1", engine, report(2.0, 110, 9, 0));
    }
    r.add("W3-ro-1", BenchResults.SLUICE_SPARK, report(1.0, 90, 4, 0));
    r.add("W3-ro-1", BenchResults.HUDI_SPARK, report(1.5, 95, 6, 0));
    r.add("W1-bulk", BenchResults.SPARK_PARQUET, report(2.0, 4.0, 100, 5, 8));
    // a snapshot of the base files only: other rows and ts sum, a lower bound of the time, not checked
    r.add("W3-snap-1", BenchResults.SPARK_PARQUET, report(0.5, 90, 4, 0));
    r.add("W3-ro-1", BenchResults.SPARK_PARQUET, report(0.5, 90, 4, 0));
    for (String label : List.of("W1-bulk", "W2-mor", "W3-snap-1", "W3-ro-1")) {
      assertTrue(r.rowsOk(label), label);
    }
    String line = r.resultLine("W1-bulk");
    assertTrue(line.contains(" sluice_spark_s=4.000 hudi_spark_s=6.000 spark_ratio=1.50 "), line);
    assertTrue(line.contains(" spark_parquet_s=2.000 parquet_ratio=3.00 sluice_spark_parquet=2.00 "
        + "spark_parquet_bytes=8 spark_parquet_rows=100 "), line);
    assertTrue(line.contains(" spark_parquet_cpu_s=4.000 "), line);
    assertTrue(r.resultLine("W2-mor").contains(" spark_parquet_s=n/a parquet_ratio=n/a "), r.resultLine("W2-mor"));
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    r.print(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8), "medians");
    String table = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(table.contains("hsp/spq"), table);
    assertTrue(table.lines().anyMatch(l -> l.matches("W2-mor +3\\.000 +3\\.000 +1\\.00 +- +- +- .*")), table);
    assertTrue(table.lines().anyMatch(l -> l.matches("W3-ro-1 .* ok")), table);

    // the read-optimized read of the same files must give the same rows and ts sum
    BenchResults otherRows = new BenchResults();
    otherRows.declare("W3-ro-1", -1);
    otherRows.parquetReadsTablesOf(BenchResults.SLUICE_SPARK);
    otherRows.add("W3-ro-1", BenchResults.SLUICE_SPARK, report(1.0, 90, 4, 0));
    otherRows.add("W3-ro-1", BenchResults.SPARK_PARQUET, report(0.5, 91, 4, 0));
    assertFalse(otherRows.rowsOk("W3-ro-1"));
    BenchResults otherTs = new BenchResults();
    otherTs.declare("W3-ro-1", -1);
    otherTs.parquetReadsTablesOf(BenchResults.SLUICE);
    otherTs.add("W3-ro-1", BenchResults.SLUICE, report(1.0, 90, 4, 0));
    otherTs.add("W3-ro-1", BenchResults.SPARK_PARQUET, report(0.5, 90, 3, 0));
    assertFalse(otherTs.rowsOk("W3-ro-1"));
    // and a write the expected rows and the formats' ts sum
    BenchResults lostRows = new BenchResults();
    lostRows.declare("W1-bulk", 100);
    lostRows.add("W1-bulk", BenchResults.SLUICE_SPARK, report(1.0, 100, 5, 1));
    lostRows.add("W1-bulk", BenchResults.SPARK_PARQUET, report(1.0, 99, 5, 1));
    assertFalse(lostRows.rowsOk("W1-bulk"));
    BenchResults otherSum = new BenchResults();
    otherSum.declare("W1-bulk", 100);
    otherSum.add("W1-bulk", BenchResults.SLUICE_SPARK, report(1.0, 100, 5, 1));
    otherSum.add("W1-bulk", BenchResults.SPARK_PARQUET, report(1.0, 100, 6, 1));
    assertFalse(otherSum.rowsOk("W1-bulk"));
  }

  @Test
  void tableVersionAddsHudi1OnlyForVersions8And9() {
    assertFalse(BenchOptions.parse(new String[] {"--scale", "smoke"}).runs(BenchResults.HUDI1));
    assertEquals(6, BenchOptions.parse(new String[] {"--scale", "smoke"}).tableVersion());
    BenchOptions nine = BenchOptions.parse(new String[] {"--scale", "smoke", "--table-version", "9"});
    assertEquals(9, nine.tableVersion());
    assertTrue(nine.runs(BenchResults.HUDI1) && nine.runs(BenchResults.HUDI) && nine.runs(BenchResults.SLUICE));
    assertThrows(IllegalArgumentException.class,
        () -> BenchOptions.parse(new String[] {"--table-version", "7"}));
    assertThrows(IllegalArgumentException.class,
        () -> BenchOptions.parse(new String[] {"--engines", "sluice,hudi1"}));
  }

  @Test
  void metadataCostLineComparesTheMediansWithAndWithoutTheMetadataTable() throws IOException {
    BenchResults r = new BenchResults();
    r.declare("W2-mor", 110);
    r.declare("W2-mor" + BenchResults.MDT, 110);
    for (double s : new double[] {2.0, 1.0, 3.0}) {
      r.add("W2-mor", BenchResults.SLUICE, report(s, s * 2, 110, 7, 100));
    }
    for (double s : new double[] {2.1, 9.0, 1.9}) {
      r.add("W2-mor" + BenchResults.MDT, BenchResults.SLUICE, report(s, s + 2.2, 110, 7, 100));
    }
    assertEquals("MDT-COST workload=W2-mor engine=sluice off_s=2.000 on_s=2.100 cost_s=0.100 cost_pct=5.0"
            + " off_cpu_s=4.000 on_cpu_s=4.300 cpu_cost_s=0.300 cpu_cost_pct=7.5",
        r.metadataCostLine("W2-mor", BenchResults.SLUICE));
    assertEquals("MDT-COST workload=W2-mor engine=hudi off_s=n/a on_s=n/a cost_s=n/a cost_pct=n/a"
            + " off_cpu_s=n/a on_cpu_s=n/a cpu_cost_s=n/a cpu_cost_pct=n/a",
        r.metadataCostLine("W2-mor", BenchResults.HUDI));
  }

  @Test
  void rowsMismatchAndChecksumMismatchAreCaught() throws IOException {
    BenchResults r = new BenchResults();
    r.declare("W6-cow", 90);
    r.add("W6-cow", BenchResults.SLUICE, report(1, 90, 5, 1));
    r.add("W6-cow", BenchResults.HUDI, report(1, 91, 5, 1));
    assertFalse(r.rowsOk("W6-cow"));
    r.declare("W1-bulk", 10);
    r.add("W1-bulk", BenchResults.SLUICE, report(1, 10, 5, 1));
    r.add("W1-bulk", BenchResults.HUDI, report(1, 10, 6, 1));
    assertFalse(r.rowsOk("W1-bulk"), "same count, different data");
  }

  @Test
  void unavailableEnginesPrintNaAndOnlyFailuresCount() throws IOException {
    BenchResults r = new BenchResults();
    r.declare("W4", 10);
    r.add("W4", BenchResults.HUDI, report(3, 10, 1, 1));
    r.unavailable("W4", BenchResults.SLUICE, "n/a: compaction is missing");
    assertTrue(r.resultLine("W4").contains("sluice_s=n/a hudi_s=3.000 ratio=n/a"), r.resultLine("W4"));
    assertFalse(r.anyFailure());
    r.unavailable("W4@512m", BenchResults.HUDI, "failed: worker exit 3");
    assertFalse(r.anyFailure(), "memory runs may fail");
    r.unavailable("W4", BenchResults.HUDI, "failed: worker exit 1");
    assertTrue(r.anyFailure());
  }

  @Test
  void optionsSelectWorkloadsByPrefixAndSmokeDefaultsToASubset() {
    BenchOptions o = BenchOptions.parse(new String[] {"--scale", "full", "--only", "W2,W5"});
    assertTrue(o.selected("W2-cow") && o.selected("W2-mor") && o.selected("W5"));
    assertFalse(o.selected("W1-bulk"));
    assertEquals(3, o.reps());
    assertEquals(1_000_000, o.scale().records());
    BenchOptions smoke = BenchOptions.parse(new String[] {"--scale", "smoke"});
    assertFalse(smoke.selected("W1-insert"));
    assertTrue(smoke.selected("W3"));
    assertFalse(smoke.memoryRuns());
    assertEquals(List.of("sluice", "hudi", "floor"), smoke.engines());
    assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[] {"--scale", "huge"}));
    assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[] {"--reps", "0"}));
  }

  @Test
  void warmupOverridesOnlyTheScalesWarmupSize() {
    BenchOptions.Scale full = BenchOptions.parse(new String[] {"--scale", "full"}).scale();
    assertEquals(20_000, full.warmup());
    BenchOptions.Scale warm = BenchOptions.parse(new String[] {"--scale", "full", "--warmup", "300000"}).scale();
    assertEquals(300_000, warm.warmup());
    assertEquals(full.records(), warm.records());
    assertEquals(full.batch(), warm.batch());
    assertEquals(full.commits(), warm.commits());
    assertEquals(0, BenchOptions.parse(new String[] {"--warmup", "0"}).scale().warmup());
    assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[] {"--warmup", "-1"}));
  }
}
