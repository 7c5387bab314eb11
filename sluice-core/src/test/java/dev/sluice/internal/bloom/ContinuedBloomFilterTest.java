package dev.sluice.internal.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ContinuedBloomFilterTest {
  private static BloomFilter dynamic(int perRow, int max) {
    return BloomFilters.create(BloomFilterType.DYNAMIC_V0, perRow, 1e-6, max);
  }

  /** A filter as a footer holds it: serialized, then read back (its maximum is lost on the way). */
  private static BloomFilter stored(int keys, int perRow, int max) {
    BloomFilter f = dynamic(perRow, max);
    for (int i = 0; i < keys; i++) {
      f.add("old-" + i);
    }
    return BloomFilters.deserialize(f.serialize(), BloomFilterType.DYNAMIC_V0);
  }

  @Test
  void aContinuedFilterHoldsTheOldKeysAndGrowsAsANewOneWould() {
    BloomFilter old = stored(250, 100, 1000);
    BloomFilter c = BloomFilters.continuing(old, dynamic(100, 1000), 250).orElseThrow();
    for (int i = 0; i < 400; i++) {
      c.add("new-" + i);
    }
    for (int i = 0; i < 250; i++) {
      assertTrue(c.mightContain("old-" + i), "old key " + i);
    }
    for (int i = 0; i < 400; i++) {
      assertTrue(c.mightContain("new-" + i), "new key " + i);
    }
    // rows were added past the stored filter's (unknown) maximum: 650 keys at 100 per row
    assertEquals(650, ((DynamicBloomFilter) c).estimatedKeys(), 650 * 0.05);
    assertTrue(c.serialize().length() > old.serialize().length() * 2, "rows were added");
    int falsePositives = 0;
    for (int i = 0; i < 10_000; i++) {
      falsePositives += c.mightContain("absent-" + i) ? 1 : 0;
    }
    assertTrue(falsePositives < 5, falsePositives + " false positives");
  }

  @Test
  void theStoredFilterIsNotChanged() {
    BloomFilter old = stored(50, 100, 1000);
    String before = old.serialize();
    BloomFilter c = BloomFilters.continuing(old, dynamic(100, 1000), 50).orElseThrow();
    for (int i = 0; i < 300; i++) {
      c.add("new-" + i);
    }
    assertEquals(before, old.serialize());
    assertFalse(old.mightContain("new-7") && old.mightContain("new-8") && old.mightContain("new-9"));
  }

  @Test
  void startsAnewWhenDeletedKeysWouldPileUpOrTheFiltersDiffer() {
    BloomFilter old = stored(2500, 1000, 10_000);
    assertTrue(BloomFilters.continuing(old, dynamic(1000, 10_000), 2100).isPresent(), "under a quarter more keys");
    assertTrue(BloomFilters.continuing(old, dynamic(1000, 10_000), 1900).isEmpty(), "over a quarter more keys");
    assertTrue(BloomFilters.continuing(old, dynamic(1200, 10_000), 2500).isEmpty(), "another row size");
    BloomFilter simple = BloomFilters.create(BloomFilterType.SIMPLE, 100, 1e-6, 0);
    assertTrue(BloomFilters.continuing(simple, simple, 0).isEmpty(), "simple filters are always built anew");
    assertTrue(BloomFilters.continuing(old, simple, 2500).isEmpty());
  }

  /** A full filter (rows up to its maximum) goes on round-robin, as it would have, and keeps every key. */
  @Test
  void aFullFilterIsContinuedRoundRobin() {
    BloomFilter old = stored(350, 100, 300);
    BloomFilter c = BloomFilters.continuing(old, dynamic(100, 300), 350).orElseThrow();
    String before = c.serialize();
    for (int i = 0; i < 100; i++) {
      c.add("new-" + i);
    }
    assertEquals(before.length(), c.serialize().length(), "no row added past the maximum");
    for (int i = 0; i < 350; i++) {
      assertTrue(c.mightContain("old-" + i), "old key " + i);
    }
    for (int i = 0; i < 100; i++) {
      assertTrue(c.mightContain("new-" + i), "new key " + i);
    }
  }
}
