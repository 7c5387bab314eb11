package dev.sluice.internal.util;

import dev.sluice.api.CloseableIterator;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.SluiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Parts drained on worker threads: every element once, in part order within a part, failures as they are. */
class ParallelConcatTest {
  private final AtomicInteger opened = new AtomicInteger();
  private final AtomicInteger closed = new AtomicInteger();

  @Test
  void everyElementOnceAndInOrderWithinItsPart() {
    List<Supplier<CloseableIterator<int[]>>> parts = new ArrayList<>();
    for (int p = 0; p < 9; p++) {
      parts.add(part(p, p * 700));
    }
    Map<Integer, List<Integer>> seen = new TreeMap<>();
    try (CloseableIterator<int[]> it = CloseableIterator.concat(parts, 3, 64)) {
      while (it.hasNext()) {
        int[] e = it.next();
        seen.computeIfAbsent(e[0], k -> new ArrayList<>()).add(e[1]);
      }
      assertThrows(NoSuchElementException.class, it::next);
    }
    for (int p = 0; p < 9; p++) {
      List<Integer> expected = new ArrayList<>();
      for (int i = 0; i < p * 700; i++) {
        expected.add(i);
      }
      assertEquals(expected, seen.getOrDefault(p, List.of()), "part " + p);
    }
    assertEquals(9, opened.get());
    assertEquals(9, closed.get());
  }

  @Test
  void aWorkersFailureIsThrownAsItIsAndClosesEverything() {
    SluiceException boom = Errors.badTable("/t/f.parquet", "is damaged", "rewrite it");
    List<Supplier<CloseableIterator<int[]>>> parts = new ArrayList<>();
    for (int p = 0; p < 6; p++) {
      parts.add(p == 2 ? failing(boom) : part(p, 5000));
    }
    CloseableIterator<int[]> it = CloseableIterator.concat(parts, 2, 16);
    SluiceException thrown = assertThrows(SluiceException.class, () -> {
      while (it.hasNext()) {
        it.next();
      }
    });
    assertSame(boom, thrown);
    assertSame(boom, assertThrows(SluiceException.class, it::hasNext), "and again");
    it.close();
    assertEquals(opened.get(), closed.get());
  }

  @Test
  void aFailureHalfWayThroughAPartIsThrownAfterItsEarlierElements() {
    SluiceException boom = Errors.badTable("/t/g.parquet", "has a damaged page", "rewrite it");
    List<Supplier<CloseableIterator<int[]>>> parts = List.of(part(0, 3000), failsAfter(part(1, 3000), 2000, boom),
        part(2, 3000));
    List<Integer> ofFailing = new ArrayList<>();
    CloseableIterator<int[]> it = CloseableIterator.concat(parts, 3, 100);
    SluiceException thrown = assertThrows(SluiceException.class, () -> {
      while (it.hasNext()) {
        int[] e = it.next();
        if (e[0] == 1) {
          ofFailing.add(e[1]);
        }
      }
    });
    assertSame(boom, thrown);
    it.close();
    for (int i = 0; i < ofFailing.size(); i++) {
      assertEquals(i, ofFailing.get(i), "the failing part's elements before the failure, in order");
    }
    assertTrue(ofFailing.size() <= 2000);
    assertEquals(opened.get(), closed.get());
  }

