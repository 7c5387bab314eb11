package dev.sluice.internal.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class BloomFiltersTest {
  private static final int N = 60_000;
  private static final double FPP = 0.000000001;
  private static final int BITS = 2_587_966;

  private static byte[] decode(BloomFilter f) {
    return Base64.getDecoder().decode(f.serialize());
  }

  private static String hex(byte[] b, int from, int to) {
    return HexFormat.of().withUpperCase().formatHex(Arrays.copyOfRange(b, from, to));
  }

  @Test
  void sizingMatchesHudiDefaults() {
    assertEquals(BITS, BloomFilters.bitSize(N, FPP));
    assertEquals(30, BloomFilters.numHashes(BITS, N));
  }

  @Test
  void dynamicFilterStartsWithObservedHudiPrefix() {
    BloomFilter f = BloomFilters.create(BloomFilterType.DYNAMIC_V0, N, FPP, 100_000);
    f.add("k1");
    f.add("k2");
    byte[] b = decode(f);
    // observed in a Hudi 0.15 base file with two records (format reference section 6.3)
    assertEquals("FFFFFFFF" + "0000001E" + "01" + "00277D3E" + "0000EA60" + "00000002" + "00000001"
        + "FFFFFFFF" + "0000001E" + "01" + "00277D3E", hex(b, 0, 38));
    assertEquals(13 + 12 + 13 + (BITS + 7) / 8, b.length);
    assertEquals(BloomFilterType.DYNAMIC_V0, f.type());
  }

  @Test
  void simpleFilterHeaderAndSize() {
    BloomFilter f = BloomFilters.create(BloomFilterType.SIMPLE, N, FPP, 0);
    byte[] b = decode(f);
    assertEquals("FFFFFFFF0000001E0100277D3E", hex(b, 0, 13));
    assertEquals(13 + (BITS + 7) / 8, b.length);
    for (int i = 13; i < b.length; i++) {
      assertEquals(0, b[i]);
    }
  }

  /**
   * Bit positions of "key1" with 30 Murmur hashes over 2587966 bits, computed with a separate Python transcription
   * of section 6.3: {@code seed = murmur(bytes, seed); pos = abs(seed % bits)}.
   */
  @Test
  void keySetsExactlyTheSpecifiedBitsLsbFirst() {
    List<Integer> positions = List.of(206483, 672710, 2383509, 1486808, 2434692, 1284694, 1084021, 1792746,
        2586343, 468127, 619895, 1958833, 2507890, 2474902, 2508064, 1675980, 1742098, 1927482, 791040, 2414740,
        480661, 2337356, 2261190, 486858, 517304, 2569437, 1993614, 2090430, 560708, 2587424);
    BloomFilter f = BloomFilters.create(BloomFilterType.SIMPLE, N, FPP, 0);
    f.add("key1");
    byte[] b = decode(f);
    TreeSet<Integer> set = new TreeSet<>();
    for (int i = 13; i < b.length; i++) {
      for (int bit = 0; bit < 8; bit++) {
        if ((b[i] & (1 << bit)) != 0) {
          set.add((i - 13) * 8 + bit);
        }
      }
    }
    assertEquals(new TreeSet<>(positions), set);
  }

  @Test
  void noFalseNegativesAndFalsePositiveRateNearTarget() {
    int n = 100_000;
    for (BloomFilterType type : BloomFilterType.values()) {
      BloomFilter f = BloomFilters.create(type, n, 0.01, n);
      for (int i = 0; i < n; i++) {
        f.add("uuid-" + i + "-" + (i * 7919L));
      }
      for (int i = 0; i < n; i++) {
        assertTrue(f.mightContain("uuid-" + i + "-" + (i * 7919L)), type + " lost key " + i);
      }
      int fp = 0;
      for (int i = 0; i < n; i++) {
        if (f.mightContain("other-" + i)) {
          fp++;
        }
      }
      double rate = fp / (double) n;
      assertTrue(rate > 0.002 && rate < 0.02, type + " false positive rate " + rate);
    }
  }

  @Test
  void dynamicFilterAddsRowsThenGoesRoundRobin() {
    DynamicBloomFilter f = (DynamicBloomFilter) BloomFilters.create(BloomFilterType.DYNAMIC_V0, 10, 1e-6, 30);
    for (int i = 0; i < 10; i++) {
      f.add("a" + i);
    }
    assertEquals(1, f.rowCount());
    assertEquals(10, f.keysInCurrentRow());
    f.add("b0");
    assertEquals(2, f.rowCount());
    assertEquals(1, f.keysInCurrentRow());
    assertTrue(f.row(1).mightContain(bytes("b0")));
    assertFalse(f.row(0).mightContain(bytes("b0")));
    for (int i = 1; i < 20; i++) {
      f.add("b" + i);
    }
    assertEquals(3, f.rowCount());
    assertEquals(10, f.keysInCurrentRow());
    // full (3 rows x 10 >= 30): Hudi's filter sends the first key after full to row 0, then cycles from row 0
    int[] expectedRows = {0, 0, 1, 2, 0, 1, 2};
    for (int i = 0; i < expectedRows.length; i++) {
      String key = "c" + i;
      f.add(key);
      assertEquals(3, f.rowCount());
      for (int r = 0; r < 3; r++) {
        assertEquals(r == expectedRows[i], f.row(r).mightContain(bytes(key)), key + " in row " + r);
      }
    }
    for (int i = 0; i < 10; i++) {
      assertTrue(f.mightContain("a" + i));
    }
    for (int i = 0; i < 20; i++) {
      assertTrue(f.mightContain("b" + i));
    }
    for (int i = 0; i < expectedRows.length; i++) {
      assertTrue(f.mightContain("c" + i));
    }
    assertFalse(f.mightContain("never-added"));
  }

  @Test
  void dynamicFilterSerializesEveryRow() {
    BloomFilter f = BloomFilters.create(BloomFilterType.DYNAMIC_V0, 10, 0.001, 25);
    for (int i = 0; i < 23; i++) {
      f.add("k" + i);
    }
    ByteBuffer b = ByteBuffer.wrap(decode(f));
    assertEquals(-1, b.getInt());
    int hashes = b.getInt();
    assertEquals(1, b.get());
    int bits = b.getInt();
    assertEquals(10, b.getInt());
    assertEquals(3, b.getInt());
    assertEquals(3, b.getInt());
    for (int r = 0; r < 3; r++) {
      assertEquals(-1, b.getInt());
      assertEquals(hashes, b.getInt());
      assertEquals(1, b.get());
      assertEquals(bits, b.getInt());
      b.position(b.position() + (bits + 7) / 8);
    }
    assertEquals(0, b.remaining());
  }

  @Test
  void roundTripsBothTypes() {
    for (BloomFilterType type : BloomFilterType.values()) {
      BloomFilter f = BloomFilters.create(type, 1000, 0.0001, 3000);
      for (int i = 0; i < 2500; i++) {
        f.add("rk_" + i + "_ü");
      }
      String s = f.serialize();
      BloomFilter back = BloomFilters.deserialize(s, type);
      assertEquals(type, back.type());
      assertEquals(s, back.serialize());
      for (int i = 0; i < 2500; i++) {
        assertTrue(back.mightContain("rk_" + i + "_ü"));
      }
      int agree = 0;
      for (int i = 0; i < 2000; i++) {
        if (f.mightContain("x" + i) == back.mightContain("x" + i)) {
          agree++;
        }
      }
      assertEquals(2000, agree);
    }
  }

  @Test
  void readsLegacyHeaderWithJenkinsHash() {
    int bits = 64;
    ByteBuffer full = ByteBuffer.allocate(8 + 8);
    full.putInt(5).putInt(bits);
    full.put(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1});
    BloomFilter f = BloomFilters.deserialize(Base64.getEncoder().encodeToString(full.array()), BloomFilterType.SIMPLE);
    assertTrue(f.mightContain("anything"));
    byte[] re = decode(f);
    // re-serialized in the current format, keeping hash count and the Jenkins hash type
    assertEquals("FFFFFFFF000000050000000040", hex(re, 0, 13));

    ByteBuffer empty = ByteBuffer.allocate(8 + 8);
    empty.putInt(5).putInt(bits);
    BloomFilter e = BloomFilters.deserialize(Base64.getEncoder().encodeToString(empty.array()), BloomFilterType.SIMPLE);
    assertFalse(e.mightContain("anything"));
    e.add("anything");
    assertTrue(e.mightContain("anything"));
  }

  @Test
  void rejectsDamagedOrEmptyInput() {
    BloomFilter f = BloomFilters.create(BloomFilterType.SIMPLE, 100, 0.01, 0);
    String s = f.serialize();
    byte[] raw = Base64.getDecoder().decode(s);
    String truncated = Base64.getEncoder().encodeToString(Arrays.copyOf(raw, raw.length - 3));
    assertThrows(IllegalArgumentException.class, () -> BloomFilters.deserialize(truncated, BloomFilterType.SIMPLE));
    assertThrows(IllegalArgumentException.class, () -> BloomFilters.deserialize("not base64!", BloomFilterType.SIMPLE));
    byte[] badVersion = raw.clone();
    badVersion[3] = -2;
    assertThrows(IllegalArgumentException.class, () -> BloomFilters.deserialize(
        Base64.getEncoder().encodeToString(badVersion), BloomFilterType.SIMPLE));
    assertThrows(IllegalArgumentException.class, () -> BloomFilters.deserialize(s, BloomFilterType.DYNAMIC_V0));
    assertThrows(IllegalArgumentException.class, () -> f.add(""));
    assertThrows(IllegalArgumentException.class, () -> BloomFilters.create(BloomFilterType.SIMPLE, 0, 0.01, 0));
    assertThrows(IllegalArgumentException.class, () -> BloomFilters.create(BloomFilterType.SIMPLE, 10, 1.5, 0));
  }

  @Test
  void typeNames() {
    assertEquals(BloomFilterType.DYNAMIC_V0, BloomFilterType.fromName("dynamic_v0"));
    assertEquals(BloomFilterType.SIMPLE, BloomFilterType.fromName(" SIMPLE "));
    assertThrows(IllegalArgumentException.class, () -> BloomFilterType.fromName("BLOCKED"));
    assertTrue(BloomFilterType.DYNAMIC_V0.writesTypeCode());
    assertFalse(BloomFilterType.SIMPLE.writesTypeCode());
  }

  @Test
  void emptyRowsAreNotContained() {
    BloomFilter f = BloomFilters.create(BloomFilterType.DYNAMIC_V0, 5, 0.001, 20);
    assertFalse(f.mightContain("x"));
    assertArrayEquals(decode(f), decode(BloomFilters.deserialize(f.serialize(), BloomFilterType.DYNAMIC_V0)));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
