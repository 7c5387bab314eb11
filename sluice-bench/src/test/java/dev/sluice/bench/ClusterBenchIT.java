package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import dev.sluice.api.Tables;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scaling run ({@code --engine spark-cluster}) at tiny scale: a standalone cluster of one, then two Workers (each
 * its own JVM, executors in the Workers' child JVMs), 2,000 records loaded, an upsert of 3,000 (2,000 updates,
 * 1,000 new keys). Each run reports its line, the commit counts are the upsert's, and the table each run leaves
 * holds the 3,000 keys at the upsert's version. Nothing about time is asserted.
 */
class ClusterBenchIT {
  @TempDir
  Path work;

  @Test
  void oneAndTwoExecutorsLoadAndUpsert() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int status = ClusterBench.run(new String[] {"--engine", "spark-cluster", "--executors", "1,2", "--records", "2000",
        "--upsert", "3000", "--executor-memory", "512m", "--driver-heap", "512m", "--work-dir", work.toString(),
        "--timeout-min", "15"}, out);
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, text);
    List<Map<String, String>> lines = text.lines().filter(l -> l.startsWith("CLUSTER ")).map(ClusterBench::fields)
        .toList();
    assertEquals(2, lines.size(), text);
    for (int i = 0; i < 2; i++) {
      Map<String, String> f = lines.get(i);
      assertEquals(Integer.toString(i + 1), f.get("executors"), text);
      assertEquals("1000", f.get("inserted"), text);
      assertEquals("2000", f.get("updated"), text);
      assertTrue(Double.parseDouble(f.get("executor_cpu_s")) > 0, text);
      assertTrue(text.contains(System.lineSeparator() + (i + 1) + " | "), text);

      Set<String> keys = new HashSet<>();
      try (CloseableIterator<GenericRecord> it = Tables.open(work.resolve("executors-" + (i + 1)).resolve("table")
          .toString()).newScan().open()) {
        while (it.hasNext()) {
          GenericRecord r = it.next();
          assertTrue(keys.add(r.get("key").toString()), "key twice: " + r.get("key"));
          assertTrue((Long) r.get("ts") >= 2_000_000_000_000L, "not the upsert's version: " + r);
        }
      }
      assertEquals(3000, keys.size());
    }
  }
}
