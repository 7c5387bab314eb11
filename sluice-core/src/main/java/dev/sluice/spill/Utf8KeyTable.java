package dev.sluice.spill;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The in-memory part of a {@link SpillableMap}: an open-addressing table from record key to value that can be
 * probed with a {@code String} or with the key's UTF-8 bytes as a Parquet page or Avro record holds them.
 *
 * <p>Why not a {@code HashMap<String, V>}: a snapshot read or compaction probes the merged log once per base row,
 * and most base rows are misses. With a {@code HashMap} each probe first decodes the row's key into a new
 * {@code String} and hashes it, then follows a node pointer into the heap. Here a probe hashes the bytes where
 * they lie, reads one {@code int} slot array (load at most one half, so a miss usually stops at the first empty
 * slot) and compares the stored 32-bit hash before the key itself. Nothing is allocated.
 *
 * <p>The hash is defined over the key's UTF-8 bytes, so {@link #hash(String)} and {@link #hash(byte[], int, int)}
 * agree; for an ASCII key it is the key's {@code String.hashCode}, mixed. Linear probing; a removal shifts the
 * rest of its probe run back (no tombstones) and frees the entry's index for the next insert. Iteration goes by
 * entry index, which is insertion order until something is removed. Not thread-safe; values are never null.
 *
 * @param <V> value type
 */
final class Utf8KeyTable<V> {
  private static final int INITIAL_ENTRIES = 16;

  private String[] keys = new String[INITIAL_ENTRIES];
  private int[] hashes = new int[INITIAL_ENTRIES];
  private Object[] values = new Object[INITIAL_ENTRIES];
  /** Slot to entry index + 1; 0 is an empty slot. */
  private int[] slots = new int[INITIAL_ENTRIES * 2];
  private int mask = slots.length - 1;
  /** Entry indexes below this have been used. */
  private int used;
  private int[] free = new int[0];
  private int freeCount;
  private int size;

  /** The number of entries. */
  int size() {
    return size;
  }

  /** The value of {@code key}, or null. */
  V get(String key) {
    int e = find(key, hash(key));
    return e < 0 ? null : value(e);
  }

  /** The value of the key whose UTF-8 bytes are {@code b[off, off + len)}, or null. */
  V get(byte[] b, int off, int len) {
    int slot = slotOf(b, off, len);
    return slot < 0 ? null : value(slots[slot] - 1);
  }

  /** Sets {@code key} to {@code value}; returns the previous value or null. */
  V put(String key, V value) {
    int h = hash(key);
    int e = find(key, h);
    if (e >= 0) {
      V previous = value(e);
      values[e] = value;
      return previous;
    }
    insert(key, h, value);
    return null;
  }

  /** Replaces the value of {@code key} if it is present; returns the previous value or null (nothing added). */
  V replace(String key, V value) {
    int e = find(key, hash(key));
    if (e < 0) {
      return null;
    }
    V previous = value(e);
    values[e] = value;
    return previous;
  }

  /** Removes {@code key}; returns its value or null. */
  V remove(String key) {
    int h = hash(key);
    return removeAt(slotOf(key, h));
  }

  /** The slot of the key whose UTF-8 bytes are {@code b[off, off + len)}, or -1. */
  int slotOf(byte[] b, int off, int len) {
    int h = hash(b, off, len);
    int slot = h & mask;
    for (int s = slots[slot]; s != 0; s = slots[slot]) {
      int e = s - 1;
      if (hashes[e] == h && KeyBytes.equal(b, off, len, keys[e])) {
        return slot;
      }
      slot = (slot + 1) & mask;
    }
    return -1;
  }

  /** The key in occupied {@code slot}. */
  String keyAt(int slot) {
    return keys[slots[slot] - 1];
  }

  /** Removes the entry in {@code slot} (from {@link #slotOf(byte[], int, int)}); returns its value. */
  V removeSlot(int slot) {
    return removeAt(slot);
  }

  /** Drops every entry and the arrays' growth. */
  void clear() {
    keys = new String[INITIAL_ENTRIES];
    hashes = new int[INITIAL_ENTRIES];
    values = new Object[INITIAL_ENTRIES];
    slots = new int[INITIAL_ENTRIES * 2];
    mask = slots.length - 1;
    used = 0;
    free = new int[0];
    freeCount = 0;
    size = 0;
  }

