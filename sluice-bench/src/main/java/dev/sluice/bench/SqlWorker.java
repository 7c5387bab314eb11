package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Config;
import dev.sluice.api.ConfigKeys;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.bench.measure.StepReport;
import dev.sluice.sql.SluiceSql;
import dev.sluice.sql.SqlOptions;
import dev.sluice.sql.SqlTable;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * The Sluice side of the SQL workload ({@link SqlBench}), in its own JVM: {@code SqlWorker sql QUERIES PARALLELISM}.
 * Every line of the file {@code QUERIES} is one query as {@link SqlBench#queryLine} writes it (the same file the
 * Spark side reads); each runs through {@link SluiceSql} (DuckDB fed by Sluice's scan over Arrow) once untimed,
 * then once timed, in this JVM. Each query prints one {@value StepReport#PREFIX} line: its label, the timed
 * {@code seconds}, the untimed first run's {@code first_seconds}, and its result rows under {@code result} (an array
 * of arrays, numbers as JSON numbers) for the driver to compare with Spark's.
 */
public final class SqlWorker {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SqlWorker() {
  }

  /**
   * Runs every query of the file and exits (0 on success, 1 on failure).
   *
   * @param args {@code sql} (the step's name, as the other workers get one), the queries file, the scan's threads
   */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    int status = 0;
    try {
      run(Path.of(args[1]), Integer.parseInt(args[2]), out);
    } catch (IOException | RuntimeException e) {
      System.err.println("sluice sql bench worker failed: " + e);
      e.printStackTrace(System.err);
      status = 1;
    }
    out.flush();
    System.exit(status);
  }

  static void run(Path queries, int parallelism, PrintStream out) throws IOException {
    // the same threads as Spark's local[N] gets: the scan reads file slices on them
    Config config = Config.of(Map.of(ConfigKeys.READ_PARALLELISM.name(), Integer.toString(parallelism)));
    for (String line : Files.readAllLines(queries, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode q = JSON.readTree(line);
      ArrayNode result = JSON.createArrayNode();
      double first = timed(q, config, JSON.createArrayNode());
      double seconds = timed(q, config, result);
      ObjectNode report = JSON.createObjectNode();
      report.put("label", q.path("label").asText());
      report.put("seconds", seconds);
      report.put("first_seconds", first);
      report.put("rows", result.size());
      report.set("result", result);
      out.println(StepReport.PREFIX + JSON.writeValueAsString(report));
      out.flush();
    }
  }

  /** Opens the table and the SQL session, runs the query into {@code into}; the seconds from open to last row. */
  private static double timed(JsonNode q, Config config, ArrayNode into) {
    long start = System.nanoTime();
    try (Table table = Tables.open(q.path("path").asText(), config);
        SluiceSql sql = SluiceSql.open(List.of(new SqlTable(q.path("view").asText(), table)), SqlOptions.defaults())) {
      sql.query(q.path("sql").asText(), rs -> {
        collect(rs, into);
        return null;
      });
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static void collect(ResultSet rs, ArrayNode into) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    while (rs.next()) {
      ArrayNode row = into.addArray();
      for (int c = 1; c <= md.getColumnCount(); c++) {
        Object v = rs.getObject(c);
        if (v == null) {
          row.addNull();
        } else if (v instanceof Double || v instanceof Float) {
          row.add(((Number) v).doubleValue());
        } else if (v instanceof BigInteger b) {
          // DuckDB's sum of integers is a HUGEINT
          row.add(new BigDecimal(b));
        } else if (v instanceof BigDecimal d) {
          row.add(d);
        } else if (v instanceof Number n) {
          row.add(n.longValue());
        } else {
          row.add(v.toString());
        }
      }
    }
  }
}