  @Test
  void aFailureWhileClosingAPartIsThrownByClose() {
    IllegalStateException boom = new IllegalStateException("close failed");
    List<Supplier<CloseableIterator<int[]>>> parts = List.of(part(0, 10), closeFails(part(1, 10), boom));
    CloseableIterator<int[]> it = CloseableIterator.concat(parts, 2, 4);
    IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> {
      try (it) {
        it.forEachRemaining(e -> { });
      }
    });
    assertSame(boom, thrown);
  }

  @Test
  void closingEarlyStopsTheWorkersAndClosesTheirParts() {
    List<Supplier<CloseableIterator<int[]>>> parts = new ArrayList<>();
    for (int p = 0; p < 50; p++) {
      parts.add(part(p, 100_000));
    }
    try (CloseableIterator<int[]> it = CloseableIterator.concat(parts, 4, 32)) {
      for (int i = 0; i < 10; i++) {
        it.next();
      }
    }
    assertTrue(opened.get() >= 1 && opened.get() < 50, "stopped before reading every part: " + opened.get());
    assertEquals(opened.get(), closed.get());
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      assertTrue(!t.getName().startsWith("sluice-scan-") || !t.isAlive(), t.getName() + " still running");
    }
  }

  @Test
  void oneThreadIsThePlainConcatenation() {
    List<Supplier<CloseableIterator<int[]>>> parts = List.of(part(0, 3), part(1, 2));
    List<String> out = new ArrayList<>();
    try (CloseableIterator<int[]> it = CloseableIterator.concat(parts, 1, 16)) {
      it.forEachRemaining(e -> out.add(e[0] + ":" + e[1]));
    }
    assertEquals(List.of("0:0", "0:1", "0:2", "1:0", "1:1"), out);
  }

  @Test
  void elementsComeInThePlainConcatenationsOrderWhateverTheWorkersPace() {
    // uneven parts, some empty, the first ones slow: workers finish later parts first, the consumer still gets
    // part 0, then part 1, ...
    List<Supplier<CloseableIterator<int[]>>> parts = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (int p = 0; p < 12; p++) {
      int n = p % 4 == 3 ? 0 : (p * 337) % 1000 + 1;
      parts.add(p < 3 ? slow(part(p, n)) : part(p, n));
      for (int i = 0; i < n; i++) {
        expected.add(p + ":" + i);
      }
    }
    for (int threads : new int[] {2, 3, 7}) {
      List<String> out = new ArrayList<>();
      try (CloseableIterator<int[]> it = CloseableIterator.concat(parts, threads, 16)) {
        it.forEachRemaining(e -> out.add(e[0] + ":" + e[1]));
      }
      assertEquals(expected, out, threads + " threads");
    }
    assertEquals(opened.get(), closed.get());
  }

  /** {@code part}, sleeping a little every 64 elements, so later parts overtake it. */
  private static Supplier<CloseableIterator<int[]>> slow(Supplier<CloseableIterator<int[]>> part) {
    return () -> {
      CloseableIterator<int[]> inner = part.get();
      return new CloseableIterator<int[]>() {
        private int read;

        @Override
        public boolean hasNext() {
          return inner.hasNext();
        }

        @Override
        public int[] next() {
          if (++read % 64 == 0) {
            try {
              Thread.sleep(2);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          return inner.next();
        }

        @Override
        public void close() {
          inner.close();
        }
      };
    };
  }

  /** Part {@code p}: elements {p, 0..n-1}, counting its open and close. */
  private Supplier<CloseableIterator<int[]>> part(int p, int n) {
    return () -> {
      opened.incrementAndGet();
      return new CloseableIterator<>() {
        private int i;

        @Override
        public boolean hasNext() {
          return i < n;
        }

        @Override
        public int[] next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          return new int[] {p, i++};
        }

        @Override
        public void close() {
          closed.incrementAndGet();
        }
      };
    };
  }

  private static Supplier<CloseableIterator<int[]>> closeFails(Supplier<CloseableIterator<int[]>> part,
      RuntimeException e) {
    return () -> {
      CloseableIterator<int[]> inner = part.get();
      return new CloseableIterator<int[]>() {
        @Override
        public boolean hasNext() {
          return inner.hasNext();
        }

        @Override
        public int[] next() {
          return inner.next();
        }

        @Override
        public void close() {
          inner.close();
          throw e;
        }
      };
    };
  }

  private static Supplier<CloseableIterator<int[]>> failsAfter(Supplier<CloseableIterator<int[]>> part, int n,
      RuntimeException e) {
    return () -> {
      CloseableIterator<int[]> inner = part.get();
      return new CloseableIterator<int[]>() {
        private int read;

        @Override
        public boolean hasNext() {
          if (read == n) {
            throw e;
          }
          return inner.hasNext();
        }

        @Override
        public int[] next() {
          read++;
          return inner.next();
        }

        @Override
        public void close() {
          inner.close();
        }
      };
    };
  }

  private Supplier<CloseableIterator<int[]>> failing(RuntimeException e) {
    return () -> {
      throw e;
    };
  }
}
