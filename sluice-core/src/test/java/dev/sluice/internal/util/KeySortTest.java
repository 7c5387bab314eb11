package dev.sluice.internal.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class KeySortTest {
  private record Item(String key, int seq) {
  }

  /** What {@link KeySort} must match: the stable comparator sort by key. */
  private static List<Item> expected(List<Item> items) {
    List<Item> copy = new ArrayList<>(items);
    copy.sort(Comparator.comparing(Item::key));
    return copy;
  }

  private static List<Item> items(List<String> keys) {
    List<Item> out = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      out.add(new Item(keys.get(i), i));
    }
    return out;
  }

  private static void assertSortsLikeComparator(List<String> keys) {
    List<Item> items = items(keys);
    List<Item> want = expected(items);
    KeySort.sort(items, Item::key);
    assertEquals(want, items);
  }

  @Test
  void hexKeysWithSharedPrefixesAndDuplicatesSortStably() {
    Random r = new Random(7);
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      // few distinct 8-character prefixes, so most order is decided past the packed prefix
      keys.add(String.format("%08x", r.nextInt(4)) + String.format("%04x", r.nextInt(300)));
    }
    assertSortsLikeComparator(keys);
  }

  @Test
  void shortKeysPrefixesOfOthersAndNulCharacters() {
    List<String> keys = new ArrayList<>();
    String[] base = {"", "a", "ab", "ab\u0000", "ab\u0000x", "abc", "b", "\u00ff", "\u00ff\u00ff", "a\u0001", "zzzzzzzzzz",
        "zzzzzzzz", "zzzzzzzzz", "k12", "k2", "k100"};
    for (int round = 0; round < 10; round++) {
      for (String b : base) {
        keys.add(b);
      }
    }
    assertSortsLikeComparator(keys);
  }

  @Test
  void wideCharactersSwitchToTheSixteenBitPrefix() {
    Random r = new Random(11);
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      StringBuilder sb = new StringBuilder();
      int len = r.nextInt(12);
      for (int c = 0; c < len; c++) {
        // mostly ASCII, sometimes above Latin-1 (a surrogate half or a CJK character) and sometimes 0xFF
        int pick = r.nextInt(10);
        sb.append(pick == 0 ? (char) (0x4E00 + r.nextInt(50)) : pick == 1 ? '\u00ff' : pick == 2 ? '\uD83D'
            : (char) ('a' + r.nextInt(3)));
      }
      keys.add(sb.toString());
    }
    assertSortsLikeComparator(keys);
  }

  @Test
  void smallListsAndStrings() {
    assertSortsLikeComparator(List.of("c", "a", "b", "a"));
    List<String> strings = new ArrayList<>();
    Random r = new Random(3);
    for (int i = 0; i < 1_000; i++) {
      strings.add(Long.toHexString(r.nextLong()));
    }
    List<String> want = new ArrayList<>(strings);
    want.sort(null);
    KeySort.sortStrings(strings);
    assertEquals(want, strings);
  }

  @Test
  void longSharedPrefixesAreOrderedPastSeveralPackedWindows() {
    Random r = new Random(5);
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      // the first 19 characters are the same for every key, so order is decided in the third window or later
      keys.add("tenant-0042/user-000" + String.format("%06d", r.nextInt(8_000)) + (r.nextInt(4) == 0 ? "" : "/x"));
    }
    assertSortsLikeComparator(keys);
  }

  @Property(tries = 300, seed = "20261203")
  void anyKeysSortLikeTheStableComparatorSort(
      @ForAll @Size(max = 400) List<@StringLength(max = 20) @Chars({'a', 'b', '\u0000', '\u00ff'})
          @CharRange(from = '\u4e00', to = '\u4e02') String> keys) {
    assertSortsLikeComparator(keys);
  }

  @Property(tries = 50, seed = "20261203")
  void manyKeysFromATinyAlphabetSortLikeTheComparatorSort(
      @ForAll @Size(min = 64, max = 3000) List<@StringLength(max = 12) @Chars({'a', 'b', '\u0000'}) String> keys) {
    assertSortsLikeComparator(keys);
  }
}
