package dev.sluice.internal.basefile;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A fixed set of strings held as their UTF-8 bytes in an open-addressing table, probed with byte ranges: tagging
 * checks every key of a base file against the batch's candidates, and building a String (and its hash) for each of
 * a million file keys cost more than reading them. A probe allocates nothing.
 */
final class Utf8KeySet {
  private final String[] keys;
  private final byte[][] bytes;
  private final int[] hashes;
  /** Slot to key index + 1; 0 is an empty slot. */
  private final int[] slots;
  private final int mask;
  private int size;

  /** A set of the distinct {@code keys} (duplicates are held once, as their first occurrence). */
  Utf8KeySet(List<String> keys) {
    int n = keys.size();
    int capacity = Integer.highestOneBit(Math.max(4, n * 2 - 1)) << 1;
    this.slots = new int[capacity];
    this.mask = capacity - 1;
    this.keys = new String[n];
    this.bytes = new byte[n][];
    this.hashes = new int[n];
    for (String k : keys) {
      byte[] b = k.getBytes(StandardCharsets.UTF_8);
      int h = hash(b, 0, b.length);
      if (find(b, 0, b.length, h) >= 0) {
        continue;
      }
      this.keys[size] = k;
      this.bytes[size] = b;
      this.hashes[size] = h;
      int slot = h & mask;
      while (slots[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = ++size;
    }
  }

  /** How many distinct keys the set holds (their indexes are 0 to size - 1). */
  int size() {
    return size;
  }

  /** The index of the key equal to bytes {@code [from, to)} of {@code b}, or -1. */
  int indexOf(byte[] b, int from, int to) {
    return find(b, from, to, hash(b, from, to));
  }

  /** The key at {@code index} (as given, not decoded again). */
  String key(int index) {
    return keys[index];
  }

  private int find(byte[] b, int from, int to, int h) {
    int slot = h & mask;
    while (true) {
      int s = slots[slot];
      if (s == 0) {
        return -1;
      }
      int i = s - 1;
      byte[] k = bytes[i];
      if (hashes[i] == h && Arrays.equals(k, 0, k.length, b, from, to)) {
        return i;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** FNV-1a over the bytes with a final avalanche, so keys that share long prefixes still spread over slots. */
  static int hash(byte[] b, int from, int to) {
    int h = 0x811c9dc5;
    for (int i = from; i < to; i++) {
      h = (h ^ b[i]) * 0x01000193;
    }
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    return h;
  }
}
