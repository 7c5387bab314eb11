package dev.sluice.internal.spill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The map behaves exactly like a {@link HashMap} under random operations, whatever the budget. */
class SpillableMapPropertyTest {
  record Val(String text, long n, String note) {
  }

  static final RecordSerializer<Val> VAL = RecordSerializer.of(
      RecordSerializer.field(Val::text, RecordSerializer.string()),
      RecordSerializer.field(Val::n, RecordSerializer.int64()),
      RecordSerializer.field(Val::note, RecordSerializer.string().nullable()),
      Val::new);

  enum Kind { PUT, GET, GET_BYTES, REMOVE, REMOVE_BYTES, CONTAINS, ITERATE }

  record Op(Kind kind, String key, Val value) {
  }

  /** A small key pool (so keys are updated and removed), with colliding hashes and non-ASCII keys. */
  private static final List<String> KEYS = Stream.concat(
      Stream.iterate(0, i -> i + 1).limit(40).map(i -> "key-" + i),
      Stream.of("Aa", "BB", "AaAa", "BBBB", "AaBB", "BBAa", "ключ", "鍵", "\uD83D\uDE00", "", "k\u00e9y")).toList();

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Val> values = Combinators.combine(
        Arbitraries.strings().withCharRange('a', 'z').withChars('é', '€').ofMaxLength(120),
        Arbitraries.longs(),
        Arbitraries.strings().alpha().ofMaxLength(8).injectNull(0.3)).as(Val::new);
    Arbitrary<Kind> kinds = Arbitraries.of(Kind.PUT, Kind.PUT, Kind.PUT, Kind.PUT, Kind.GET, Kind.GET_BYTES,
        Kind.REMOVE, Kind.REMOVE_BYTES, Kind.CONTAINS, Kind.ITERATE);
    return Combinators.combine(kinds, Arbitraries.of(KEYS), values).as(Op::new).list().ofMaxSize(400);
  }

  @Provide
  Arbitrary<Long> budgets() {
    return Arbitraries.of(0L, 200L, 1500L, 6000L, 1L << 20);
  }

  @Property(tries = 100, seed = "20261203")
  void behavesLikeAHashMap(@ForAll("ops") List<Op> ops, @ForAll("budgets") long budget,
      @ForAll boolean eagerCompaction) throws IOException {
    Path dir = Files.createTempDirectory("spill-prop");
    Map<String, Val> model = new HashMap<>();
    SpillableMap.Builder<Val> builder = SpillableMap.builder(VAL).memoryBudgetBytes(budget).spillDirectory(dir)
        .writeBufferBytes(4096);
    if (eagerCompaction) {
      builder.minCompactionBytes(0);
    }
    try (SpillableMap<Val> map = builder.build()) {
      for (Op op : ops) {
        switch (op.kind()) {
          case PUT -> {
            map.put(op.key(), op.value());
            model.put(op.key(), op.value());
          }
          case GET -> assertEquals(Optional.ofNullable(model.get(op.key())), map.get(op.key()), op.key());
          case GET_BYTES -> {
            byte[] b = padded(op.key());
            assertEquals(Optional.ofNullable(model.get(op.key())), map.get(b, 3, b.length - 5), op.key());
          }
          case REMOVE -> assertEquals(Optional.ofNullable(model.remove(op.key())), map.remove(op.key()));
          case REMOVE_BYTES -> {
            byte[] b = padded(op.key());
            assertEquals(Optional.ofNullable(model.remove(op.key())), map.remove(b, 3, b.length - 5));
          }
          case CONTAINS -> assertEquals(model.containsKey(op.key()), map.containsKey(op.key()));
          case ITERATE -> assertEquals(model, drain(map));
          default -> throw new AssertionError(op);
        }
        assertEquals(model.size(), map.size());
        assertEquals(map.size(), map.inMemoryCount() + map.spilledCount());
      }
      assertEquals(model, drain(map));
      for (String k : KEYS) {
        assertEquals(Optional.ofNullable(model.get(k)), map.get(k), k);
      }
      if (budget == 0) {
        assertEquals(0, map.inMemoryCount(), "a zero budget keeps nothing in memory");
      }
    }
    try (Stream<Path> left = Files.list(dir)) {
      assertEquals(0, left.count(), "close deletes the spill file");
    }
    Files.delete(dir);
  }

  /** The key's UTF-8 bytes inside a larger array (3 bytes before, 2 after), as a page buffer holds them. */
  private static byte[] padded(String key) {
    byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
    byte[] b = new byte[utf8.length + 5];
    Arrays.fill(b, (byte) 'x');
    System.arraycopy(utf8, 0, b, 3, utf8.length);
    return b;
  }

  private static Map<String, Val> drain(SpillableMap<Val> map) {
    Map<String, Val> out = new HashMap<>();
    try (CloseableIterator<Map.Entry<String, Val>> it = map.entries()) {
      while (it.hasNext()) {
        Map.Entry<String, Val> e = it.next();
        assertNull(out.put(e.getKey(), e.getValue()), "iterated twice: " + e.getKey());
      }
    }
    assertTrue(out.size() <= map.size());
    return out;
  }
}
