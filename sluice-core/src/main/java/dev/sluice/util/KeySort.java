package dev.sluice.util;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.ListIterator;
import java.util.function.Function;

/**
 * Sorts items by a string key in {@link String#compareTo} order, stably, faster than a comparator that reads the
 * key through the item: each item's key is read once into an entry holding an order-preserving 64-bit prefix of
 * it, entries are sorted by prefix and only equal prefixes compare the full keys. A million records sorted
 * through {@code Comparator.comparing(WriteRecord::key)} took seconds, mostly cache misses on the
 * record → string → bytes chain of every comparison.
 *
 * <p>The prefix packs the first 8 characters at 8 bits each when every key's first 8 characters are below 256
 * (hex, UUIDs, ASCII ids), otherwise the first 4 at 16 bits; a shorter key is padded with zero bits, so a key
 * sorts at or before every key it is a prefix of, and ties are settled by the full comparison.
 */
public final class KeySort {
  /** Below this many items the plain comparator sort is as fast and allocates nothing. */
  private static final int MIN_ITEMS = 64;

  private static final Comparator<Entry> ORDER = (a, b) -> {
    int c = Long.compareUnsigned(a.prefix, b.prefix);
    return c != 0 ? c : a.key.compareTo(b.key);
  };

  private KeySort() {
  }

  private static final class Entry {
    private final long prefix;
    private final String key;
    private final Object item;

    Entry(long prefix, String key, Object item) {
      this.prefix = prefix;
      this.key = key;
      this.item = item;
    }
  }

  /** Sorts {@code items} in place by {@code keyOf} (stable: items of equal keys keep their order). */
  public static <T> void sort(List<T> items, Function<? super T, String> keyOf) {
    int n = items.size();
    if (n < MIN_ITEMS) {
      items.sort(Comparator.comparing(keyOf));
      return;
    }
    String[] keys = new String[n];
    boolean narrow = true;
    int i = 0;
    for (T item : items) {
      String k = keyOf.apply(item);
      keys[i++] = k;
      narrow = narrow && narrowPrefix(k);
    }
    Entry[] entries = new Entry[n];
    i = 0;
    for (T item : items) {
      String k = keys[i];
      entries[i++] = new Entry(narrow ? prefix8(k) : prefix16(k), k, item);
    }
    Arrays.sort(entries, ORDER);
    ListIterator<T> it = items.listIterator();
    for (Entry e : entries) {
      it.next();
      @SuppressWarnings("unchecked")
      T item = (T) e.item;
      it.set(item);
    }
  }

  /** Sorts strings in place in natural order. */
  public static void sortStrings(List<String> keys) {
    sort(keys, Function.identity());
  }

  private static boolean narrowPrefix(String k) {
    int len = Math.min(8, k.length());
    for (int i = 0; i < len; i++) {
      if (k.charAt(i) > 0xFF) {
        return false;
      }
    }
    return true;
  }

  /** The first 8 characters at 8 bits each (every one below 256), most significant first. */
  static long prefix8(String k) {
    long p = 0;
    int len = Math.min(8, k.length());
    for (int i = 0; i < 8; i++) {
      p = (p << 8) | (i < len ? k.charAt(i) : 0);
    }
    return p;
  }

  /** The first 4 characters at 16 bits each, most significant first. */
  static long prefix16(String k) {
    long p = 0;
    int len = Math.min(4, k.length());
    for (int i = 0; i < 4; i++) {
      p = (p << 16) | (i < len ? k.charAt(i) : 0);
    }
    return p;
  }
}