  /** The entries by entry index; the table must not change while the iterator is used. */
  Iterator<Map.Entry<String, V>> entries() {
    return new Iterator<>() {
      private int e = advance(0);

      private int advance(int from) {
        int i = from;
        while (i < used && values[i] == null) {
          i++;
        }
        return i;
      }

      @Override
      public boolean hasNext() {
        return e < used;
      }

      @Override
      public Map.Entry<String, V> next() {
        if (e >= used) {
          throw new NoSuchElementException();
        }
        Map.Entry<String, V> entry = Map.entry(keys[e], value(e));
        e = advance(e + 1);
        return entry;
      }
    };
  }

  @SuppressWarnings("unchecked")
  private V value(int e) {
    return (V) values[e];
  }

  private int find(String key, int h) {
    int slot = slotOf(key, h);
    return slot < 0 ? -1 : slots[slot] - 1;
  }

  /** The slot holding {@code key}, or -1. */
  private int slotOf(String key, int h) {
    int slot = h & mask;
    for (int s = slots[slot]; s != 0; s = slots[slot]) {
      int e = s - 1;
      if (hashes[e] == h && keys[e].equals(key)) {
        return slot;
      }
      slot = (slot + 1) & mask;
    }
    return -1;
  }

  private void insert(String key, int h, Object value) {
    if ((size + 1) * 2 > slots.length) {
      rehash(slots.length * 2);
    }
    int e;
    if (freeCount > 0) {
      e = free[--freeCount];
    } else {
      if (used == keys.length) {
        int n = keys.length * 2;
        keys = Arrays.copyOf(keys, n);
        hashes = Arrays.copyOf(hashes, n);
        values = Arrays.copyOf(values, n);
      }
      e = used++;
    }
    keys[e] = key;
    hashes[e] = h;
    values[e] = value;
    int slot = h & mask;
    while (slots[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    slots[slot] = e + 1;
    size++;
  }

  private void rehash(int capacity) {
    int[] fresh = new int[capacity];
    int m = capacity - 1;
    for (int s : slots) {
      if (s != 0) {
        int slot = hashes[s - 1] & m;
        while (fresh[slot] != 0) {
          slot = (slot + 1) & m;
        }
        fresh[slot] = s;
      }
    }
    slots = fresh;
    mask = m;
  }

  /** Empties {@code slot} (if not -1), closes the gap in its probe run and frees the entry. */
  private V removeAt(int slot) {
    if (slot < 0) {
      return null;
    }
    int e = slots[slot] - 1;
    V previous = value(e);
    keys[e] = null;
    values[e] = null;
    if (freeCount == free.length) {
      free = Arrays.copyOf(free, Math.max(16, free.length * 2));
    }
    free[freeCount++] = e;
    size--;
    int gap = slot;
    int j = slot;
    while (true) {
      j = (j + 1) & mask;
      int s = slots[j];
      if (s == 0) {
        break;
      }
      int home = hashes[s - 1] & mask;
      // the entry at j may move into the gap unless its home lies cyclically in (gap, j]
      boolean homeInRun = gap <= j ? home > gap && home <= j : home > gap || home <= j;
      if (!homeInRun) {
        slots[gap] = s;
        gap = j;
      }
    }
    slots[gap] = 0;
    return previous;
  }

  /** The hash of {@code key}'s UTF-8 bytes, as {@link #hash(byte[], int, int)} gives it. */
  static int hash(String key) {
    int h = 0;
    int n = key.length();
    for (int i = 0; i < n; i++) {
      char c = key.charAt(i);
      if (c >= 0x80) {
        byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
        return hash(utf8, 0, utf8.length);
      }
      h = 31 * h + c;
    }
    return mix(h);
  }

  /** The hash of UTF-8 bytes {@code b[off, off + len)}. */
  static int hash(byte[] b, int off, int len) {
    int h = 0;
    for (int i = off; i < off + len; i++) {
      h = 31 * h + (b[i] & 0xff);
    }
    return mix(h);
  }

  /** murmur3's 32-bit finalizer: spreads the polynomial hash's weak low bits, which pick the slot. */
  private static int mix(int x) {
    int h = x;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
