package dev.sluice.tools.records;

import dev.sluice.api.ConfigKeys;
import dev.sluice.api.SluiceException;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * A small RFC 4180 reader: comma-separated cells, records ending in LF or CRLF, cells optionally in double
 * quotes with {@code ""} for a quote; quoted cells may hold commas and line breaks. Each cell remembers
 * whether it was quoted (an empty unquoted cell is null, {@code ""} is an empty string) and the physical line
 * it starts on. Lines holding nothing are skipped. A quote inside an unquoted cell is kept as text.
 */
final class CsvParser implements Closeable {
  private static final int BUFFER = 1 << 16;

  private final Reader in;
  private final String name;
  private final char[] buf = new char[BUFFER];
  private int len;
  private int pos;
  private boolean eof;
  private long line = 1;
  private boolean first = true;

  private final StringBuilder cell = new StringBuilder();
  private final List<String> texts = new ArrayList<>();
  private final List<Boolean> quotedFlags = new ArrayList<>();
  private long[] lines = new long[16];
  private long recordLine;
  private final int maxCell;
  private List<String> columnNames = List.of();

  /**
   * {@code name} is the file name used in error messages; a cell longer than {@code maxCell} characters is bad
   * input, found while it is read (so a huge value is never held whole).
   */
  CsvParser(Reader in, String name, int maxCell) {
    this.in = in;
    this.name = name;
    this.maxCell = maxCell;
  }

  /** The header's column names, for naming the column of a cell in errors. */
  void columnNames(List<String> names) {
    this.columnNames = List.copyOf(names);
  }

  private void appendChecked(char c, long cellLine) {
    cell.append(c);
    if (cell.length() > maxCell) {
      int column = texts.size();
      throw SluiceException.badInput(name + ":" + cellLine, column < columnNames.size() ? columnNames.get(column)
          : null, "a value is longer than " + maxCell + " characters", "at most " + maxCell + " characters (raise "
          + ConfigKeys.INPUT_MAX_VALUE_LENGTH.name() + " to allow more)");
    }
  }

  /**
   * Reads the next record.
   *
   * @return false at the end of the input
   * @throws dev.sluice.api.SluiceException (BAD_INPUT) for an unterminated quote or text after a closing quote
   */
  boolean next() throws IOException {
    texts.clear();
    quotedFlags.clear();
    if (first) {
      first = false;
      if (peek() == '\uFEFF') {
        pos++;
      }
    }
    while (true) {
      int c = peek();
      if (c < 0) {
        return false;
      }
      if (c == '\n') {
        pos++;
        line++;
        continue;
      }
      if (c == '\r' && peekAt(1) == '\n') {
        pos += 2;
        line++;
        continue;
      }
      break;
    }
    recordLine = line;
    while (true) {
      boolean endOfRecord = readCell();
      if (endOfRecord) {
        return true;
      }
    }
  }

  /** Reads one cell and its delimiter; returns true when the record ended after it. */
  private boolean readCell() throws IOException {
    cell.setLength(0);
    long cellLine = line;
    boolean quoted = false;
    int c = peek();
    if (c == '"') {
      quoted = true;
      pos++;
      while (true) {
        c = peek();
        if (c < 0) {
          throw SluiceException.badInput(name + ":" + cellLine, null, "a quoted value is never closed",
              "a closing '\"' (write a quote inside a quoted value as \"\")");
        }
        pos++;
        if (c == '"') {
          if (peek() == '"') {
            pos++;
            appendChecked('"', cellLine);
            continue;
          }
          break;
        }
        if (c == '\n') {
          line++;
        }
        appendChecked((char) c, cellLine);
      }
      c = peek();
      if (c >= 0 && c != ',' && c != '\n' && !(c == '\r' && peekAt(1) == '\n')) {
        throw SluiceException.badInput(name + ":" + line, null, "unexpected text after the closing quote of a value",
            "a comma or the end of the line after a closing '\"'");
      }
    } else {
      while (true) {
        c = peek();
        if (c < 0 || c == ',' || c == '\n' || c == '\r' && peekAt(1) == '\n') {
          break;
        }
        appendChecked((char) c, cellLine);
        pos++;
      }
    }
    add(cell.toString(), quoted, cellLine);
    c = peek();
    if (c == ',') {
      pos++;
      return false;
    }
    if (c == '\n') {
      pos++;
      line++;
    } else if (c == '\r') {
      pos += 2;
      line++;
    }
    return true;
  }

  private void add(String text, boolean quoted, long cellLine) {
    int i = texts.size();
    texts.add(text);
    quotedFlags.add(quoted);
    if (i == lines.length) {
      long[] bigger = new long[lines.length * 2];
      System.arraycopy(lines, 0, bigger, 0, lines.length);
      lines = bigger;
    }
    lines[i] = cellLine;
  }

  private int peek() throws IOException {
    if (pos < len) {
      return buf[pos];
    }
    return fill() ? buf[pos] : -1;
  }

  private int peekAt(int ahead) throws IOException {
    if (pos + ahead >= len) {
      // Keep the unread tail and top the buffer up so the look-ahead is available.
      System.arraycopy(buf, pos, buf, 0, len - pos);
      len -= pos;
      pos = 0;
      while (!eof && len <= ahead) {
        int n = in.read(buf, len, buf.length - len);
        if (n < 0) {
          eof = true;
        } else {
          len += n;
        }
      }
      if (ahead >= len) {
        return -1;
      }
    }
    return buf[pos + ahead];
  }

  private boolean fill() throws IOException {
    if (eof) {
      return false;
    }
    pos = 0;
    len = 0;
    while (len == 0) {
      int n = in.read(buf, 0, buf.length);
      if (n < 0) {
        eof = true;
        return false;
      }
      len = n;
    }
    return true;
  }

  /** Cells in the current record. */
  int size() {
    return texts.size();
  }

  String text(int i) {
    return texts.get(i);
  }

  boolean quoted(int i) {
    return quotedFlags.get(i);
  }

  /** The physical line (1-based) where cell {@code i} starts. */
  long line(int i) {
    return lines[i];
  }

  /** The physical line the parser has reached. */
  long currentLine() {
    return line;
  }

  /** The physical line where the current record starts. */
  long recordLine() {
    return recordLine;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
