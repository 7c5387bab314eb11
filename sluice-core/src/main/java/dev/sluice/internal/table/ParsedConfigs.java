package dev.sluice.internal.table;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code hoodie.properties} texts parsed once per process. A write reads the data table's and the metadata table's
 * config a dozen times (the write, its timeline, the metadata table's services and mirror), and parsing the
 * Properties text each time was the larger part of what those reads cost a commit (profile of a Merge-on-Read upsert
 * with the metadata table, docs/benchmarks.md). Keyed by the exact bytes read, never by path or modification time:
 * a config rewritten within the same millisecond with the same length (a version number changed) is still seen.
 */
final class ParsedConfigs {
  /** Bounded: a process opening many tables starts over rather than growing without limit. */
  private static final int MAX_ENTRIES = 256;
  private static final Map<Text, Map<String, String>> BY_TEXT = new LinkedHashMap<>();

  private ParsedConfigs() {
  }

  /** The properties of {@code bytes} in file order (unmodifiable; empty if the text is not Properties text). */
  static Map<String, String> parse(byte[] bytes) {
    Text key = new Text(bytes);
    synchronized (BY_TEXT) {
      Map<String, String> known = BY_TEXT.get(key);
      if (known != null) {
        return known;
      }
    }
    Map<String, String> parsed = Collections.unmodifiableMap(PropertiesText.parse(bytes));
    synchronized (BY_TEXT) {
      if (BY_TEXT.size() >= MAX_ENTRIES) {
        BY_TEXT.clear();
      }
      BY_TEXT.put(key, parsed);
    }
    return parsed;
  }

  /** File content compared by value; the caller's array is never changed after it was read. */
  private record Text(byte[] bytes) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Text t && Arrays.equals(bytes, t.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return bytes.length + " bytes";
    }
  }
}
