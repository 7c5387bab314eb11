package dev.sluice.internal.hfile;

import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/** Writes and reads test HFiles. */
final class HFileTestFiles {
  static final Storage STORAGE = new LocalStorage();

  private HFileTestFiles() {
  }

  /** {@code n} sorted cells with keys {@code key-000000...} and values of 20 to 120 pseudo-random bytes. */
  static List<HFileCell> cells(int n, long seed) {
    Random r = new Random(seed);
    TreeMap<String, byte[]> m = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      byte[] v = new byte[20 + r.nextInt(100)];
      r.nextBytes(v);
      m.put(String.format("key-%08d-%s", i, Long.toHexString(r.nextLong())), v);
    }
    List<HFileCell> out = new ArrayList<>();
    m.forEach((k, v) -> out.add(new HFileCell(k.getBytes(StandardCharsets.UTF_8), v)));
    return out;
  }

  static Path write(Path file, List<HFileCell> cells, HFileWriterOptions options) {
    try (HFileWriter w = HFileWriter.create(STORAGE, file.toString(), options)) {
      for (HFileCell c : cells) {
        w.append(c.key(), c.value());
      }
    }
    return file;
  }

  static HFileReader open(Path file) throws java.io.IOException {
    return HFileReader.open(STORAGE, file.toString(), Files.size(file));
  }

  /** Equal lists, with a short message naming the first difference. */
  static void assertCells(List<HFileCell> expected, List<HFileCell> actual, String what) {
    for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
      if (!expected.get(i).equals(actual.get(i))) {
        throw new AssertionError(what + ": cell " + i + " is " + actual.get(i) + ", expected " + expected.get(i));
      }
    }
    if (expected.size() != actual.size()) {
      throw new AssertionError(what + ": " + actual.size() + " cells, expected " + expected.size());
    }
  }

  static List<HFileCell> all(HFileReader r) {
    List<HFileCell> out = new ArrayList<>();
    try (var it = r.scan()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }
}
