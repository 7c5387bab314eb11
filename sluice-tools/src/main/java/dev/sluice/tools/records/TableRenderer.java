package dev.sluice.tools.records;

import dev.sluice.api.SluiceException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Renders records as an aligned text table for people ({@code --format table}): a header, a separator, one line
 * per row; numbers right-aligned; values in the same text as the JSON output (ISO timestamps, plain decimals),
 * nested values as JSON, {@code null} for nulls, control characters escaped, and cells longer than the maximum
 * width cut with {@code …}. The whole table is buffered to size the columns.
 */
public final class TableRenderer {
  /** The default maximum width of a cell, in characters. */
  public static final int DEFAULT_MAX_WIDTH = 40;

  private static final String NULL = "null";

  private final int maxWidth;

  /** A renderer cutting cells to {@code maxWidth} characters (at least 2). */
  public TableRenderer(int maxWidth) {
    if (maxWidth < 2) {
      throw SluiceException.badRequest("Render a table", "the maximum cell width must be at least 2, not " + maxWidth, null);
    }
    this.maxWidth = maxWidth;
  }

  /** A renderer with {@link #DEFAULT_MAX_WIDTH}. */
  public static TableRenderer withDefaults() {
    return new TableRenderer(DEFAULT_MAX_WIDTH);
  }

  /** The table of {@code rows} showing {@code columns} (top-level field names), as a string ending in a newline. */
  public String render(List<String> columns, List<? extends GenericRecord> rows) {
    StringBuilder sb = new StringBuilder();
    try {
      render(columns, rows.iterator(), sb);
    } catch (IOException e) {
      throw SluiceException.internal("appending to a StringBuilder failed", e);
    }
    return sb.toString();
  }

  /**
   * Writes the table of the remaining {@code rows} to {@code out}.
   *
   * @throws dev.sluice.api.SluiceException (BAD_CONFIG) when a column is not a field of a row
   */
  public void render(List<String> columns, Iterator<? extends GenericRecord> rows, Appendable out) throws IOException {
    int n = columns.size();
    List<String[]> cells = new ArrayList<>();
    boolean[] numeric = new boolean[n];
    Map<Schema, Column[]> bySchema = new IdentityHashMap<>();
    while (rows.hasNext()) {
      GenericRecord row = rows.next();
      Column[] cols = bySchema.computeIfAbsent(row.getSchema(), s -> columnsOf(s, columns));
      String[] line = new String[n];
      for (int i = 0; i < n; i++) {
        Object v = row.get(cols[i].pos);
        line[i] = v == null ? NULL : fit(cols[i].text.text(v));
        numeric[i] = cols[i].numeric;
      }
      cells.add(line);
    }
    int[] width = new int[n];
    String[] header = new String[n];
    for (int i = 0; i < n; i++) {
      header[i] = fit(columns.get(i));
      width[i] = length(header[i]);
    }
    for (String[] line : cells) {
      for (int i = 0; i < n; i++) {
        width[i] = Math.max(width[i], length(line[i]));
      }
    }
    line(out, header, width, numeric);
    StringBuilder sep = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sep.append("-+-");
      }
      sep.append("-".repeat(width[i]));
    }
    out.append(sep).append('\n');
    for (String[] line : cells) {
      line(out, line, width, numeric);
    }
  }

  /** A formatter that collects records and writes the table to {@code out} (UTF-8) when closed. */
  public RecordFormatter formatter(OutputStream out, List<String> columns) {
    List<GenericRecord> rows = new ArrayList<>();
    return new RecordFormatter() {
      @Override
      public void write(GenericRecord record) {
        rows.add(record);
      }

      @Override
      public void close() throws IOException {
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        render(columns, rows.iterator(), w);
        w.flush();
      }
    };
  }

  private static void line(Appendable out, String[] cells, int[] width, boolean[] numeric) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) {
        sb.append(" | ");
      }
      String pad = " ".repeat(width[i] - length(cells[i]));
      if (numeric[i]) {
        sb.append(pad).append(cells[i]);
      } else {
        sb.append(cells[i]).append(pad);
      }
    }
    int end = sb.length();
    while (end > 0 && sb.charAt(end - 1) == ' ') {
      end--;
    }
    sb.setLength(end);
    out.append(sb).append('\n');
  }

  /** Escapes control characters so the table stays aligned, and cuts the text to the maximum width. */
  private String fit(String text) {
    StringBuilder sb = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == 0x7F) {
        if (sb == null) {
          sb = new StringBuilder(text.length() + 8).append(text, 0, i);
        }
        switch (c) {
          case '\n':
            sb.append("\\n");
            break;
          case '\r':
            sb.append("\\r");
            break;
          case '\t':
            sb.append("\\t");
            break;
          default:
            sb.append(String.format("\\u%04x", (int) c));
        }
      } else if (sb != null) {
        sb.append(c);
      }
    }
    String clean = sb == null ? text : sb.toString();
    if (length(clean) <= maxWidth) {
      return clean;
    }
    int end = clean.offsetByCodePoints(0, maxWidth - 1);
    return clean.substring(0, end) + "…";
  }

  private static int length(String s) {
    return s.codePointCount(0, s.length());
  }

  /** How to show one column of rows of one schema. */
  private record Column(int pos, CsvRecordWriter.CellWriter text, boolean numeric) {
  }

  private static Column[] columnsOf(Schema schema, List<String> names) {
    Column[] out = new Column[names.size()];
    for (int i = 0; i < out.length; i++) {
      Schema.Field f = schema.getField(names.get(i));
      if (f == null) {
        List<String> all = new ArrayList<>();
        schema.getFields().forEach(x -> all.add(x.name()));
        throw SluiceException.badRequest("Cannot show column '" + names.get(i) + "'", "the rows have no such field",
            "Use one of: " + String.join(", ", all) + ".");
      }
      out[i] = new Column(f.pos(), CsvRecordWriter.cellWriter(f.schema()), isNumeric(Schemas.unwrapNullable(f.schema())));
    }
    return out;
  }

  private static boolean isNumeric(Schema s) {
    if (s.getLogicalType() instanceof LogicalTypes.Decimal || "big-decimal".equals(Schemas.logicalName(s))) {
      return true;
    }
    return s.getLogicalType() == null && (s.getType() == Schema.Type.INT || s.getType() == Schema.Type.LONG
        || s.getType() == Schema.Type.FLOAT || s.getType() == Schema.Type.DOUBLE);
  }
}
