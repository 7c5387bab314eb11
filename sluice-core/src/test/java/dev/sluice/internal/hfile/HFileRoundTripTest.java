package dev.sluice.internal.hfile;

import static dev.sluice.internal.hfile.HFileTestFiles.all;
import static dev.sluice.internal.hfile.HFileTestFiles.assertCells;
import static dev.sluice.internal.hfile.HFileTestFiles.cells;
import static dev.sluice.internal.hfile.HFileTestFiles.open;
import static dev.sluice.internal.hfile.HFileTestFiles.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** HFiles Sluice writes read back whole, by key, by range and by prefix, in every shape of index. */
class HFileRoundTripTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(HFileCompression.class)
  void emptyFileHasNoCellsButTheFileInfoBothReadersNeed(HFileCompression codec) throws IOException {
    Path f = write(dir.resolve("empty.hfile"), List.of(), HFileWriterOptions.defaults().withCompression(codec));
    try (HFileReader r = open(f)) {
      assertEquals(0, r.entryCount());
      assertEquals(List.of(), all(r));
      assertEquals(Optional.empty(), r.get("a"));
      assertEquals(0, HFileFormat.getInt(r.fileInfo(HFileFormat.AVG_KEY_LEN).orElseThrow(), 0));
      assertEquals(0, HFileFormat.getInt(r.fileInfo(HFileFormat.AVG_VALUE_LEN).orElseThrow(), 0));
      assertFalse(r.fileInfo(HFileFormat.LAST_KEY).isPresent(), "no last key without cells");
      assertEquals(codec, r.compression());
    }
  }

  @ParameterizedTest
  @EnumSource(HFileCompression.class)
  void oneKey(HFileCompression codec) throws IOException {
    byte[] value = "{\"a\": 1}".getBytes(StandardCharsets.UTF_8);
    Path f = dir.resolve("one.hfile");
    try (HFileWriter w = HFileWriter.create(HFileTestFiles.STORAGE, f.toString(), HFileWriterOptions.defaults().withCompression(codec))) {
      w.append("__all_partitions__", value);
    }
    try (HFileReader r = open(f)) {
      assertEquals(1, r.entryCount());
      assertArrayEquals(value, r.get("__all_partitions__").orElseThrow());
      assertEquals(Optional.empty(), r.get("__all_partitions_"));
      assertEquals(Optional.empty(), r.get("__all_partitions__0"));
      assertEquals(List.of(new HFileCell("__all_partitions__".getBytes(StandardCharsets.UTF_8), value)), all(r));
      // the last key and the averages are what HBase's writer stores for the same cell
      assertArrayEquals(HFileFormat.cellKey("__all_partitions__".getBytes(StandardCharsets.UTF_8)),
          r.fileInfo(HFileFormat.LAST_KEY).orElseThrow());
      assertEquals(30, HFileFormat.getInt(r.fileInfo(HFileFormat.AVG_KEY_LEN).orElseThrow(), 0));
      assertEquals(value.length, HFileFormat.getInt(r.fileInfo(HFileFormat.AVG_VALUE_LEN).orElseThrow(), 0));
      assertEquals(1, r.indexLevels());
    }
  }

  @ParameterizedTest
  @EnumSource(HFileCompression.class)
  void manyBlocksSingleLevel(HFileCompression codec) throws IOException {
    List<HFileCell> cells = cells(3000, 1);
    Path f = write(dir.resolve("many.hfile"), cells, HFileWriterOptions.defaults().withCompression(codec).withBlockSize(2048));
    try (HFileReader r = open(f)) {
      assertEquals(1, r.indexLevels());
      assertEquals(3000, r.entryCount());
      assertCells(cells, all(r), "scan");
      checkLookups(r, cells);
    }
    assertTrue(HFileLayout.of(f).dataBlocks().size() > 100, "many data blocks");
  }

  @ParameterizedTest
  @EnumSource(HFileCompression.class)
  void multiLevelIndex(HFileCompression codec) throws IOException {
    List<HFileCell> cells = cells(4000, 2);
    // 256-byte blocks (one or two cells each) and 300-byte index blocks: leaf, intermediate and root levels
    HFileWriterOptions o = HFileWriterOptions.defaults().withCompression(codec).withBlockSize(256).withIndex(300, 4);
    Path f = write(dir.resolve("deep.hfile"), cells, o);
    try (HFileReader r = open(f)) {
      assertTrue(r.indexLevels() >= 3, "levels: " + r.indexLevels());
      assertCells(cells, all(r), "scan");
      checkLookups(r, cells);
    }
  }

  @Test
  void twoLevelIndex() throws IOException {
    List<HFileCell> cells = cells(500, 3);
    HFileWriterOptions o = HFileWriterOptions.defaults().withBlockSize(512).withIndex(1024, 16);
    Path f = write(dir.resolve("two.hfile"), cells, o);
    try (HFileReader r = open(f)) {
      assertEquals(2, r.indexLevels());
      assertCells(cells, all(r), "scan");
      checkLookups(r, cells);
    }
  }

  @Test
  void sortedLookupsOverATwoLevelIndexReadEachBlockOnce() throws IOException {
    List<HFileCell> cells = cells(500, 3);
    Path f = write(dir.resolve("seeks.hfile"), cells, HFileWriterOptions.defaults().withBlockSize(512).withIndex(1024, 16));
    long[] bytes = new long[1];
    dev.sluice.storage.Storage counted = new dev.sluice.storage.InterceptedStorage(HFileTestFiles.STORAGE,
        new dev.sluice.storage.InterceptedStorage.Interceptor() {
          @Override
          public void before(dev.sluice.storage.InterceptedStorage.Call call) {
          }

          @Override
          public dev.sluice.storage.SeekableInput opened(dev.sluice.storage.InterceptedStorage.Call call,
              dev.sluice.storage.SeekableInput in) {
            return dev.sluice.storage.ObservedInput.counting(in, n -> bytes[0] += n);
          }
        });
    try (HFileReader r = HFileReader.open(counted, f.toString(), java.nio.file.Files.size(f))) {
      assertEquals(2, r.indexLevels());
      long opened = bytes[0];
      // every key in order: each data and leaf index block is read once, not once per key
      for (HFileCell c : cells) {
        assertTrue(r.get(c.keyString()).isPresent());
      }
      long read = bytes[0] - opened;
      assertTrue(read <= java.nio.file.Files.size(f), "read " + read + " bytes of a " + java.nio.file.Files.size(f)
          + "-byte file for 500 sorted lookups");
      // the same batch in one getAll pass: found in order, no block read twice either
      long before = bytes[0];
      List<HFileCell> found = new ArrayList<>();
      try (CloseableIterator<HFileCell> it = r.getAll(cells.stream().map(HFileCell::key).iterator())) {
        it.forEachRemaining(found::add);
      }
      assertEquals(cells.size(), found.size());
      assertTrue(bytes[0] - before <= java.nio.file.Files.size(f), "getAll read " + (bytes[0] - before) + " bytes");
    }
  }

  @Test
  void randomShapes() throws IOException {
    Random rnd = new Random(42);
    for (int round = 0; round < 12; round++) {
      int n = rnd.nextInt(600);
      List<HFileCell> cells = cells(n, round + 100);
      HFileWriterOptions o = new HFileWriterOptions(rnd.nextBoolean() ? HFileCompression.GZ : HFileCompression.NONE,
          64 + rnd.nextInt(4096), 64 + rnd.nextInt(2048), 2 + rnd.nextInt(20));
      Path f = write(dir.resolve("random-" + round + ".hfile"), cells, o);
      try (HFileReader r = open(f)) {
        assertCells(cells, all(r), "round " + round + " with " + o);
        checkLookups(r, cells);
      }
    }
  }

  @Test
  void keysInUnsignedUtf8ByteOrderNotJavaStringOrder() throws IOException {
    // U+FF21 sorts after U+1F600 (a surrogate pair in Java) by UTF-8 bytes, before it by String.compareTo
    List<String> keys = List.of("a", "\u00e9", "\uff21", "\ud83d\ude00");
    Path f = dir.resolve("utf8.hfile");
    try (HFileWriter w = HFileWriter.create(HFileTestFiles.STORAGE, f.toString(), HFileWriterOptions.defaults())) {
      for (String k : keys) {
        w.append(k, k.getBytes(StandardCharsets.UTF_8));
      }
    }
    try (HFileReader r = open(f)) {
      List<String> read = new ArrayList<>();
      all(r).forEach(c -> read.add(c.keyString()));
      assertEquals(keys, read);
      for (String k : keys) {
        assertArrayEquals(k.getBytes(StandardCharsets.UTF_8), r.get(k).orElseThrow());
      }
    }
  }

  @Test
  void fileInfoAndMetaBlocks() throws IOException {
    Path f = dir.resolve("info.hfile");
    byte[] bloom = new byte[70_000];
    new Random(5).nextBytes(bloom);
    try (HFileWriter w = HFileWriter.create(HFileTestFiles.STORAGE, f.toString(), HFileWriterOptions.defaults())) {
      w.fileInfo("schema", "{\"type\":\"record\"}".getBytes(StandardCharsets.UTF_8));
      w.fileInfo(HFileFormat.AVG_KEY_LEN, new byte[] {9});
      w.metaBlock("bloomFilter", bloom);
      w.metaBlock("another", new byte[] {1, 2, 3});
      w.append("k", new byte[] {7});
    }
    try (HFileReader r = open(f)) {
      assertEquals("{\"type\":\"record\"}", new String(r.fileInfo("schema").orElseThrow(), StandardCharsets.UTF_8));
      assertEquals(13, HFileFormat.getInt(r.fileInfo(HFileFormat.AVG_KEY_LEN).orElseThrow(), 0),
          "the format's own entries win over the caller's");
      assertArrayEquals(bloom, r.metaBlock("bloomFilter").orElseThrow());
      assertArrayEquals(new byte[] {1, 2, 3}, r.metaBlock("another").orElseThrow());
      assertEquals(Optional.empty(), r.metaBlock("missing"));
      assertArrayEquals(new byte[] {7}, r.get("k").orElseThrow());
    }
  }

  @Test
  void embeddedInALargerFile() throws IOException {
    List<HFileCell> cells = cells(400, 9);
    Path f = write(dir.resolve("inner.hfile"), cells, HFileWriterOptions.defaults().withBlockSize(1024));
    byte[] inner = Files.readAllBytes(f);
    byte[] outer = new byte[inner.length + 1000];
    System.arraycopy(inner, 0, outer, 600, inner.length);
    Path o = Files.write(dir.resolve("outer.log"), outer);
    try (HFileReader r = HFileReader.open(HFileTestFiles.STORAGE, o.toString(), 600, inner.length)) {
      assertCells(cells, all(r), "scan");
      checkLookups(r, cells);
    }
  }

  /** Every key by get, absent keys around each, scans from and prefixes of keys. */
  /**
   * {@link HFileReader#getAll}: the cells of a sorted batch of present and absent keys (before, between and after
   * the cells) come back in order, each present one once; reversed, the same cells in reverse order.
   */
  static void checkGetAll(HFileReader r, List<HFileCell> cells) {
    List<String> asked = new ArrayList<>();
    asked.add("");
    for (HFileCell c : cells) {
      String k = c.keyString();
      asked.add(k.substring(0, k.length() - 1));
      asked.add(k);
      asked.add(k + "\u0000");
    }
    asked.add("zzz");
    java.util.function.Function<List<String>, List<HFileCell>> getAll = keys -> {
      List<HFileCell> out = new ArrayList<>();
      try (CloseableIterator<HFileCell> it = r.getAll(keys.stream()
          .map(k -> k.getBytes(java.nio.charset.StandardCharsets.UTF_8)).iterator())) {
        it.forEachRemaining(out::add);
      }
      return out;
    };
    assertCells(cells, getAll.apply(asked), "getAll of the sorted keys");
    List<String> reversed = new ArrayList<>(asked);
    java.util.Collections.reverse(reversed);
    List<HFileCell> expected = new ArrayList<>(cells);
    java.util.Collections.reverse(expected);
    assertCells(expected, getAll.apply(reversed), "getAll of the keys in reverse order");
  }

  static void checkLookups(HFileReader r, List<HFileCell> cells) {
    for (int i = 0; i < cells.size(); i++) {
      HFileCell c = cells.get(i);
      assertArrayEquals(c.value(), r.get(c.key()).orElseThrow(), "get " + c.keyString());
      String k = c.keyString();
      assertEquals(Optional.empty(), r.get(k + "\u0000"), "absent key after " + k);
      assertEquals(Optional.empty(), r.get(k.substring(0, k.length() - 1)), "absent key before " + k);
      if (i % 7 == 0) {
        try (CloseableIterator<HFileCell> it = r.scanFrom(k.substring(0, k.length() - 1))) {
          List<HFileCell> tail = new ArrayList<>();
          it.forEachRemaining(tail::add);
          assertCells(cells.subList(i, cells.size()), tail, "scan from just before " + k);
        }
      }
    }
    assertEquals(Optional.empty(), r.get(""));
    assertEquals(Optional.empty(), r.get("zzz"));
    checkGetAll(r, cells);
    try (CloseableIterator<HFileCell> it = r.scanFrom("zzz")) {
      assertFalse(it.hasNext());
    }
    if (!cells.isEmpty()) {
      String first = cells.get(0).keyString();
      String prefix = first.substring(0, Math.min(first.length(), 10));
      List<HFileCell> expected = cells.stream().filter(c -> c.keyString().startsWith(prefix)).toList();
      try (CloseableIterator<HFileCell> it = r.scanPrefix(prefix)) {
        List<HFileCell> got = new ArrayList<>();
        it.forEachRemaining(got::add);
        assertCells(expected, got, "prefix " + prefix);
      }
    }
  }
}
