package dev.sluice.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark side of sluice-bench's SQL workload ({@code SparkOracle sql-bench --queries F [--conf k=v ...]}): every
 * line of F is one query as a JSON object ({@code label}, {@code path} of the table, {@code view}, {@code query}
 * type, {@code sql}); each is run in this session once untimed, then once timed, each run from the table's load
 * through Hudi's data source (as a temporary view) to the last row collected. Each prints one line
 * {@code BENCH {"label":..., "seconds":..., "first_seconds":..., "rows":..., "result":[[...], ...]}}, the form of
 * sluice-bench's own report lines (its driver reads both engines' workers alike).
 */
final class SqlBenchQueries {
  /** sluice-bench's report line prefix (its StepReport.PREFIX; this module does not depend on sluice-bench). */
  private static final String PREFIX = "BENCH ";
  private static final ObjectMapper JSON = new ObjectMapper();

  private SqlBenchQueries() {
  }

  static void run(SparkSession spark, Path queries, Map<String, String> conf, PrintStream out) throws IOException {
    for (String line : Files.readAllLines(queries, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode q = JSON.readTree(line);
      ArrayNode result = JSON.createArrayNode();
      double first = timed(spark, q, conf, JSON.createArrayNode());
      double seconds = timed(spark, q, conf, result);
      ObjectNode report = JSON.createObjectNode();
      report.put("label", q.path("label").asText());
      report.put("seconds", seconds);
      report.put("first_seconds", first);
      report.put("rows", result.size());
      report.set("result", result);
      out.println(PREFIX + JSON.writeValueAsString(report));
      out.flush();
    }
  }

  private static double timed(SparkSession spark, JsonNode q, Map<String, String> conf, ArrayNode into) {
    long start = System.nanoTime();
    spark.read().format("hudi").options(conf)
        .option("hoodie.datasource.query.type", q.path("query").asText("snapshot"))
        .load(q.path("path").asText()).createOrReplaceTempView(q.path("view").asText());
    List<Row> rows = spark.sql(q.path("sql").asText()).collectAsList();
    double seconds = (System.nanoTime() - start) / 1e9;
    for (Row r : rows) {
      ArrayNode row = into.addArray();
      for (int c = 0; c < r.size(); c++) {
        Object v = r.get(c);
        if (v == null) {
          row.addNull();
        } else if (v instanceof Double || v instanceof Float) {
          row.add(((Number) v).doubleValue());
        } else if (v instanceof BigDecimal d) {
          row.add(d);
        } else if (v instanceof Number n) {
          row.add(n.longValue());
        } else {
          row.add(v.toString());
        }
      }
    }
    spark.catalog().dropTempView(q.path("view").asText());
    return seconds;
  }
}
