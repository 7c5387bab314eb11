package dev.sluice.internal.spill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpillableMapTest {
  record Val(String text, long n) {
  }

  static final RecordSerializer<Val> VAL = RecordSerializer.of(
      RecordSerializer.field(Val::text, RecordSerializer.string()),
      RecordSerializer.field(Val::n, RecordSerializer.int64()),
      Val::new);

  @TempDir
  Path dir;

  private SpillableMap<Val> map(long budget) {
    return SpillableMap.builder(VAL).memoryBudgetBytes(budget).spillDirectory(dir.resolve("spill")).build();
  }

  private long filesIn(Path d) throws IOException {
    if (!Files.exists(d)) {
      return 0;
    }
    try (Stream<Path> s = Files.list(d)) {
      return s.count();
    }
  }

  private static Map<String, Val> drain(SpillableMap<Val> m) {
    Map<String, Val> out = new HashMap<>();
    try (CloseableIterator<Map.Entry<String, Val>> it = m.entries()) {
      while (it.hasNext()) {
        Map.Entry<String, Val> e = it.next();
        assertEquals(null, out.put(e.getKey(), e.getValue()), "key iterated twice: " + e.getKey());
      }
    }
    return out;
  }

  @Test
  void keepsEverythingInMemoryWithinTheBudgetAndWritesNothing() throws IOException {
    try (SpillableMap<Val> m = map(1 << 20)) {
      for (int i = 0; i < 100; i++) {
        m.put("k" + i, new Val("v" + i, i));
      }
      assertEquals(100, m.size());
      assertEquals(100, m.inMemoryCount());
      assertEquals(0, m.spilledCount());
      assertEquals(0, m.spilledBytes());
      assertEquals(Optional.of(new Val("v42", 42)), m.get("k42"));
      assertEquals(0, filesIn(dir.resolve("spill")), "no spill file before the budget is passed");
    }
  }

  @Test
  void spillsPastTheBudgetAndReadsSpilledValuesBack() throws IOException {
    Map<String, Val> model = new HashMap<>();
    try (SpillableMap<Val> m = map(4096)) {
      for (int i = 0; i < 2000; i++) {
        Val v = new Val("value-" + i + "-".repeat(i % 40), i * 31L);
        m.put("key-" + i, v);
        model.put("key-" + i, v);
      }
      assertTrue(m.inMemoryCount() > 0, "some entries fit the budget");
      assertTrue(m.spilledCount() > 1900, "most entries spill, got " + m.spilledCount());
      assertEquals(2000, m.inMemoryCount() + m.spilledCount());
      assertTrue(m.estimatedMemoryBytes() <= 4096);
      assertTrue(m.spilledBytes() > 0);
      assertEquals(1, filesIn(dir.resolve("spill")));
      for (Map.Entry<String, Val> e : model.entrySet()) {
        assertEquals(Optional.of(e.getValue()), m.get(e.getKey()), e.getKey());
        assertTrue(m.containsKey(e.getKey()));
      }
      assertEquals(Optional.empty(), m.get("key-2000"));
      assertFalse(m.containsKey("nope"));
      assertEquals(model, drain(m));
    }
    assertEquals(0, filesIn(dir.resolve("spill")), "close deletes the spill file");
  }

  @Test
  void updatesStayWhereTheKeyLives() {
    try (SpillableMap<Val> m = map(600)) {
      int i = 0;
      while (m.spilledCount() == 0) {
        m.put("k" + i, new Val("v", i));
        i++;
      }
      String inMemory = "k0";
      String spilled = "k" + (i - 1);
      long memBefore = m.inMemoryCount();
      long fileBefore = m.spilledBytes();
      m.put(inMemory, new Val("a much longer value that would not have fit the budget at all", -1));
      assertEquals(memBefore, m.inMemoryCount(), "an in-memory key stays in memory");
      assertEquals(fileBefore, m.spilledBytes(), "an in-memory update writes nothing");
      m.put(spilled, new Val("updated", 7));
      assertEquals(1, m.spilledCount(), "a spilled key stays spilled");
      assertTrue(m.spilledBytes() > fileBefore, "a spilled update is appended");
      assertEquals(Optional.of(new Val("updated", 7)), m.get(spilled));
      assertEquals(Optional.of(new Val("a much longer value that would not have fit the budget at all", -1)),
          m.get(inMemory));
      assertEquals(i, m.size());
    }
  }

  @Test
  void removesFromMemoryAndFromDisk() {
    try (SpillableMap<Val> m = map(0)) {
      m.put("a", new Val("1", 1));
      m.put("b", new Val("2", 2));
      assertEquals(2, m.spilledCount(), "a zero budget spills everything");
      assertEquals(Optional.of(new Val("1", 1)), m.remove("a"));
      assertEquals(Optional.empty(), m.remove("a"));
      assertEquals(Optional.empty(), m.get("a"));
      assertEquals(1, m.size());
      m.put("a", new Val("3", 3));
      assertEquals(Optional.of(new Val("3", 3)), m.get("a"));
      assertEquals(Map.of("a", new Val("3", 3), "b", new Val("2", 2)), drain(m));
    }
    try (SpillableMap<Val> m = map(1 << 20)) {
      m.put("a", new Val("1", 1));
      long before = m.estimatedMemoryBytes();
      assertEquals(Optional.of(new Val("1", 1)), m.remove("a"));
      assertTrue(m.estimatedMemoryBytes() < before, "a removal frees its share of the budget");
      assertEquals(0, m.size());
    }
  }

  @Test
  void keysWithCollidingHashesAreToldApartOnDisk() {
    // All 2^6 strings over {"Aa", "BB"} of six pairs share one String.hashCode, hence one fingerprint.
    List<String> keys = new java.util.ArrayList<>();
    for (int mask = 0; mask < 64; mask++) {
      StringBuilder sb = new StringBuilder();
      for (int b = 0; b < 6; b++) {
        sb.append((mask >> b & 1) == 0 ? "Aa" : "BB");
      }
      keys.add(sb.toString());
    }
    assertEquals(1, keys.stream().map(String::hashCode).distinct().count());
    try (SpillableMap<Val> m = map(0)) {
      for (int i = 0; i < keys.size(); i += 2) {
        m.put(keys.get(i), new Val(keys.get(i), i));
      }
      for (int i = 0; i < keys.size(); i++) {
        assertEquals(i % 2 == 0 ? Optional.of(new Val(keys.get(i), i)) : Optional.empty(), m.get(keys.get(i)));
        assertEquals(i % 2 == 0, m.containsKey(keys.get(i)));
      }
      for (int i = 0; i < keys.size(); i += 4) {
        assertTrue(m.remove(keys.get(i)).isPresent());
        m.put(keys.get(i + 2), new Val("again", i));
      }
      for (int i = 0; i < keys.size(); i += 2) {
        Optional<Val> expected = i % 4 == 0 ? Optional.empty() : Optional.of(new Val("again", i - 2));
        assertEquals(expected, m.get(keys.get(i)), keys.get(i));
      }
      assertEquals(16, m.size());
    }
  }

  @Test
  void nonAsciiKeysRoundTripAndUnpairedSurrogatesAreRejected() {
    try (SpillableMap<Val> m = map(0)) {
      List<String> keys = List.of("é", "ключ", "鍵", "\uD83D\uDE00emoji", "e\u0301", "ascii");
      for (String k : keys) {
        m.put(k, new Val(k, k.length()));
      }
      for (String k : keys) {
        assertEquals(Optional.of(new Val(k, k.length())), m.get(k));
      }
      assertFalse(m.containsKey("ключи"));
      assertFalse(m.containsKey("e"));
      assertEquals(keys.size(), drain(m).size());
      SluiceException e = assertThrows(SluiceException.class, () -> m.put("bad\uD800", new Val("x", 1)));
      assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    }
  }

  @Test
  void valuesLargerThanTheWriteBufferAndThanTheIndexLengthField() {
    SpillableMap<byte[]> m = SpillableMap.builder(RecordSerializer.bytes()).memoryBudgetBytes(0)
        .spillDirectory(dir).writeBufferBytes(4096).build();
    try (m) {
      byte[] big = new byte[100_000];
      byte[] huge = new byte[(1 << 24) + 10];
      for (int i = 0; i < big.length; i++) {
        big[i] = (byte) (i * 7);
      }
      huge[huge.length - 1] = 42;
      m.put("small", new byte[] {1, 2, 3});
      m.put("big", big);
      m.put("huge", huge);
      m.put("after", new byte[] {9});
      assertArrayEquals(big, m.get("big").orElseThrow());
      assertArrayEquals(huge, m.get("huge").orElseThrow());
      assertArrayEquals(new byte[] {1, 2, 3}, m.get("small").orElseThrow());
      assertTrue(m.containsKey("huge"));
      m.put("huge", new byte[] {5});
      assertArrayEquals(new byte[] {5}, m.get("huge").orElseThrow());
      assertArrayEquals(new byte[] {9}, m.get("after").orElseThrow());
      assertEquals(4, m.size());
    }
  }

  @Test
  void repeatedUpdatesOfSpilledKeysAreCompactedAway() {
    try (SpillableMap<Val> m = map(0)) {
      String pad = "x".repeat(200);
      for (int round = 0; round < 60; round++) {
        for (int i = 0; i < 500; i++) {
          m.put("k" + i, new Val(pad + round, round * 1000L + i));
        }
        if (round % 7 == 3) {
          m.remove("k" + round);
        }
      }
      // 60 rounds of ~220-byte records for 500 keys would be ~6.6 MB without compaction.
      long live = 500L * (220 + 2 + 4);
      assertTrue(m.spilledBytes() < 3 * live + (1 << 20), "spill file " + m.spilledBytes() + " bytes");
      for (int i = 0; i < 500; i++) {
        // Keys removed in earlier rounds were put again; k59 was removed in the last round.
        Optional<Val> expected = i == 59 ? Optional.empty() : Optional.of(new Val(pad + 59, 59_000L + i));
        assertEquals(expected, m.get("k" + i), "k" + i);
      }
      assertEquals(499, drain(m).size());
      assertEquals(499, m.size());
    }
  }

  @Test
  void iteratorFailsFastOnChangeAndMapRefusesUseAfterClose() throws IOException {
    SpillableMap<Val> m = map(0);
    m.put("a", new Val("1", 1));
    m.put("b", new Val("2", 2));
    CloseableIterator<Map.Entry<String, Val>> it = m.entries();
    it.next();
    m.put("c", new Val("3", 3));
    assertThrows(ConcurrentModificationException.class, it::hasNext);
    it.close();
    m.close();
    m.close();
    assertEquals(0, filesIn(dir.resolve("spill")));
    assertThrows(IllegalStateException.class, () -> m.get("a"));
    assertThrows(IllegalStateException.class, () -> m.put("a", new Val("1", 1)));
  }

  @Test
  void builderValidatesItsOptions() {
    SluiceException noDir = assertThrows(SluiceException.class, () -> SpillableMap.builder(VAL).build());
    assertEquals(SluiceException.Kind.BAD_CONFIG, noDir.kind());
    assertThrows(SluiceException.class, () -> SpillableMap.builder(VAL).memoryBudgetBytes(-1));
  }

  @Test
  void anUnwritableSpillDirectoryIsAStorageError() throws IOException {
    Path notADir = Files.writeString(dir.resolve("file"), "x");
    try (SpillableMap<Val> m = SpillableMap.builder(VAL).memoryBudgetBytes(0).spillDirectory(notADir).build()) {
      SluiceException e = assertThrows(SluiceException.class, () -> m.put("a", new Val("1", 1)));
      assertEquals(SluiceException.Kind.STORAGE, e.kind());
      assertTrue(e.getMessage().contains(notADir.toString()), e.getMessage());
    }
  }
}
