package dev.sluice.internal.spill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExternalSorterTest {
  record Val(long seq, String text) {
  }

  static final RecordSerializer<Val> VAL = RecordSerializer.of(
      RecordSerializer.field(Val::seq, RecordSerializer.int64()),
      RecordSerializer.field(Val::text, RecordSerializer.string()),
      Val::new);

  @TempDir
  Path dir;

  private static List<Map.Entry<String, Val>> drain(ExternalSorter<Val> sorter) {
    List<Map.Entry<String, Val>> out = new ArrayList<>();
    try (CloseableIterator<Map.Entry<String, Val>> it = sorter.sorted()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  private static long filesIn(Path d) throws IOException {
    if (!Files.exists(d)) {
      return 0;
    }
    try (Stream<Path> s = Files.list(d)) {
      return s.count();
    }
  }

  @Provide
  Arbitrary<List<String>> keys() {
    Arbitrary<String> key = Arbitraries.oneOf(
        Arbitraries.strings().withCharRange('a', 'f').ofMaxLength(4),
        Arbitraries.of("é", "鍵", "\uD83D\uDE00", "Z", "", "zz\uFFFF"));
    return key.list().ofMaxSize(600);
  }

  @Property(tries = 60, seed = "20261203")
  void sortsStablyLikeAnInMemoryStableSort(@ForAll("keys") List<String> keys,
      @ForAll @IntRange(min = 0, max = 3000) int budget, @ForAll @IntRange(min = 2, max = 5) int fanIn)
      throws IOException {
    Path d = Files.createTempDirectory("sorter-prop");
    List<Map.Entry<String, Val>> expected = new ArrayList<>();
    List<Map.Entry<String, Val>> actual;
    int runs;
    try (ExternalSorter<Val> sorter = ExternalSorter.builder(VAL).memoryBudgetBytes(budget).spillDirectory(d)
        .mergeFanIn(fanIn).writeBufferBytes(4096).build()) {
      for (int i = 0; i < keys.size(); i++) {
        Val v = new Val(i, "v" + i + "x".repeat(i % 30));
        sorter.add(keys.get(i), v);
        expected.add(Map.entry(keys.get(i), v));
      }
      assertEquals(keys.size(), sorter.size());
      runs = sorter.runCount();
      actual = drain(sorter);
      assertTrue(sorter.runCount() <= fanIn, "runs merged down to the fan-in, got " + sorter.runCount());
    }
    expected.sort(Map.Entry.comparingByKey());
    assertEquals(expected, actual);
    if (budget < 200 && keys.size() > 10) {
      assertTrue(runs > 0, "a tiny budget writes runs");
    }
    assertEquals(0, filesIn(d), "close deletes every run file");
    Files.delete(d);
  }

  @Test
  void spillWritesTheHeldPairsAsARunAndKeepsTheOrder() throws IOException {
    Path d = dir.resolve("spilled");
    try (ExternalSorter<Val> sorter = ExternalSorter.builder(VAL).spillDirectory(d).build()) {
      sorter.spill();
      assertEquals(0, sorter.runCount(), "nothing held, nothing written");
      sorter.add("b", new Val(1, "x"));
      sorter.add("a", new Val(2, "y"));
      sorter.spill();
      assertEquals(1, sorter.runCount());
      sorter.add("b", new Val(3, "z"));
      sorter.spill();
      assertEquals(2, sorter.runCount());
      assertEquals(List.of(Map.entry("a", new Val(2, "y")), Map.entry("b", new Val(1, "x")),
          Map.entry("b", new Val(3, "z"))), drain(sorter));
      assertThrows(IllegalStateException.class, sorter::spill);
    }
    assertEquals(0, filesIn(d));
  }

  @Test
  void aSortThatFitsTheBudgetWritesNothing() throws IOException {
    try (ExternalSorter<Val> sorter = ExternalSorter.builder(VAL).spillDirectory(dir.resolve("s")).build()) {
      sorter.add("b", new Val(1, "x"));
      sorter.add("a", new Val(2, "y"));
      sorter.add("b", new Val(3, "z"));
      assertEquals(List.of(Map.entry("a", new Val(2, "y")), Map.entry("b", new Val(1, "x")),
          Map.entry("b", new Val(3, "z"))), drain(sorter));
      assertEquals(0, sorter.runCount());
      assertEquals(0, filesIn(dir.resolve("s")));
    }
  }

  @Test
  void manyRunsAreMergedInPassesAndAllFilesDeleted() throws IOException {
    Path d = dir.resolve("runs");
    int n = 20_000;
    try (ExternalSorter<Val> sorter = ExternalSorter.builder(VAL).memoryBudgetBytes(20_000).spillDirectory(d)
        .mergeFanIn(8).build()) {
      for (int i = 0; i < n; i++) {
        // A permutation of 0..n-1: every key once, in scrambled order.
        int k = (int) ((i * 7919L) % n);
        sorter.add(String.format("%06d", k), new Val(k, "p" + k));
      }
      assertTrue(sorter.runCount() > 8, "expected more runs than the fan-in, got " + sorter.runCount());
      assertTrue(sorter.spilledBytes() > 0);
      int expected = 0;
      try (CloseableIterator<Map.Entry<String, Val>> it = sorter.sorted()) {
        while (it.hasNext()) {
          Map.Entry<String, Val> e = it.next();
          assertEquals(String.format("%06d", expected), e.getKey());
          assertEquals(new Val(expected, "p" + expected), e.getValue());
          expected++;
        }
      }
      assertEquals(n, expected);
      assertTrue(sorter.runCount() <= 8);
      assertThrows(IllegalStateException.class, () -> sorter.add("late", new Val(0, "")));
      assertThrows(IllegalStateException.class, sorter::sorted);
    }
    assertEquals(0, filesIn(d));
  }

  @Test
  void optionsAreValidated() {
    assertThrows(SluiceException.class, () -> ExternalSorter.builder(VAL).build());
    assertThrows(SluiceException.class, () -> ExternalSorter.builder(VAL).mergeFanIn(1));
    assertThrows(SluiceException.class, () -> ExternalSorter.builder(VAL).memoryBudgetBytes(-5));
  }
}
