package dev.sluice.internal.hfile;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One cell of an HFile as Hudi uses it: the row (the UTF-8 record key) and the value bytes.
 *
 * @param key the row bytes
 * @param value the value bytes
 */
public record HFileCell(byte[] key, byte[] value) {
  /** The key as a string (Hudi's keys are UTF-8). */
  public String keyString() {
    return new String(key, StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HFileCell c && Arrays.equals(c.key, key) && Arrays.equals(c.value, value);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "HFileCell{" + keyString() + ", " + value.length + " bytes}";
  }
}
