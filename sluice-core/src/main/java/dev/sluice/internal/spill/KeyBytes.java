package dev.sluice.internal.spill;

import dev.sluice.internal.error.Errors;
import java.nio.charset.StandardCharsets;

/** Record keys as UTF-8 in spill files: encoding with an ASCII fast path, and comparison without decoding. */
final class KeyBytes {
  private KeyBytes() {
  }

  /** Replaces {@code out}'s content with {@code key}'s UTF-8 bytes; rejects unpaired surrogates. */
  static void encode(String key, ByteSink out) {
    out.reset();
    int n = key.length();
    out.ensure(n);
    byte[] buf = out.array();
    for (int i = 0; i < n; i++) {
      char c = key.charAt(i);
      if (c >= 0x80) {
        encodeSlow(key, out);
        return;
      }
      buf[i] = (byte) c;
    }
    out.skip(n);
  }

  private static void encodeSlow(String key, ByteSink out) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      boolean paired = Character.isHighSurrogate(c) && i + 1 < key.length()
          && Character.isLowSurrogate(key.charAt(i + 1));
      if (Character.isSurrogate(c) && !paired) {
        // UTF-8 cannot carry it: the key would come back different, and two such keys could collide.
        throw Errors.badInput("record key \"" + key + "\"", null,
            "it has an unpaired surrogate at character " + i, "a valid Unicode string");
      }
      if (paired) {
        i++;
      }
    }
    out.reset();
    byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
    out.write(utf8, 0, utf8.length);
  }

  /** Whether UTF-8 {@code bytes[off, off + len)} spell {@code key}; ASCII keys compare without decoding. */
  static boolean equal(byte[] bytes, int off, int len, String key) {
    int n = key.length();
    if (len == n) {
      for (int i = 0; i < n; i++) {
        byte b = bytes[off + i];
        if (b < 0) {
          return new String(bytes, off, len, StandardCharsets.UTF_8).equals(key);
        }
        if (b != key.charAt(i)) {
          return false;
        }
      }
      return true;
    }
    // n chars take between n and 3n UTF-8 bytes.
    return len > n && len <= 3 * n && new String(bytes, off, len, StandardCharsets.UTF_8).equals(key);
  }
}
