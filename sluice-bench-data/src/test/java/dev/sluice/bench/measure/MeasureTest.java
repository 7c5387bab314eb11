package dev.sluice.bench.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeasureTest {
  @TempDir
  Path dir;

  @Test
  void snapshotCountsCreatedAndAppendedBytesApartFromMetadataAndChecksums() throws IOException {
    Files.createDirectories(dir.resolve("p1"));
    Files.createDirectories(dir.resolve(".hoodie"));
    Files.write(dir.resolve("p1/a.parquet"), new byte[100]);
    Files.write(dir.resolve("p1/.f1_0.log.1_0-1-0"), new byte[10]);
    DirSnapshot before = DirSnapshot.of(dir);
    assertEquals(110, before.dataBytes());
    Files.write(dir.resolve("p1/b.parquet"), new byte[40]);
    Files.write(dir.resolve("p1/.b.parquet.crc"), new byte[8]);
    Files.write(dir.resolve("p1/.f1_0.log.1_0-1-0"), new byte[25]);
    Files.write(dir.resolve(".hoodie/1.commit"), new byte[7]);
    DirSnapshot.Written w = before.writtenSince();
    assertEquals(40 + 15, w.dataBytes());
    assertEquals(7, w.metaBytes());
    assertEquals(1, w.baseFiles());
    assertEquals(1, w.logFiles());
  }

  @Test
  void copyAndDeleteTrees() throws IOException {
    Files.createDirectories(dir.resolve("t/x/y"));
    Files.write(dir.resolve("t/x/y/f"), new byte[] {1, 2, 3});
    Dirs.copy(dir.resolve("t"), dir.resolve("u"));
    assertEquals(3, Files.size(dir.resolve("u/x/y/f")));
    Dirs.delete(dir.resolve("t"));
    assertTrue(Files.notExists(dir.resolve("t")));
  }

  @Test
  void heapMeterSeesAnAllocationHeldAcrossCollections() {
    HeapMeter meter = new HeapMeter();
    meter.start();
    List<long[]> hold = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      hold.add(new long[256 * 1024]);
    }
    System.gc();
    meter.stop();
    assertEquals(64, hold.size());
    assertTrue(meter.peakUsed() >= 64L * 2 * 1024 * 1024, "peak " + meter.peakUsed());
  }

  @Test
  void reportLineIsFlatJsonAndArgsRoundTrip() {
    String line = new StepReport("W2-cow").put("seconds", 1.5).put("rows", 12L).put("note", "a \"b\"").line();
    assertEquals("BENCH {\"label\": \"W2-cow\", \"seconds\": 1.500000, \"rows\": 12, \"note\": \"a \\\"b\\\"\"}", line);
    Map<String, String> opts = new LinkedHashMap<>();
    opts.put("table", "/tmp/x");
    opts.put("lists", "a,b");
    StepArgs a = StepArgs.parse(StepArgs.format("upsert", opts).toArray(new String[0]));
    assertEquals("upsert", a.step());
    assertEquals("/tmp/x", a.get("table"));
    assertEquals(List.of("a", "b"), a.list("lists"));
    assertEquals(7, a.getLong("missing", 7));
  }
}
