package dev.sluice.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.internal.hfile.HFileCell;
import dev.sluice.internal.hfile.HFileCompression;
import dev.sluice.internal.hfile.HFileReader;
import dev.sluice.internal.hfile.HFileWriter;
import dev.sluice.internal.hfile.HFileWriterOptions;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.HeaderKey;
import dev.sluice.internal.log.LogWriter;
import dev.sluice.api.CloseableIterator;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HFiles across Sluice and the two readers of Hudi 0.15.0: HBase 2.4.13's {@code HFile.createReader} (Hudi 0.15's
 * default for metadata-table files) and hudi-io's native {@code HFileReaderImpl}. Sluice-written files must be read
 * completely by both (every key and value, point lookups of every key, HBase's {@code seekBefore} of every key);
 * files HBase writes the way Hudi configures it must be read completely by Sluice.
 */
class HFileInteropTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Storage STORAGE = new LocalStorage();
  private static HudiOracle oracle;

  @TempDir
  Path dir;

  @BeforeAll
  static void locate() {
    oracle = HudiOracle.locate();
  }

  /** A file shape: its cells and Sluice's writer options. */
  private record Shape(String name, TreeMap<String, byte[]> cells, HFileWriterOptions options, boolean singleLevel) {
  }

  @Test
  void hbaseAndHudisNativeReaderReadEverySluiceFile() throws IOException {
    HFileWriterOptions gz = HFileWriterOptions.defaults();
    List<Shape> shapes = List.of(
        new Shape("one", cells(1, 1, 55), gz, true),
        new Shape("small-none", cells(3, 2, 60), gz.withCompression(HFileCompression.NONE), true),
        // record-index-like cells (UUID keys) in the default 128 KiB GZ blocks: several blocks
        new Shape("default-gz", uuidCells(20_000, 3), gz, true),
        new Shape("multi-block-gz", cells(5000, 4, 120), gz.withBlockSize(4096), true),
        new Shape("multi-block-none", cells(5000, 5, 120), gz.withCompression(HFileCompression.NONE).withBlockSize(2048), true),
        // leaf and root levels (2) and leaf, intermediate and root levels (3+)
        new Shape("two-level", cells(3000, 6, 80), gz.withBlockSize(1024).withIndex(2048, 16), false),
        new Shape("deep-index", cells(5000, 7, 80), gz.withBlockSize(512).withIndex(512, 4), false),
        new Shape("empty", new TreeMap<>(), gz, true));
    List<String> files = new ArrayList<>();
    for (Shape s : shapes) {
      Path f = dir.resolve(s.name() + ".hfile");
      try (HFileWriter w = HFileWriter.create(STORAGE, f.toString(), s.options())) {
        s.cells().forEach(w::append);
      }
      files.add(f.toString());
    }
    Map<String, JsonNode> results = readWithHudi(files);
    for (Shape s : shapes) {
      String f = dir.resolve(s.name() + ".hfile").toString();
      JsonNode hbase = results.get(f + "|hbase");
      assertComplete(s.name() + " by HBase 2.4", s.cells(), hbase);
      assertEquals(0, hbase.get("seekBeforeFailures").size(), s.name() + ": seekBefore " + hbase.get("seekBeforeFailures"));
      JsonNode hudi = results.get(f + "|native");
      if (s.singleLevel()) {
        assertComplete(s.name() + " by Hudi's native reader", s.cells(), hudi);
      } else {
        // Hudi 0.15's native reader reads single-level indexes only (1.x reads more levels); Hudi 0.15 reads
        // metadata-table files with HBase's reader unless _hoodie.hfile.use.native.reader is set
        assertFalse(hudi.get("ok").asBoolean(), s.name() + ": " + hudi);
        assertTrue(hudi.get("error").asText().contains("INDEX is not supported"), hudi.toString());
      }
    }
  }

  @Test
  void sluiceReadsFilesHBaseWritesAsHudiConfiguresIt() throws IOException {
    TreeMap<String, byte[]> random = cells(6000, 11, 100);
    TreeMap<String, byte[]> uuids = uuidCells(8000, 12);
    Map<String, List<String>> shapes = new LinkedHashMap<>();
    // Hudi's defaults: GZ, 1 MiB blocks
    shapes.put("hudi-default", List.of("--codec", "GZ"));
    // small blocks: HBase shortens each block's index key to a separator between the blocks ("fake first keys")
    shapes.put("fake-keys-gz", List.of("--codec", "GZ", "--block-size", "4096"));
    shapes.put("fake-keys-none", List.of("--codec", "NONE", "--block-size", "16384"));
    // a small hfile.index.block.max.size: HBase writes leaf and intermediate index blocks
    shapes.put("multi-level", List.of("--codec", "GZ", "--block-size", "1024", "--index-block-size", "1024"));
    shapes.put("empty", List.of("--codec", "GZ"));
    // one oracle JVM writes every file (start-up dominates a call)
    List<String> script = new ArrayList<>();
    Map<String, TreeMap<String, byte[]>> contents = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> s : shapes.entrySet()) {
      TreeMap<String, byte[]> cells = s.getKey().equals("empty") ? new TreeMap<>()
          : s.getKey().equals("hudi-default") ? uuids : random;
      contents.put(s.getKey(), cells);
      Path input = dir.resolve(s.getKey() + ".jsonl");
      List<String> lines = new ArrayList<>();
      cells.forEach((k, v) -> lines.add("{\"key\":" + quote(k) + ",\"value\":\"" + Base64.getEncoder().encodeToString(v) + "\"}"));
      Files.write(input, lines, StandardCharsets.UTF_8);
      List<String> args = new ArrayList<>(List.of("hfile-write", "--file", dir.resolve(s.getKey() + ".hbase.hfile").toString(),
          "--input", input.toString()));
      args.addAll(s.getValue());
      script.add(JSON.writeValueAsString(args));
    }
    Path scriptFile = Files.write(dir.resolve("write.batch"), script, StandardCharsets.UTF_8);
    oracle.run(List.of("batch", "--script", scriptFile.toString()));
    for (Map.Entry<String, List<String>> s : shapes.entrySet()) {
      TreeMap<String, byte[]> cells = contents.get(s.getKey());
      Path f = dir.resolve(s.getKey() + ".hbase.hfile");
      try (HFileReader r = HFileReader.open(STORAGE, f.toString(), Files.size(f))) {
        assertEquals(cells.size(), r.entryCount(), s.getKey());
        if (s.getKey().equals("multi-level")) {
          assertTrue(r.indexLevels() >= 3, "HBase wrote " + r.indexLevels() + " index levels");
        }
        List<HFileCell> all = new ArrayList<>();
        try (CloseableIterator<HFileCell> it = r.scan()) {
          it.forEachRemaining(all::add);
        }
        assertEquals(new ArrayList<>(cells.keySet()), all.stream().map(HFileCell::keyString).toList(), s.getKey() + " keys");
        int i = 0;
        for (Map.Entry<String, byte[]> c : cells.entrySet()) {
          assertArrayEquals(c.getValue(), all.get(i++).value(), s.getKey() + " value of " + c.getKey());
          assertArrayEquals(c.getValue(), r.get(c.getKey()).orElseThrow(), s.getKey() + " get " + c.getKey());
          // keys between two cells (and so between a block's shortened index key and its first cell) are absent
          assertEquals(Optional.empty(), r.get(c.getKey() + "\u0000"), s.getKey() + " absent key after " + c.getKey());
        }
        assertEquals("{}", new String(r.fileInfo("schema").orElseThrow(), StandardCharsets.UTF_8));
      }
    }
  }

  @Test
  void hudiReadsSluicesHFileLogBlocksWithBothReaders() throws IOException {
    Schema schema = SchemaBuilder.record("MetadataLike").namespace("test").fields()
        .requiredString("key").requiredInt("type").optionalString("payload").endRecord();
    List<GenericRecord> small = new ArrayList<>();
    for (String k : List.of("p2", "__all_partitions__", "p1")) {
      small.add(record(schema, k, k.length(), "files of " + k));
    }
    List<GenericRecord> large = new ArrayList<>();
    Random r = new Random(21);
    for (int i = 0; i < 6000; i++) {
      large.add(record(schema, new UUID(r.nextLong(), r.nextLong()).toString(), i, "record-index location " + i));
    }
    String path;
    try (LogWriter w = LogWriter.open(STORAGE, dir.toString(), "files-0000-0", "00000000000000010", "0-0-0", 1 << 30)) {
      path = w.appendBlocks(List.of(DataBlock.hfile(Map.of(HeaderKey.INSTANT_TIME, "20261201000000001"), schema, small, "key"),
          DataBlock.hfile(Map.of(HeaderKey.INSTANT_TIME, "20261201000000002"), schema, large, "key"))).file().path();
    }
    for (String nativeReader : List.of("false", "true")) {
      List<String> out = oracle.run(List.of("hfile-log", "--file", path, "--conf", "_hoodie.hfile.use.native.reader=" + nativeReader));
      assertEquals(2, out.size(), out.toString());
      List<List<GenericRecord>> expected = List.of(small, large);
      for (int b = 0; b < 2; b++) {
        JsonNode block = JSON.readTree(out.get(b));
        assertEquals("HFILE_DATA_BLOCK", block.get("type").asText());
        List<GenericRecord> want = new ArrayList<>(expected.get(b));
        want.sort((x, y) -> x.get("key").toString().compareTo(y.get("key").toString()));
        JsonNode records = block.get("records");
        assertEquals(want.size(), records.size(), "native=" + nativeReader + " block " + b);
        for (int i = 0; i < want.size(); i++) {
          JsonNode got = records.get(i);
          assertEquals(want.get(i).get("key").toString(), got.get("key").asText(), "native=" + nativeReader + " key " + i);
          assertEquals(want.get(i).get("type"), got.get("type").asInt());
          assertEquals(want.get(i).get("payload").toString(), got.get("payload").asText());
        }
      }
    }
  }

  private static GenericRecord record(Schema schema, String key, int type, String payload) {
    GenericRecord rec = new GenericData.Record(schema);
    rec.put("key", key);
    rec.put("type", type);
    rec.put("payload", payload);
    return rec;
  }

  private static Map<String, JsonNode> readWithHudi(List<String> files) throws IOException {
    List<String> out = oracle.run(List.of("hfile-read", "--files", String.join(",", files), "--readers", "native,hbase"));
    Map<String, JsonNode> results = new LinkedHashMap<>();
    for (String line : out) {
      JsonNode n = JSON.readTree(line);
      results.put(n.get("file").asText() + "|" + n.get("reader").asText(), n);
    }
    assertEquals(files.size() * 2, results.size(), "one result per file and reader: " + results.keySet());
    return results;
  }

  private static void assertComplete(String what, TreeMap<String, byte[]> cells, JsonNode result) {
    assertTrue(result.get("ok").asBoolean(), what + ": " + result);
    assertEquals(cells.size(), result.get("entries").asLong(), what + ": trailer entry count");
    JsonNode read = result.get("cells");
    assertEquals(cells.size(), read.size(), what + ": cells scanned");
    int i = 0;
    for (Map.Entry<String, byte[]> c : cells.entrySet()) {
      JsonNode cell = read.get(i++);
      assertEquals(c.getKey(), cell.get(0).asText(), what + ": key " + i);
      assertArrayEquals(c.getValue(), Base64.getDecoder().decode(cell.get(1).asText()), what + ": value of " + c.getKey());
    }
    assertEquals(cells.size(), result.get("lookups").asInt(), what);
    assertEquals(0, result.get("lookupFailures").size(), what + ": lookups " + result.get("lookupFailures"));
  }

  /** {@code n} keys {@code key-<i>-<hex>} with values of {@code minValue} to {@code minValue + 60} random bytes. */
  private static TreeMap<String, byte[]> cells(int n, long seed, int minValue) {
    Random r = new Random(seed);
    TreeMap<String, byte[]> m = new TreeMap<>();
    while (m.size() < n) {
      byte[] v = new byte[minValue + r.nextInt(60)];
      r.nextBytes(v);
      m.put("key-" + Long.toHexString(r.nextLong()) + "-" + m.size(), v);
    }
    return m;
  }

  /** Record-index-like cells: UUID keys, short values (the metadata table's record locations are ~40 bytes). */
  private static TreeMap<String, byte[]> uuidCells(int n, long seed) {
    Random r = new Random(seed);
    TreeMap<String, byte[]> m = new TreeMap<>();
    while (m.size() < n) {
      byte[] v = new byte[38 + r.nextInt(8)];
      r.nextBytes(v);
      m.put(new UUID(r.nextLong(), r.nextLong()).toString(), v);
    }
    return m;
  }

  private static String quote(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
