package dev.sluice.internal.table;

import dev.sluice.internal.error.Errors;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/** Java Properties text in a fixed key order (Properties itself is a hash table). */
final class PropertiesText {
  private PropertiesText() {
  }

  /** Formats the entries as {@code Properties.store} does (ISO-8859-1, escapes), keys in map order. */
  static byte[] format(Map<String, String> props, String comment) {
    StringBuilder sb = new StringBuilder();
    if (comment != null) {
      sb.append('#').append(comment).append('\n');
    }
    sb.append('#').append(new Date()).append('\n');
    for (Map.Entry<String, String> e : props.entrySet()) {
      sb.append(escapedLine(e.getKey(), e.getValue())).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String escapedLine(String key, String value) {
    // let Properties do the escaping of one entry, then drop its date comment
    Properties one = new Properties();
    one.setProperty(key, value);
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try {
      one.store(bos, null);
    } catch (IOException e) {
      throw Errors.internal("formatting a property in memory failed", e);
    }
    String text = bos.toString(StandardCharsets.ISO_8859_1);
    for (String line : text.split("\r?\n")) {
      if (!line.startsWith("#") && !line.isEmpty()) {
        return line;
      }
    }
    throw Errors.internal("Properties.store wrote no line for key " + key, null);
  }

  /** Parses Properties text, keeping the file's key order. */
  static Map<String, String> parse(byte[] bytes) {
    Map<String, String> ordered = new LinkedHashMap<>();
    Properties p = new Properties() {
      private static final long serialVersionUID = 1L;

      @Override
      public synchronized Object put(Object key, Object value) {
        ordered.put((String) key, (String) value);
        return super.put(key, value);
      }
    };
    try {
      p.load(new ByteArrayInputStream(bytes));
    } catch (IOException | IllegalArgumentException e) {
      return Map.of();
    }
    return ordered;
  }
}
