package dev.sluice.sql;

import dev.sluice.api.SluiceException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * The interactive prompt: reads statements from a reader (a terminal or a pipe) up to a {@code ;} at the end of a
 * line, runs each and prints its rows; an error is printed and the prompt goes on. {@code .views} lists the views,
 * {@code .timer on} prints each statement's wall time on stderr, {@code .quit} (or the end of the input) ends it.
 * The prompt ({@code sql> }, {@code  ...> }) is shown only when asked (a person at a terminal).
 */
public final class SqlShell {
  private final SluiceSql sql;
  private final OutputFormat format;
  private boolean timer;

  /** A prompt over {@code sql}'s views printing rows as {@code format}. */
  public SqlShell(SluiceSql sql, OutputFormat format) {
    this.sql = sql;
    this.format = format;
  }

  /** Runs statements until the input ends; returns how many failed. */
  public int run(BufferedReader in, PrintWriter out, PrintWriter err, boolean prompt) throws IOException {
    int failed = 0;
    StringBuilder statement = new StringBuilder();
    while (true) {
      if (prompt) {
        out.print(statement.length() == 0 ? "sql> " : " ...> ");
        out.flush();
      }
      String line = in.readLine();
      if (line == null) {
        break;
      }
      String trimmed = line.strip();
      if (statement.length() == 0 && (trimmed.equals(".quit") || trimmed.equals(".exit"))) {
        break;
      }
      if (statement.length() == 0 && (trimmed.equals(".timer on") || trimmed.equals(".timer off"))) {
        timer = trimmed.endsWith("on");
        continue;
      }
      if (statement.length() == 0 && trimmed.equals(".views")) {
        sql.views().forEach(v -> out.println(v.name() + "  " + v.type().name().toLowerCase(java.util.Locale.ROOT)
            + "  " + v.table().location()));
        out.flush();
        continue;
      }
      statement.append(line).append('\n');
      if (trimmed.endsWith(";")) {
        String text = statement.toString().strip();
        statement.setLength(0);
        text = text.substring(0, text.length() - 1).strip();
        if (!text.isEmpty()) {
          failed += runOne(text, out, err);
        }
      }
    }
    if (!statement.toString().isBlank()) {
      failed += runOne(statement.toString().strip(), out, err);
    }
    return failed;
  }

  private int runOne(String text, PrintWriter out, PrintWriter err) {
    long start = System.nanoTime();
    try {
      sql.print(text, format, out);
      if (timer) {
        // on stderr, apart from the rows: wall time of the statement, its scans included
        err.println("time: " + (System.nanoTime() - start) / 1_000_000 + " ms");
        err.flush();
      }
      return 0;
    } catch (SluiceException e) {
      out.flush();
      err.println("error: " + e.getMessage());
      err.flush();
      return 1;
    }
  }
}
