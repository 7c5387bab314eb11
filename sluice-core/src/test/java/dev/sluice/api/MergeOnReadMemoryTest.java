package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.fsview.LogFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bounded memory of the Merge-on-Read snapshot: a file slice whose log records are five times the merge budget
 * (over 200 MiB, most of the child JVM's whole heap of {@code -Xmx256m}) reads correctly there
 * ({@link MergedReadMemoryCheck}).
 */
class MergeOnReadMemoryTest {
  private static final int ROWS = 20_000;
  private static final int PAYLOAD = 11_200;
  private static final long BUDGET = 40L << 20;

  @TempDir
  Path dir;

  @Test
  void aSliceWithLogRecordsFiveTimesTheBudgetReadsInASmallHeap() throws IOException, InterruptedException {
    Path table = dir.resolve("t");
    Table t = Tables.create(table.toString(), TableSpec.builder("big").type(TableType.MERGE_ON_READ).recordKey("id")
        .precombine("ts").partitionBy("part").schema(MergedReadMemoryCheck.SCHEMA).build(),
        Config.of(Map.of("hoodie.index.bloom.num_entries", "1000", "hoodie.parquet.small.file.limit", "0")));
    List<GenericRecord> base = new ArrayList<>(ROWS);
    for (int i = 0; i < ROWS; i++) {
      base.add(MergedReadMemoryCheck.row(i, false, PAYLOAD));
    }
    t.bulkInsert(base.iterator());
    base = null;
    // every key updated with a long payload, in four delta commits: four log files of one slice
    for (int batch = 0; batch < 4; batch++) {
      List<GenericRecord> updates = new ArrayList<>(ROWS / 4);
      for (int i = batch; i < ROWS; i += 4) {
        updates.add(MergedReadMemoryCheck.row(i, true, PAYLOAD));
      }
      assertEquals(updates.size(), t.upsert(updates.iterator()).updated());
    }
    List<FileSlice> slices = t.fileSystemView().latestSlices("p0");
    assertEquals(1, slices.size(), "one file slice");
    long logBytes = slices.get(0).logFiles().stream().mapToLong(LogFile::size).sum();
    assertTrue(logBytes >= 5 * BUDGET, "log bytes " + logBytes + " are five times the budget " + BUDGET);

    Path spill = Files.createDirectories(dir.resolve("spill"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = List.of(java.toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        MergedReadMemoryCheck.class.getName(), table.toString(), spill.toString(), String.valueOf(BUDGET),
        String.valueOf(ROWS), String.valueOf(PAYLOAD));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    boolean ended = child.waitFor(3, TimeUnit.MINUTES);
    if (!ended) {
      child.destroyForcibly();
    }
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    System.out.println(output);
    assertTrue(ended, "child JVM did not finish: " + output);
    assertEquals(0, child.exitValue(), "child JVM failed: " + output);
    assertTrue(output.contains("OK rows=" + ROWS), output);
  }
}
