package dev.sluice.internal.bloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The two 32-bit hashes of Hadoop's bloom filters, which Hudi's filters use: Murmur (type 1, what writers use) and
 * Jenkins lookup3 (type 0, only in old filters). Both are pure functions over a byte array.
 */
final class KeyHash {
  /** Hash type code of Jenkins' lookup3 hash. */
  static final int JENKINS = 0;
  /** Hash type code of Murmur hash. */
  static final int MURMUR = 1;

  private static final int M = 0x5bd1e995;
  private static final int R = 24;
  private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private KeyHash() {
  }

  /** The hash of type {@code type} of {@code data} with {@code seed}. */
  static int hash(int type, byte[] data, int seed) {
    return type == MURMUR ? murmur(data, seed) : jenkins(data, seed);
  }

  /**
   * Murmur hash 2 (32-bit) as Hadoop computes it: four-byte little-endian chunks, then the 1-3 tail bytes XORed in
   * sign-extended (Java bytes), which differs from the C original for tail bytes of 0x80 and above.
   */
  static int murmur(byte[] data, int seed) {
    int length = data.length;
    int h = seed ^ length;
    int chunks = length >> 2;
    for (int i = 0; i < chunks; i++) {
      int o = i << 2;
      int k = (data[o] & 0xff) | (data[o + 1] & 0xff) << 8 | (data[o + 2] & 0xff) << 16 | data[o + 3] << 24;
      k *= M;
      k ^= k >>> R;
      k *= M;
      h *= M;
      h ^= k;
    }
    int tail = length & 3;
    if (tail != 0) {
      if (tail == 3) {
        h ^= data[length - 3] << 16;
      }
      if (tail >= 2) {
        h ^= data[length - 2] << 8;
      }
      h ^= data[length - 1];
      h *= M;
    }
    h ^= h >>> 13;
    h *= M;
    h ^= h >>> 15;
    return h;
  }

  /**
   * Replaces each whole four-byte chunk of {@code data} by its mixed value ({@code k *= m; k ^= k >>> r; k *= m},
   * stored little-endian); the 1-3 tail bytes stay. Murmur's chunk mixing does not depend on the seed, so a key
   * hashed with many seeds (as bloom filters do) is mixed once and then hashed with {@link #murmurMixed}.
   */
  static void mixInPlace(byte[] data) {
    int end = data.length & ~3;
    for (int o = 0; o < end; o += 4) {
      int k = (int) INT_LE.get(data, o);
      k *= M;
      k ^= k >>> R;
      k *= M;
      INT_LE.set(data, o, k);
    }
  }

  /** {@link #murmur} of the original bytes, given the output of {@link #mixInPlace}. */
  static int murmurMixed(byte[] mixed, int seed) {
    int length = mixed.length;
    int h = seed ^ length;
    int end = length & ~3;
    for (int o = 0; o < end; o += 4) {
      h *= M;
      h ^= (int) INT_LE.get(mixed, o);
    }
    int tail = length & 3;
    if (tail != 0) {
      if (tail == 3) {
        h ^= mixed[length - 3] << 16;
      }
      if (tail >= 2) {
        h ^= mixed[length - 2] << 8;
      }
      h ^= mixed[length - 1];
      h *= M;
    }
    h ^= h >>> 13;
    h *= M;
    h ^= h >>> 15;
    return h;
  }

  /** Bob Jenkins' lookup3 {@code hashlittle} (32-bit, little-endian reads), as Hadoop's JenkinsHash. */
  static int jenkins(byte[] key, int seed) {
    int length = key.length;
    int a = 0xdeadbeef + length + seed;
    int b = a;
    int c = a;
    int off = 0;
    int left = length;
    while (left > 12) {
      a += le32(key, off);
      b += le32(key, off + 4);
      c += le32(key, off + 8);
      // mix(a, b, c)
      a -= c;
      a ^= Integer.rotateLeft(c, 4);
      c += b;
      b -= a;
      b ^= Integer.rotateLeft(a, 6);
      a += c;
      c -= b;
      c ^= Integer.rotateLeft(b, 8);
      b += a;
      a -= c;
      a ^= Integer.rotateLeft(c, 16);
      c += b;
      b -= a;
      b ^= Integer.rotateLeft(a, 19);
      a += c;
      c -= b;
      c ^= Integer.rotateLeft(b, 4);
      b += a;
      off += 12;
      left -= 12;
    }
    if (left == 0) {
      return c;
    }
    // the last 1-12 bytes, zero-padded, go into a, b, c
    a += partial(key, off, Math.min(left, 4));
    if (left > 4) {
      b += partial(key, off + 4, Math.min(left - 4, 4));
    }
    if (left > 8) {
      c += partial(key, off + 8, left - 8);
    }
    // final(a, b, c)
    c ^= b;
    c -= Integer.rotateLeft(b, 14);
    a ^= c;
    a -= Integer.rotateLeft(c, 11);
    b ^= a;
    b -= Integer.rotateLeft(a, 25);
    c ^= b;
    c -= Integer.rotateLeft(b, 16);
    a ^= c;
    a -= Integer.rotateLeft(c, 4);
    b ^= a;
    b -= Integer.rotateLeft(a, 14);
    c ^= b;
    c -= Integer.rotateLeft(b, 24);
    return c;
  }

  private static int le32(byte[] d, int o) {
    return (d[o] & 0xff) | (d[o + 1] & 0xff) << 8 | (d[o + 2] & 0xff) << 16 | (d[o + 3] & 0xff) << 24;
  }

  /** Up to four bytes little-endian, unsigned, missing high bytes zero. */
  private static int partial(byte[] d, int o, int n) {
    int v = 0;
    for (int i = 0; i < n; i++) {
      v |= (d[o + i] & 0xff) << (8 * i);
    }
    return v;
  }
}
