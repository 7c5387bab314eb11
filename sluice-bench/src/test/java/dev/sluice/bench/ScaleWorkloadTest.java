package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.bench.data.Workloads;
import dev.sluice.bench.measure.StepArgs;
import dev.sluice.bench.measure.StepReport;
import dev.sluice.bench.steps.StepRunner;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SCALE workload's steps on Sluice, in this JVM and tiny (1,200 records): the load commits once per chunk, the
 * upserts update existing keys only, and the table ends with exactly the rows and {@code ts} values the batches
 * must leave. The driver with both engines in child JVMs is {@link BenchSmokeIT}'s.
 */
class ScaleWorkloadTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long SEED = 7;

  @TempDir
  Path work;

  private Map<String, String> args(Path table) {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("seed", Long.toString(SEED));
    a.put("small-file-limit", "0");
    a.put("max-file-size", Long.toString(125_829_120L));
    a.put("parallelism", "2");
    a.put("scratch", work.resolve("scratch").toString());
    a.put("type", "mor");
    a.put("index", "BLOOM");
    a.put("table", table.toString());
    a.put("records", "1200");
    return a;
  }

  private static List<JsonNode> run(Map<String, String> a, String step) throws IOException {
    StepArgs parsed = StepArgs.parse(StepArgs.format(step, a).toArray(new String[0]));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StepRunner.run(parsed, new SluiceBenchEngine(parsed), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    List<JsonNode> out = new ArrayList<>();
    for (String line : bytes.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.startsWith(StepReport.PREFIX)) {
        out.add(JSON.readTree(line.substring(StepReport.PREFIX.length())));
      }
    }
    return out;
  }

  private static long completed(Path table, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(table.resolve(".hoodie"))) {
      return files.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
    }
  }

  @Test
  void loadCommitsPerChunkAndUpsertsLeaveExactlyTheExpectedRows() throws IOException {
    Path table = work.resolve("t");
    Map<String, String> load = args(table);
    load.put("chunk", "500");
    load.put("label", "load");
    List<JsonNode> loaded = run(load, "scale-load");
    assertEquals(1, loaded.size(), loaded.toString());
    JsonNode l = loaded.get(0);
    assertEquals("load", l.path("label").asText());
    assertEquals(1200, l.path("records").asLong());
    assertEquals(3, l.path("commits").asLong());
    assertEquals(3, l.path("commit_seconds").asText().split(" ").length);
    assertTrue(l.path("bytes").asLong() > 0 && l.path("peak_heap").asLong() > 0, l.toString());
    // three bulk inserts into a MoR table: three completed delta commits
    assertEquals(3, completed(table, ".deltacommit"));

    Map<String, String> up = args(table);
    up.put("count", "100");
    up.put("reps", "2");
    up.put("label", "upsert");
    up.put("warmup", "200");
    List<JsonNode> reports = run(up, "scale-upserts");
    // the warm-up ran on a scratch table and left nothing behind
    try (Stream<Path> left = Files.list(work.resolve("scratch"))) {
      assertEquals(List.of(), left.toList());
    }
    assertEquals(3, reports.size(), reports.toString());
    Workloads w = new Workloads(SEED);
    for (int b = 1; b <= 2; b++) {
      JsonNode u = reports.get(b - 1);
      assertEquals("upsert", u.path("label").asText());
      assertEquals(b, u.path("rep").asLong());
      assertEquals(100, u.path("records").asLong());
      assertEquals(Workloads.digest(w.updates(b, 1200, 100)), u.path("digest").asText());
      // updates of existing keys in a MoR table go to log files
      assertTrue(u.path("log_files").asLong() > 0, u.toString());
    }
    JsonNode check = reports.get(2);
    assertEquals("upsert-check", check.path("label").asText());
    assertEquals(1200, check.path("rows").asLong());
    assertEquals(w.tsSumAfterUpdates(1200, 2, 100), check.path("ts_sum").asLong());
    assertTrue(check.path("rows_ok").asBoolean(), check.toString());
    assertEquals(5, completed(table, ".deltacommit"));
  }
}
