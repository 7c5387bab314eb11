package dev.sluice.internal.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class KeyHashTest {
  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] bytes(int... v) {
    byte[] b = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = (byte) v[i];
    }
    return b;
  }

  /**
   * Expected values were computed with a separate Python transcription of the format reference (section 6.3),
   * using unbounded integers masked to 32 bits and explicit sign extension of the tail bytes.
   */
  @Test
  void murmurMatchesIndependentlyComputedValues() {
    assertEquals(-1838653602, KeyHash.murmur(utf8("a"), 0));
    assertEquals(1525573013, KeyHash.murmur(utf8("ab"), 0));
    assertEquals(1775488903, KeyHash.murmur(utf8("abc"), 0));
    assertEquals(646393889, KeyHash.murmur(utf8("abcd"), 0));
    assertEquals(-819417985, KeyHash.murmur(utf8("key-12345"), 7));
    assertEquals(659168028, KeyHash.murmur(utf8("日本"), 0));
  }

  @Test
  void murmurSignExtendsNonAsciiTailBytes() {
    assertEquals(-384040333, KeyHash.murmur(utf8("é"), 0)); // 2-byte tail c3 a9
    assertEquals(-1486029997, KeyHash.murmur(utf8("€"), 0)); // 3-byte tail e2 82 ac
    assertEquals(-1725167783, KeyHash.murmur(bytes(0xff), 0));
    assertEquals(2125356291, KeyHash.murmur(bytes(0x80, 0x7f), -1));
    assertEquals(-1642414035, KeyHash.murmur(bytes(0x01, 0x80, 0xfe), 123456789));
  }

  /** A second, differently written transcription of the spec: long arithmetic, ByteBuffer chunk reads. */
  private static int referenceMurmur(byte[] data, int seed) {
    final long m = 0x5bd1e995L;
    final long mask = 0xffffffffL;
    long h = (seed ^ data.length) & mask;
    ByteBuffer buf = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    while (buf.remaining() >= 4) {
      long k = buf.getInt() & mask;
      k = (k * m) & mask;
      k ^= k >>> 24;
      k = (k * m) & mask;
      h = (h * m) & mask;
      h ^= k;
    }
    int left = buf.remaining();
    if (left > 0) {
      int n = data.length;
      for (int i = left; i >= 1; i--) {
        long signExtended = data[n - i];
        h ^= (signExtended << (8 * (i - 1))) & mask;
      }
      h = (h * m) & mask;
    }
    h ^= h >>> 13;
    h = (h * m) & mask;
    h ^= h >>> 15;
    return (int) h;
  }

  @Property(tries = 500, seed = "20261203")
  void murmurAgreesWithReferenceTranscription(@ForAll byte[] data, @ForAll int seed) {
    assertEquals(referenceMurmur(data, seed), KeyHash.murmur(data, seed));
  }

  @Property(tries = 500, seed = "20261203")
  void premixedMurmurEqualsMurmur(@ForAll byte[] data, @ForAll int seed) {
    byte[] mixed = data.clone();
    KeyHash.mixInPlace(mixed);
    assertEquals(KeyHash.murmur(data, seed), KeyHash.murmurMixed(mixed, seed));
  }

  /** Published test values of lookup3.c's hashlittle. */
  @Test
  void jenkinsMatchesLookup3TestVectors() {
    assertEquals(0xdeadbeef, KeyHash.jenkins(new byte[0], 0));
    assertEquals(0xbd5b7dde, KeyHash.jenkins(new byte[0], 0xdeadbeef));
    assertEquals(0x17770551, KeyHash.jenkins(utf8("Four score and seven years ago"), 0));
    assertEquals(0xcd628161, KeyHash.jenkins(utf8("Four score and seven years ago"), 1));
  }
}
