package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class Utf8KeySetTest {
  /** Probes {@code probe} as a range in the middle of a larger array, as page bytes are. */
  private static int indexOf(Utf8KeySet set, String probe) {
    byte[] b = probe.getBytes(StandardCharsets.UTF_8);
    byte[] padded = new byte[b.length + 7];
    padded[0] = 'x';
    System.arraycopy(b, 0, padded, 3, b.length);
    padded[padded.length - 1] = 'y';
    return set.indexOf(padded, 3, 3 + b.length);
  }

  @Property(tries = 200, seed = "20261203")
  void findsExactlyTheKeysItHolds(@ForAll @Size(max = 300) List<@StringLength(max = 12) String> keys,
      @ForAll @Size(max = 100) List<@StringLength(max = 12) String> probes) {
    Utf8KeySet set = new Utf8KeySet(keys);
    List<String> distinct = new ArrayList<>(new LinkedHashSet<>(keys));
    assertEquals(distinct.size(), set.size());
    for (int i = 0; i < distinct.size(); i++) {
      assertEquals(distinct.get(i), set.key(i));
      assertEquals(i, indexOf(set, distinct.get(i)));
    }
    for (String p : probes) {
      assertEquals(distinct.indexOf(p), indexOf(set, p), p);
    }
  }

  @Test
  void prefixesEmptyAndMultiByteKeysAreDistinct() {
    Utf8KeySet set = new Utf8KeySet(List.of("", "a", "ab", "ab\u0000", "\u00e9", "e\u0301", "\ud83d\ude00"));
    assertEquals(7, set.size());
    assertEquals(0, indexOf(set, ""));
    assertEquals(2, indexOf(set, "ab"));
    assertEquals(3, indexOf(set, "ab\u0000"));
    assertEquals(4, indexOf(set, "\u00e9"));
    assertEquals(5, indexOf(set, "e\u0301"));
    assertEquals(6, indexOf(set, "\ud83d\ude00"));
    assertEquals(-1, indexOf(set, "abc"));
    assertEquals(-1, indexOf(set, "b"));
  }
}
