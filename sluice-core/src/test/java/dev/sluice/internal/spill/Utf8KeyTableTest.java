package dev.sluice.internal.spill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Utf8KeyTableTest {
  @Test
  void stringAndByteHashesAgree() {
    for (String k : List.of("", "a", "key-000123", "ключ", "鍵", "\uD83D\uDE00x", "k\u00e9y")) {
      byte[] b = k.getBytes(StandardCharsets.UTF_8);
      assertEquals(Utf8KeyTable.hash(k), Utf8KeyTable.hash(b, 0, b.length), k);
    }
  }

  /** Thousands of keys, a quarter removed and re-added at random, against a map; probes by string and by bytes. */
  @Test
  void matchesAMapUnderRandomPutsAndRemoves() {
    Random random = new Random(42);
    List<String> pool = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      pool.add(i % 7 == 0 ? "ключ-" + i : "key-" + i);
    }
    Utf8KeyTable<Integer> table = new Utf8KeyTable<>();
    Map<String, Integer> model = new LinkedHashMap<>();
    for (int op = 0; op < 60_000; op++) {
      String k = pool.get(random.nextInt(pool.size()));
      byte[] b = k.getBytes(StandardCharsets.UTF_8);
      switch (random.nextInt(6)) {
        case 0, 1 -> assertEquals(model.put(k, op), table.put(k, op));
        case 2 -> assertEquals(model.remove(k), table.remove(k));
        case 3 -> {
          int slot = table.slotOf(b, 0, b.length);
          if (slot >= 0) {
            assertEquals(k, table.keyAt(slot));
            assertEquals(model.remove(k), table.removeSlot(slot));
          } else {
            assertFalse(model.containsKey(k), k);
          }
        }
        case 4 -> assertEquals(model.get(k), table.get(b, 0, b.length));
        default -> {
          Integer replaced = model.computeIfPresent(k, (key, v) -> -v);
          assertEquals(replaced == null ? null : -replaced, table.replace(k, replaced == null ? 0 : replaced));
        }
      }
      assertEquals(model.size(), table.size());
    }
    for (String k : pool) {
      assertEquals(model.get(k), table.get(k), k);
    }
    Map<String, Integer> iterated = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, Integer>> it = table.entries(); it.hasNext();) {
      Map.Entry<String, Integer> e = it.next();
      assertNull(iterated.put(e.getKey(), e.getValue()), "iterated twice: " + e.getKey());
    }
    assertEquals(model, iterated);
  }

  @Test
  void iteratesInInsertionOrderWithoutRemovals() {
    Utf8KeyTable<String> table = new Utf8KeyTable<>();
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      keys.add("k" + (i * 7919 % 100));
      table.put(keys.get(i), "v" + i);
    }
    List<String> order = new ArrayList<>();
    table.entries().forEachRemaining(e -> order.add(e.getKey()));
    assertEquals(keys, order);
    table.clear();
    assertEquals(0, table.size());
    assertNull(table.get("k1"));
  }
}
