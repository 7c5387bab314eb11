package dev.sluice.internal.spill;

import java.util.Arrays;

/**
 * The in-memory index of spilled entries: an open-addressing hash table (linear probing) of two parallel
 * arrays, a 32-bit key fingerprint and a packed {@code offset << 24 | length} location in the spill file.
 *
 * <p>Keys themselves are not held: a lookup visits every slot of the probe run whose fingerprint matches and
 * the caller verifies the key against the bytes on disk. A zero fingerprint marks an empty slot, so probing
 * reads only the fingerprint array. That costs 12 bytes per slot (16–32 bytes per entry
 * between resizes) instead of the ~150 bytes per entry a {@code HashMap<String, Location>} costs, and a
 * resize rehashes from the stored fingerprints without touching the disk. Deletion shifts the following run
 * back (no tombstones), so lookups never slow down after removals.
 *
 * <p>A length of {@link #LENGTH_ESCAPE} or more is stored as {@link #LENGTH_ESCAPE}; the reader then takes
 * the length from the record header. Offsets are limited to 2<sup>40</sup> (1 TiB per spill file).
 */
final class SpillIndex {
  static final int LENGTH_ESCAPE = (1 << 24) - 1;
  static final long MAX_OFFSET = (1L << 40) - 1;
  private static final int INITIAL_CAPACITY = 1 << 10;

  private int[] fingerprints = new int[INITIAL_CAPACITY];
  private long[] locations = new long[INITIAL_CAPACITY];
  private int mask = INITIAL_CAPACITY - 1;
  private int size;
  private int resizeAt = INITIAL_CAPACITY / 4 * 3;

  /** A well-mixed 32-bit fingerprint of a key; uses the key's cached {@code hashCode}, so it is nearly free. */
  static int fingerprint(String key) {
    int h = key.hashCode();
    // murmur3's 32-bit finalizer: spreads String.hashCode's weak low bits over the whole word.
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    // Zero marks an empty slot.
    return h != 0 ? h : 1;
  }

  static long pack(long offset, int length) {
    return offset << 24 | Math.min(length, LENGTH_ESCAPE);
  }

  static long offsetOf(long location) {
    return location >>> 24;
  }

  /** The record length, or {@link #LENGTH_ESCAPE} when it must be read from the record header. */
  static int lengthOf(long location) {
    return (int) (location & LENGTH_ESCAPE);
  }

  int size() {
    return size;
  }

  /** The first slot of {@code fp}'s probe run holding {@code fp}, or -1. */
  int first(int fp) {
    return scan(fp, fp & mask);
  }

  /** The next slot after {@code slot} in {@code fp}'s probe run holding {@code fp}, or -1. */
  int next(int fp, int slot) {
    return scan(fp, (slot + 1) & mask);
  }

  private int scan(int fp, int from) {
    // Probes touch only the fingerprint array (16 slots per cache line); locations are read on a match.
    for (int i = from;; i = (i + 1) & mask) {
      int f = fingerprints[i];
      if (f == fp) {
        return i;
      }
      if (f == 0) {
        return -1;
      }
    }
  }

  /** The slot of the entry stored at {@code offset} among those with fingerprint {@code fp}, or -1. */
  int slotAt(int fp, long offset) {
    for (int s = first(fp); s >= 0; s = next(fp, s)) {
      if (offsetOf(locations[s]) == offset) {
        return s;
      }
    }
    return -1;
  }

  long location(int slot) {
    return locations[slot];
  }

  void setLocation(int slot, long location) {
    locations[slot] = location;
  }

  /** Adds an entry for a key the caller has verified is absent; {@code fp} is non-zero. */
  void add(int fp, long location) {
    if (fp == 0 || location == 0) {
      throw new IllegalArgumentException("Zero fingerprint or location marks an empty slot");
    }
    if (size >= resizeAt) {
      grow();
    }
    int i = fp & mask;
    while (fingerprints[i] != 0) {
      i = (i + 1) & mask;
    }
    fingerprints[i] = fp;
    locations[i] = location;
    size++;
  }

  /** Removes the entry in {@code slot}, shifting later members of the run back into the gap. */
  void removeAt(int slot) {
    int gap = slot;
    for (int j = (slot + 1) & mask; fingerprints[j] != 0; j = (j + 1) & mask) {
      int home = fingerprints[j] & mask;
      // The entry at j may fill the gap only if its home is not cyclically within (gap, j].
      boolean homeInRange = gap <= j ? gap < home && home <= j : gap < home || home <= j;
      if (!homeInRange) {
        fingerprints[gap] = fingerprints[j];
        locations[gap] = locations[j];
        gap = j;
      }
    }
    fingerprints[gap] = 0;
    locations[gap] = 0;
    size--;
  }

  /** Removes every entry, keeping the arrays. */
  void clear() {
    Arrays.fill(fingerprints, 0);
    Arrays.fill(locations, 0);
    size = 0;
  }

  /** Bytes of heap the arrays take. */
  long heapBytes() {
    return 2L * 16 + 12L * locations.length;
  }

  private void grow() {
    int[] oldFps = fingerprints;
    long[] oldLocs = locations;
    int capacity = oldLocs.length * 2;
    if (capacity <= 0) {
      throw new IllegalStateException("Spill index cannot grow beyond " + oldLocs.length + " slots");
    }
    fingerprints = new int[capacity];
    locations = new long[capacity];
    mask = capacity - 1;
    resizeAt = (int) (capacity * 0.75);
    for (int i = 0; i < oldLocs.length; i++) {
      if (oldFps[i] != 0) {
        int j = oldFps[i] & mask;
        while (fingerprints[j] != 0) {
          j = (j + 1) & mask;
        }
        fingerprints[j] = oldFps[i];
        locations[j] = oldLocs[i];
      }
    }
  }
}
