package dev.sluice.internal.spill;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The in-memory part of a {@link SpillableMap}: an open-addressing table from record key to value that can be
 * probed with a {@code String} or with the key's UTF-8 bytes as a Parquet page or Avro record holds them.
 *
 * <p>Why not a {@code HashMap<String, V>}: a snapshot read or compaction probes the merged log once per base row.
 * With a {@code HashMap} each probe first decodes the row's key into a new {@code String} and hashes it, then
 * follows a node pointer into the heap. Here a probe hashes the bytes where they lie and reads one {@code long}
 * slot holding the key's 32-bit hash beside its entry index, so a miss usually costs one cache line (load at most
 * one half) and a hit three more: the entry's key and value (side by side in one array) and the key's bytes.
 * Nothing is allocated (a String per base row before). It is not faster per probe
 * under a read's cache pressure (about 200 ns either way in a micro-benchmark): the probe waits on memory.
 *
 * <p>The hash is defined over the key's UTF-8 bytes, so {@link #hash(String)} and {@link #hash(byte[], int, int)}
 * agree. Linear probing; a removal shifts the rest of its probe run back (no tombstones) and frees the entry's
 * index for the next insert. Iteration goes by entry index, which is insertion order until something is removed.
 * Not thread-safe; values are never null.
 *
 * @param <V> value type
 */
final class Utf8KeyTable<V> {
  private static final int INITIAL_ENTRIES = 16;

  /** Entry {@code e}'s key at {@code 2e} and value at {@code 2e + 1}; a free entry holds nulls. */
  private Object[] entries;
  /** {@code hash << 32 | (entry + 1)}; 0 is an empty slot. */
  private long[] slots;
  private int mask;
  /** Entry indexes below this have been used. */
  private int used;
  private int[] free;
  private int freeCount;
  private int size;

  Utf8KeyTable() {
    clear();
  }

  /** The number of entries. */
  int size() {
    return size;
  }

  /** The value of {@code key}, or null. */
  V get(String key) {
    int slot = slotOf(key, hash(key));
    return slot < 0 ? null : valueIn(slot);
  }

  /** The value of the key whose UTF-8 bytes are {@code b[off, off + len)}, or null. */
  V get(byte[] b, int off, int len) {
    int slot = slotOf(b, off, len);
    return slot < 0 ? null : valueIn(slot);
  }

  /** Sets {@code key} to {@code value}; returns the previous value or null. */
  V put(String key, V value) {
    int h = hash(key);
    int slot = slotOf(key, h);
    if (slot >= 0) {
      return swap(slot, value);
    }
    insert(key, h, value);
    return null;
  }

  /** Replaces the value of {@code key} if it is present; returns the previous value or null (nothing added). */
  V replace(String key, V value) {
    int slot = slotOf(key, hash(key));
    return slot < 0 ? null : swap(slot, value);
  }

  /** Sets the value in occupied {@code slot}; returns the one it replaces. */
  private V swap(int slot, V value) {
    V previous = valueIn(slot);
    entries[2 * entry(slots[slot]) + 1] = value;
    return previous;
  }

  /** Removes {@code key}; returns its value or null. */
  V remove(String key) {
    int slot = slotOf(key, hash(key));
    return slot < 0 ? null : removeSlot(slot);
  }

  /** The slot of the key whose UTF-8 bytes are {@code b[off, off + len)}, or -1. */
  int slotOf(byte[] b, int off, int len) {
    int h = hash(b, off, len);
    int slot = h & mask;
    for (long s = slots[slot]; s != 0; s = slots[slot]) {
      if ((int) (s >>> 32) == h && KeyBytes.equal(b, off, len, (String) entries[2 * entry(s)])) {
        return slot;
      }
      slot = (slot + 1) & mask;
    }
    return -1;
  }

  /** The key in occupied {@code slot}. */
  String keyAt(int slot) {
    return (String) entries[2 * entry(slots[slot])];
  }

  /** Removes the entry in occupied {@code slot} (from {@link #slotOf(byte[], int, int)}); returns its value. */
  V removeSlot(int slot) {
    int e = entry(slots[slot]);
    @SuppressWarnings("unchecked")
    V previous = (V) entries[2 * e + 1];
    entries[2 * e] = null;
    entries[2 * e + 1] = null;
    if (freeCount == free.length) {
      free = Arrays.copyOf(free, Math.max(16, free.length * 2));
    }
    free[freeCount++] = e;
    size--;
    int gap = slot;
    int j = slot;
    while (true) {
      j = (j + 1) & mask;
      long s = slots[j];
      if (s == 0) {
        break;
      }
      int home = (int) (s >>> 32) & mask;
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

  /** Drops every entry and the arrays' growth. */
  void clear() {
    entries = new Object[2 * INITIAL_ENTRIES];
    slots = new long[2 * INITIAL_ENTRIES];
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
        while (i < used && entries[2 * i] == null) {
          i++;
        }
        return i;
      }

      @Override
      public boolean hasNext() {
        return e < used;
      }

      @Override
      @SuppressWarnings("unchecked")
      public Map.Entry<String, V> next() {
        if (e >= used) {
          throw new NoSuchElementException();
        }
        Map.Entry<String, V> entry = Map.entry((String) entries[2 * e], (V) entries[2 * e + 1]);
        e = advance(e + 1);
        return entry;
      }
    };
  }

  private static int entry(long slot) {
    return (int) slot - 1;
  }

  @SuppressWarnings("unchecked")
  private V valueIn(int slot) {
    return (V) entries[2 * entry(slots[slot]) + 1];
  }

  /** The slot holding {@code key}, or -1. */
  private int slotOf(String key, int h) {
    int slot = h & mask;
    for (long s = slots[slot]; s != 0; s = slots[slot]) {
      if ((int) (s >>> 32) == h && key.equals(entries[2 * entry(s)])) {
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
      if (2 * used == entries.length) {
        entries = Arrays.copyOf(entries, entries.length * 2);
      }
      e = used++;
    }
    entries[2 * e] = key;
    entries[2 * e + 1] = value;
    int slot = h & mask;
    while (slots[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    slots[slot] = (long) h << 32 | (e + 1);
    size++;
  }

  private void rehash(int capacity) {
    long[] fresh = new long[capacity];
    int m = capacity - 1;
    for (long s : slots) {
      if (s != 0) {
        int slot = (int) (s >>> 32) & m;
        while (fresh[slot] != 0) {
          slot = (slot + 1) & m;
        }
        fresh[slot] = s;
      }
    }
    slots = fresh;
    mask = m;
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
