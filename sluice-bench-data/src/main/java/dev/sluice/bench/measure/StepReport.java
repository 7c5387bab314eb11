package dev.sluice.bench.measure;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One measured step as one line on stdout: {@value #PREFIX} followed by a flat JSON object. Both engines' workers
 * print it with this class, so the driver reads the same fields from both.
 */
public final class StepReport {
  /** Marks result lines among whatever else a library prints. */
  public static final String PREFIX = "BENCH ";

  private final Map<String, Object> fields = new LinkedHashMap<>();

  /** A report for the measurement {@code label} (e.g. {@code W2-cow}). */
  public StepReport(String label) {
    fields.put("label", label);
  }

  /** Adds a number or a string field. */
  public StepReport put(String name, Object value) {
    fields.put(name, value);
    return this;
  }

  /** Adds the heap meter's peaks (bytes) and collection count. */
  public StepReport heap(HeapMeter meter) {
    fields.put("peak_heap", meter.peakUsed());
    fields.put("peak_live", meter.peakLive());
    fields.put("gcs", meter.collections());
    return this;
  }

  /** Adds what a step wrote. */
  public StepReport written(DirSnapshot.Written w) {
    fields.put("bytes", w.dataBytes());
    fields.put("meta_bytes", w.metaBytes());
    fields.put("base_files", w.baseFiles());
    fields.put("log_files", w.logFiles());
    return this;
  }

  /** The line, without a newline. */
  public String line() {
    StringBuilder b = new StringBuilder(PREFIX).append('{');
    boolean first = true;
    for (Map.Entry<String, Object> e : fields.entrySet()) {
      if (!first) {
        b.append(", ");
      }
      first = false;
      quote(b, e.getKey());
      b.append(": ");
      Object v = e.getValue();
      if (v == null) {
        b.append("null");
      } else if (v instanceof Double || v instanceof Float) {
        b.append(String.format(Locale.ROOT, "%.6f", ((Number) v).doubleValue()));
      } else if (v instanceof Number || v instanceof Boolean) {
        b.append(v);
      } else {
        quote(b, v.toString());
      }
    }
    return b.append('}').toString();
  }

  private static void quote(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    b.append('"');
  }
}
