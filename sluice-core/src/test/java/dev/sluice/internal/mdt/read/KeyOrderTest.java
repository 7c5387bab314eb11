package dev.sluice.internal.mdt.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The metadata table reader sorts keys in HFile order (unsigned UTF-8 bytes) without encoding them: the comparison
 * must agree with the bytes' order on every pair, above all where UTF-16 order does not (a surrogate pair against
 * a character from U+E000 up).
 */
class KeyOrderTest {
  private static int bytes(String a, String b) {
    return Integer.signum(Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void ordersAsUtf8BytesWhereUtf16OrderDiffers() {
    String astral = new String(Character.toChars(0x1F600));
    for (List<String> pair : List.of(List.of(astral, "\uFF21"), List.of("a" + astral, "a\uE000"), List.of("id-1", "id-10"),
        List.of("", "a"), List.of("\u00e9", "z"), List.of(astral, astral + "a"), List.of("\uD7FF", astral))) {
      String a = pair.get(0);
      String b = pair.get(1);
      assertEquals(bytes(a, b), Integer.signum(MetadataTableReader.compareUtf8(a, b)), a + " vs " + b);
      assertEquals(bytes(b, a), Integer.signum(MetadataTableReader.compareUtf8(b, a)), b + " vs " + a);
    }
    // UTF-16 order puts the astral character first; UTF-8 (and the comparator) after U+FF21
    assertEquals(1, Integer.signum(MetadataTableReader.compareUtf8(astral, "\uFF21")));
  }

  @Test
  void agreesWithTheBytesOnRandomKeys() {
    Random random = new Random(19);
    char[] alphabet = {'a', 'z', '0', '\u00e9', '\u07ff', '\u0800', '\uD7FF', '\uE000', '\uFFFF'};
    for (int i = 0; i < 20_000; i++) {
      String a = randomKey(random, alphabet);
      String b = randomKey(random, alphabet);
      assertEquals(bytes(a, b), Integer.signum(MetadataTableReader.compareUtf8(a, b)), a + " vs " + b);
    }
  }

  private static String randomKey(Random random, char[] alphabet) {
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      if (random.nextInt(5) == 0) {
        s.appendCodePoint(0x10000 + random.nextInt(0x100));
      } else {
        s.append(alphabet[random.nextInt(alphabet.length)]);
      }
    }
    return s.toString();
  }
}
