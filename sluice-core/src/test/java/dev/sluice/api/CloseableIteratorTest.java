package dev.sluice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class CloseableIteratorTest {
  /** Counts up from 0 to {@code size - 1}, recording each computeNext call and whether it was closed. */
  private static final class Counter extends ComputingIterator<Integer> {
    private final int size;
    private int calls;
    private int produced;
    private int closes;
    private RuntimeException closeFailure;

    Counter(int size) {
      this.size = size;
    }

    @Override
    protected Integer computeNext() {
      calls++;
      if (produced == size) {
        return end();
      }
      return produced++;
    }

    @Override
    public void close() {
      closes++;
      if (closeFailure != null) {
        throw closeFailure;
      }
    }
  }

  private static <T> List<T> drain(CloseableIterator<T> it) {
    List<T> out = new ArrayList<>();
    while (it.hasNext()) {
      out.add(it.next());
    }
    return out;
  }

  @Test
  void aPlainIteratorIsMappedOneElementAtATimeAsItIsPulled() {
    List<Integer> seen = new ArrayList<>();
    CloseableIterator<String> mapped = CloseableIterator.of(Arrays.asList(0, 1, 2).iterator()).map(i -> {
      seen.add(i);
      return "n" + i;
    });
    assertEquals(List.of(), seen, "nothing mapped before it is asked for");
    assertEquals("n0", mapped.next());
    assertEquals(List.of(0), seen, "one element mapped per element pulled");
    assertEquals(List.of("n1", "n2"), drain(mapped));
    assertFalse(mapped.hasNext());
    assertThrows(NoSuchElementException.class, mapped::next);
    mapped.close();
  }

  @Test
  void aCloseableIteratorTakenAsAPlainOneIsStillClosed() {
    Counter c = new Counter(2);
    java.util.Iterator<Integer> plain = c;
    try (CloseableIterator<Integer> it = CloseableIterator.of(plain)) {
      assertEquals(List.of(0, 1), drain(it));
    }
    assertEquals(1, c.closes);
  }

  @Test
  void computingIteratorHandsOutEachElementOnceAndStopsAskingAfterTheEnd() {
    Counter c = new Counter(3);
    assertTrue(c.hasNext());
    assertTrue(c.hasNext());
    assertEquals(1, c.calls, "hasNext twice computes once");
    assertEquals(0, c.next());
    assertEquals(1, c.next());
    assertEquals(2, c.next());
    assertFalse(c.hasNext());
    assertFalse(c.hasNext());
    assertThrows(NoSuchElementException.class, c::next);
    assertEquals(4, c.calls, "three elements and one end; nothing asked after the end");
  }

  @Test
  void computingIteratorCarriesNullElements() {
    CloseableIterator<String> it = new ComputingIterator<>() {
      private final List<String> items = new ArrayList<>(Arrays.asList("a", null, "b"));

      @Override
      protected String computeNext() {
        return items.isEmpty() ? end() : items.remove(0);
      }

      @Override
      public void close() {
      }
    };
    assertEquals(Arrays.asList("a", null, "b"), drain(it));
  }

  @Test
  void filterKeepsMatchingElementsAndClosesTheSource() {
    Counter c = new Counter(10);
    CloseableIterator<Integer> even = c.filter(i -> i % 2 == 0);
    assertEquals(List.of(0, 2, 4, 6, 8), drain(even));
    even.close();
    assertEquals(1, c.closes);
  }

  @Test
  void limitStopsWithoutReadingPastTheLimit() {
    Counter c = new Counter(100);
    CloseableIterator<Integer> first = c.limit(3);
    assertEquals(List.of(0, 1, 2), drain(first));
    assertEquals(3, c.calls, "the fourth element is never computed");
    assertThrows(NoSuchElementException.class, first::next);
    first.close();
    assertEquals(1, c.closes);
    assertEquals(List.of(0, 1), drain(new Counter(2).limit(5)), "a limit past the end ends with the source");
    Counter none = new Counter(5);
    assertFalse(none.limit(0).hasNext());
    assertEquals(0, none.calls);
    assertThrows(IllegalArgumentException.class, () -> new Counter(1).limit(-1));
  }

  @Test
  void onCloseRunsOnceAfterTheSourceIsClosed() {
    Counter c = new Counter(2);
    List<String> events = new ArrayList<>();
    CloseableIterator<Integer> it = c.onClose(() -> events.add("action after " + c.closes + " close"));
    assertEquals(List.of(0, 1), drain(it));
    assertTrue(events.isEmpty(), "exhausting is not closing");
    it.close();
    it.close();
    assertEquals(List.of("action after 1 close"), events);
    assertEquals(1, c.closes);
  }

  @Test
  void onCloseRunsEvenWhenClosingTheSourceFails() {
    Counter c = new Counter(1);
    c.closeFailure = new IllegalStateException("close failed");
    boolean[] ran = new boolean[1];
    CloseableIterator<Integer> it = c.onClose(() -> ran[0] = true);
    IllegalStateException e = assertThrows(IllegalStateException.class, it::close);
    assertEquals("close failed", e.getMessage());
    assertTrue(ran[0]);
  }

  @Test
  void theNewMethodsCompose() {
    Counter c = new Counter(50);
    List<String> closed = new ArrayList<>();
    try (CloseableIterator<String> it = c.filter(i -> i % 5 == 0).limit(4).map(i -> "n" + i)
        .onClose(() -> closed.add("done"))) {
      assertEquals(List.of("n0", "n5", "n10", "n15"), drain(it));
      assertNull(it.hasNext() ? "more" : null);
    }
    assertEquals(List.of("done"), closed);
    assertEquals(1, c.closes);
  }
}
