package dev.sluice.internal.read.expr;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.util.Utf8;

/**
 * A text literal with its UTF-8 bytes, so values read as Avro {@link Utf8} compare without decoding. Text
 * orders by Unicode code point, which is the unsigned byte order of UTF-8 that Parquet statistics use.
 */
final class TextValue implements Comparable<TextValue> {
  private final String text;
  private final byte[] utf8;

  TextValue(String text) {
    this.text = text;
    this.utf8 = text.getBytes(StandardCharsets.UTF_8);
  }

  String text() {
    return text;
  }

  /** Compares a record's text value (Utf8, String or other CharSequence) with this literal. */
  int compareValue(Object value) {
    if (value instanceof Utf8 u) {
      return Arrays.compareUnsigned(u.getBytes(), 0, u.getByteLength(), utf8, 0, utf8.length);
    }
    return compareCodePoints(value.toString(), text);
  }

  @Override
  public int compareTo(TextValue o) {
    return Arrays.compareUnsigned(utf8, o.utf8);
  }

  /** Code-point order of two strings (String.compareTo orders UTF-16 units, which differs above U+FFFF). */
  static int compareCodePoints(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char c1 = a.charAt(i);
      char c2 = b.charAt(i);
      if (c1 != c2) {
        if (c1 >= 0xD800 && c2 >= 0xD800) {
          // Surrogates (U+D800..U+DFFF) stand for code points above U+FFFF, so they sort after U+E000..U+FFFF.
          c1 = (char) (c1 < 0xE000 ? c1 + 0x2000 : c1 - 0x800);
          c2 = (char) (c2 < 0xE000 ? c2 + 0x2000 : c2 - 0x800);
        }
        return Integer.compare(c1, c2);
      }
    }
    return Integer.compare(a.length(), b.length());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TextValue t && t.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}
