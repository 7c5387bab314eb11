package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints rows (JSON objects) as a text table: one column per field, headed by the field name (so {@code --sort}
 * takes what the header shows), numbers right-aligned, text left-aligned, absent values as {@code -}.
 */
final class TextTable {
  private TextTable() {
  }

  static void print(PrintWriter out, List<String> columns, List<ObjectNode> rows) {
    List<String[]> cells = new ArrayList<>();
    int[] width = new int[columns.size()];
    boolean[] numeric = new boolean[columns.size()];
    for (int c = 0; c < columns.size(); c++) {
      width[c] = columns.get(c).length();
      numeric[c] = !rows.isEmpty();
    }
    for (ObjectNode row : rows) {
      String[] line = new String[columns.size()];
      for (int c = 0; c < columns.size(); c++) {
        JsonNode v = row.get(columns.get(c));
        line[c] = text(v);
        width[c] = Math.max(width[c], line[c].length());
        numeric[c] &= v == null || v.isNull() || v.isNumber();
      }
      cells.add(line);
    }
    out.println(line(columns.toArray(new String[0]), width, numeric));
    for (String[] line : cells) {
      out.println(line(line, width, numeric));
    }
  }

  private static String line(String[] cells, int[] width, boolean[] numeric) {
    StringBuilder sb = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      if (c > 0) {
        sb.append("  ");
      }
      boolean last = c == cells.length - 1;
      if (numeric[c]) {
        sb.append(" ".repeat(width[c] - cells[c].length())).append(cells[c]);
      } else {
        sb.append(cells[c]).append(last ? "" : " ".repeat(width[c] - cells[c].length()));
      }
    }
    return sb.toString().stripTrailing();
  }

  /** A cell: numbers and text as they are, a file as {@code name (size)}, arrays joined by commas, null as {@code -}. */
  static String text(JsonNode v) {
    if (v == null || v.isNull()) {
      return "-";
    }
    if (v.isArray()) {
      List<String> parts = new ArrayList<>();
      v.forEach(x -> parts.add(text(x)));
      return parts.isEmpty() ? "-" : String.join(",", parts);
    }
    if (v.isObject() && v.has("name") && v.has("size") && v.size() == 2) {
      // a file with its size (fsview's log files)
      return v.get("name").asText() + " (" + v.get("size").asText() + ")";
    }
    if (v.isTextual() && v.asText().isEmpty()) {
      return "\"\"";
    }
    return v.isValueNode() ? v.asText() : v.toString();
  }
}
