package dev.sluice.internal.read;

import dev.sluice.internal.key.KeyGenerator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Parses a partition path back into partition field values, for partition pruning. */
final class PartitionValues {
  private PartitionValues() {
  }

  /**
   * Field → value for {@code partitionPath}; hive-style segments name their field, plain ones are matched to
   * the partition fields in order. The default partition maps to null. Unparseable paths give an empty map
   * (the partition is then kept).
   */
  static Map<String, String> parse(String partitionPath, List<String> fields, boolean hiveStyle) {
    Map<String, String> out = new HashMap<>();
    if (partitionPath.isEmpty() || fields.isEmpty()) {
      return out;
    }
    String[] segments = partitionPath.split("/");
    if (hiveStyle) {
      for (String s : segments) {
        int eq = s.indexOf('=');
        if (eq > 0) {
          out.put(s.substring(0, eq), decode(s.substring(eq + 1)));
        }
      }
      return out;
    }
    if (segments.length != fields.size()) {
      return out;
    }
    for (int i = 0; i < segments.length; i++) {
      out.put(fields.get(i), decode(segments[i]));
    }
    return out;
  }

  private static String decode(String v) {
    return KeyGenerator.DEFAULT_PARTITION.equals(v) ? null : v;
  }
}
