package dev.sluice.internal.spill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class SpillIndexTest {
  /** An operation on the index: add a new entry id, or remove / relocate an existing one. */
  record Op(int kind, int id, int fp) {
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    // Few distinct fingerprints, some sharing low bits: long probe runs, wrap-around and shifts on removal.
    Arbitrary<Integer> fps = Arbitraries.of(3, 1, 2, 1023, 1024, 2047, -1, 7 << 20, 5, 1 << 10 | 5);
    return Arbitraries.integers().between(0, 2).flatMap(kind -> Arbitraries.integers().between(0, 3000)
        .flatMap(id -> fps.map(fp -> new Op(kind, id, fp)))).list().ofMinSize(1).ofMaxSize(3000);
  }

  @Property(tries = 60, seed = "20261203")
  void agreesWithAMapOfEntries(@ForAll("ops") List<Op> ops) {
    SpillIndex index = new SpillIndex();
    Map<Long, Integer> model = new HashMap<>();
    long nextOffset = 1;
    List<Long> live = new ArrayList<>();
    for (Op op : ops) {
      if (op.kind() == 0 || live.isEmpty()) {
        long location = SpillIndex.pack(nextOffset++, 10 + op.id() % 50);
        index.add(op.fp(), location);
        model.put(location, op.fp());
        live.add(location);
      } else {
        long location = live.get(op.id() % live.size());
        int fp = model.get(location);
        int slot = index.slotAt(fp, SpillIndex.offsetOf(location));
        assertTrue(slot >= 0, "entry must be found before " + (op.kind() == 1 ? "removal" : "relocation"));
        if (op.kind() == 1) {
          index.removeAt(slot);
          model.remove(location);
          live.remove(location);
        } else {
          long moved = SpillIndex.pack(nextOffset++, 7);
          index.setLocation(slot, moved);
          model.remove(location);
          model.put(moved, fp);
          live.set(live.indexOf(location), moved);
        }
      }
    }
    assertEquals(model.size(), index.size());
    Map<Integer, Set<Long>> byFp = new HashMap<>();
    model.forEach((loc, fp) -> byFp.computeIfAbsent(fp, k -> new HashSet<>()).add(loc));
    for (Map.Entry<Integer, Set<Long>> e : byFp.entrySet()) {
      Set<Long> found = new HashSet<>();
      for (int s = index.first(e.getKey()); s >= 0; s = index.next(e.getKey(), s)) {
        assertTrue(found.add(index.location(s)), "a slot visited twice");
      }
      assertEquals(e.getValue(), found, "locations of fingerprint " + e.getKey());
    }
  }

  @Test
  void packsOffsetsAndLengthsWithAnEscapeForHugeRecords() {
    long loc = SpillIndex.pack(SpillIndex.MAX_OFFSET, 123);
    assertEquals(SpillIndex.MAX_OFFSET, SpillIndex.offsetOf(loc));
    assertEquals(123, SpillIndex.lengthOf(loc));
    long huge = SpillIndex.pack(77, 1 << 25);
    assertEquals(77, SpillIndex.offsetOf(huge));
    assertEquals(SpillIndex.LENGTH_ESCAPE, SpillIndex.lengthOf(huge));
  }

  @Test
  void fingerprintsSpreadCollidingStringHashesNoFurther() {
    // "Aa" and "BB" share String.hashCode; their fingerprints must be equal too (it is a function of it),
    // which is why the map verifies keys on disk.
    assertEquals(SpillIndex.fingerprint("Aa"), SpillIndex.fingerprint("BB"));
    Set<Integer> low = new HashSet<>();
    for (int i = 0; i < 1024; i++) {
      low.add(SpillIndex.fingerprint("key-" + i) & 1023);
    }
    assertTrue(low.size() > 550, "sequential keys should spread over home slots, got " + low.size());
  }

  @Test
  void growsFarBeyondItsInitialCapacity() {
    SpillIndex index = new SpillIndex();
    for (int i = 0; i < 100_000; i++) {
      index.add(SpillIndex.fingerprint("k" + i), SpillIndex.pack(i, 5));
    }
    for (int i = 0; i < 100_000; i += 997) {
      assertTrue(index.slotAt(SpillIndex.fingerprint("k" + i), i) >= 0);
    }
    assertEquals(100_000, index.size());
    assertTrue(index.heapBytes() <= 12L * 262_144 + 64, "index heap " + index.heapBytes());
  }
}
