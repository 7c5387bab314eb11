package dev.sluice.bloom;

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
    assertEquals(650, ((DynamicBloomFilter) c).keysAdded());
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
    BloomFilter old = stored(250, 100, 1000);
    assertTrue(BloomFilters.continuing(old, dynamic(100, 1000), 200).isPresent(), "a quarter more keys than rows");
    assertTrue(BloomFilters.continuing(old, dynamic(100, 1000), 199).isEmpty(), "more than a quarter");
    assertTrue(BloomFilters.continuing(old, dynamic(120, 1000), 250).isEmpty(), "another row size");
    assertTrue(BloomFilters.continuing(old, dynamic(100, 300), 250).isEmpty(), "at the new maximum");
    BloomFilter simple = BloomFilters.create(BloomFilterType.SIMPLE, 100, 1e-6, 0);
    assertTrue(BloomFilters.continuing(simple, simple, 0).isEmpty(), "simple filters are always built anew");
    assertTrue(BloomFilters.continuing(old, simple, 250).isEmpty());
  }
}
