package dev.sluice.internal.compact;

import dev.sluice.internal.service.TableInternals;
import static dev.sluice.internal.compact.CompactFixture.round;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Table;
import dev.sluice.api.SluiceException;
import dev.sluice.internal.fsview.FileSlice;
import dev.sluice.internal.log.LogBlockType;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A MoR table written with {@code hoodie.logfile.data.block.format=parquet}: snapshot and compaction. */
class ParquetLogCompactionTest {
  private static final Map<String, String> PARQUET = Map.of("hoodie.logfile.data.block.format", "parquet");

  @TempDir
  Path dir;

  private Table withLogs(CompactFixture.Model model) {
    Table t = CompactFixture.create(dir, PARQUET);
    List<GenericRecord> first = round(0, 40, 10, "r0");
    t.insert(first.iterator());
    model.upsert(first);
    List<GenericRecord> second = round(0, 10, 20, "r1");
    t.upsert(second.iterator());
    model.upsert(second);
    List<GenericRecord> gone = round(30, 4, 30, null);
    t.delete(gone.iterator());
    model.delete(gone);
    List<GenericRecord> third = round(5, 10, 40, "r2");
    t.upsert(third.iterator());
    model.upsert(third);
    return t;
  }

  @Test
  void snapshotMergesParquetLogBlocksAndCompactionFoldsThemIn() throws IOException {
    CompactFixture.Model model = new CompactFixture.Model();
    Table t = withLogs(model);
    List<Path> logs = logFiles();
    assertFalse(logs.isEmpty(), "updates went to log files");
    boolean sawParquet = false;
    for (Path log : logs) {
      int type = firstBlockType(log);
      assertTrue(type == LogBlockType.PARQUET_DATA_BLOCK.ordinal() || type == LogBlockType.DELETE_BLOCK.ordinal(),
          log + " starts with block type " + type);
      sawParquet |= type == LogBlockType.PARQUET_DATA_BLOCK.ordinal();
    }
    assertTrue(sawParquet, "some log starts with a Parquet data block");

    Map<String, String> before = CompactFixture.snapshot(t);
    assertEquals(model.expected(), before);
    assertNotEquals(before, CompactFixture.readOptimized(t));

    String instant = t.compaction().scheduleNow().orElseThrow();
    CompactionResult r = TableInternals.compaction(t).run(instant);
    assertEquals(before.size(), r.recordsWritten());
    assertEquals(before, CompactFixture.snapshot(t));
    assertEquals(before, CompactFixture.readOptimized(t), "read-optimized shows the rows merged from Parquet blocks");
    for (FileSlice s : CompactFixture.latestSlices(t)) {
      assertTrue(s.logFiles().isEmpty());
    }
  }

  @Test
  void hfileBlocksAreRefusedBeforeAnythingIsWritten() throws IOException {
    Table t = CompactFixture.create(dir, Map.of("hoodie.logfile.data.block.format", "HFILE"));
    SluiceException e = assertThrows(SluiceException.class, () -> t.insert(round(0, 3, 1, "r0").iterator()));
    assertEquals(SluiceException.Kind.UNSUPPORTED, e.kind());
    assertTrue(e.getMessage().contains("hoodie.logfile.data.block.format"), e.getMessage());
    assertTrue(logFiles().isEmpty());
    Table bad = CompactFixture.create(dir.resolve("other"), Map.of("hoodie.logfile.data.block.format", "orc"));
    assertEquals(SluiceException.Kind.BAD_CONFIG,
        assertThrows(SluiceException.class, () -> bad.insert(round(0, 3, 1, "r0").iterator())).kind());
  }

  /** The data table's log files (the metadata table's own, under .hoodie, hold HFile blocks and are not the subject). */
  private List<Path> logFiles() throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().contains(".log.") && !dir.relativize(p).startsWith(".hoodie"))
          .toList();
    }
  }

  /** The type field of a log file's first block (after magic, length and version). */
  private static int firstBlockType(Path log) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      f.seek(18);
      return f.readInt();
    }
  }
}
