package dev.sluice.sql;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/** Prints a result set as an aligned text table, CSV or JSON Lines. */
final class ResultPrinter {
  private static final JsonFactory JSON = new JsonFactory();

  private ResultPrinter() {
  }

  /** Prints every row of {@code rs}; returns how many. */
  static long print(ResultSet rs, OutputFormat format, PrintWriter out) throws SQLException, IOException {
    long n = switch (format) {
      case TABLE -> table(rs, out);
      case CSV -> csv(rs, out);
      case JSONL -> jsonLines(rs, out);
    };
    out.flush();
    return n;
  }

  private static long table(ResultSet rs, PrintWriter out) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int cols = md.getColumnCount();
    String[] header = new String[cols];
    int[] width = new int[cols];
    boolean[] right = new boolean[cols];
    for (int i = 0; i < cols; i++) {
      header[i] = md.getColumnLabel(i + 1);
      width[i] = header[i].length();
      right[i] = numeric(md.getColumnType(i + 1));
    }
    // the widths need every row first: a table is for results a person reads, not for millions of rows
    List<String[]> rows = new ArrayList<>();
    while (rs.next()) {
      String[] r = new String[cols];
      for (int i = 0; i < cols; i++) {
        Object v = rs.getObject(i + 1);
        r[i] = v == null ? "NULL" : text(v).replace('\n', ' ');
        width[i] = Math.max(width[i], r[i].length());
      }
      rows.add(r);
    }
    out.println(line(header, width, new boolean[cols]));
    StringBuilder rule = new StringBuilder();
    for (int i = 0; i < cols; i++) {
      rule.append(i == 0 ? "" : "  ").append("-".repeat(width[i]));
    }
    out.println(rule);
    for (String[] r : rows) {
      out.println(line(r, width, right));
    }
    out.println("(" + rows.size() + (rows.size() == 1 ? " row)" : " rows)"));
    return rows.size();
  }

  private static String line(String[] cells, int[] width, boolean[] right) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) {
        b.append("  ");
      }
      String pad = " ".repeat(width[i] - cells[i].length());
      b.append(right[i] ? pad + cells[i] : i == cells.length - 1 ? cells[i] : cells[i] + pad);
    }
    return b.toString();
  }

  private static boolean numeric(int sqlType) {
    return switch (sqlType) {
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.FLOAT, Types.REAL, Types.DOUBLE,
          Types.DECIMAL, Types.NUMERIC -> true;
      default -> false;
    };
  }

  private static long csv(ResultSet rs, PrintWriter out) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int cols = md.getColumnCount();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < cols; i++) {
      b.append(i == 0 ? "" : ",").append(csvCell(md.getColumnLabel(i + 1)));
    }
    out.println(b);
    long n = 0;
    while (rs.next()) {
      b.setLength(0);
      for (int i = 0; i < cols; i++) {
        Object v = rs.getObject(i + 1);
        b.append(i == 0 ? "" : ",").append(v == null ? "" : csvCell(text(v)));
      }
      out.println(b);
      n++;
    }
    return n;
  }

  private static String csvCell(String s) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return s;
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  private static long jsonLines(ResultSet rs, PrintWriter out) throws SQLException, IOException {
    ResultSetMetaData md = rs.getMetaData();
    int cols = md.getColumnCount();
    String[] names = new String[cols];
    for (int i = 0; i < cols; i++) {
      names[i] = md.getColumnLabel(i + 1);
    }
    long n = 0;
    while (rs.next()) {
      try (JsonGenerator g = JSON.createGenerator(out)) {
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.writeStartObject();
        for (int i = 0; i < cols; i++) {
          g.writeFieldName(names[i]);
          value(g, rs.getObject(i + 1));
        }
        g.writeEndObject();
      }
      out.println();
      n++;
    }
    return n;
  }

  private static void value(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      g.writeNumber(((Number) v).longValue());
    } else if (v instanceof BigInteger b) {
      g.writeNumber(b);
    } else if (v instanceof BigDecimal d) {
      g.writeNumber(d);
    } else if ((v instanceof Double || v instanceof Float) && Double.isFinite(((Number) v).doubleValue())) {
      g.writeNumber(((Number) v).doubleValue());
    } else {
      g.writeString(text(v));
    }
  }

  private static String text(Object v) {
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    return v.toString();
  }
}
