package dev.sluice.tools.records;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.util.Utf8;

/**
 * A byte buffer that query output is formatted into directly: values go in as UTF-8 bytes (numbers as digits, Avro's
 * {@link Utf8} strings copied as they are stored) with no String or encoder per value, and the buffer goes to the
 * stream when it fills. Over no stream it grows instead (a CSV cell formatted before it is quoted). Single-threaded.
 *
 * <p>The text is exactly what the Jackson generator and {@link java.io.OutputStreamWriter} wrote before (the
 * formatters' tests compare the two): JSON escapes quote, backslash and the control characters (the short forms
 * {@code \b \t \n \f \r}, others as upper-case {@code \}{@code u00XX}), everything else is UTF-8; a surrogate that is
 * not half of a pair becomes an escape in JSON (Jackson's way) and {@code ?} in plain text (the encoder's way).
 */
final class Utf8Sink {
  private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
  /** Per ASCII byte: 0 copied as is, else the letter of its short escape, or 'u' for the long one. */
  private static final byte[] JSON_ESCAPES = new byte[128];
  /** Per ASCII byte: 1 when a CSV cell holding it is quoted (comma, quote, line feed, carriage return). */
  private static final byte[] CSV_QUOTED = new byte[128];
  private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

  static {
    for (int c = 0; c < 32; c++) {
      JSON_ESCAPES[c] = 'u';
    }
    JSON_ESCAPES['\b'] = 'b';
    JSON_ESCAPES['\t'] = 't';
    JSON_ESCAPES['\n'] = 'n';
    JSON_ESCAPES['\f'] = 'f';
    JSON_ESCAPES['\r'] = 'r';
    JSON_ESCAPES['"'] = '"';
    JSON_ESCAPES['\\'] = '\\';
    CSV_QUOTED[','] = 1;
    CSV_QUOTED['"'] = 1;
    CSV_QUOTED['\n'] = 1;
    CSV_QUOTED['\r'] = 1;
  }

  private final OutputStream out;
  private final boolean jsonSurrogates;
  private byte[] buf;
  private int pos;

  /** A sink flushing to {@code out} in chunks of {@code size} bytes. */
  Utf8Sink(OutputStream out, int size) {
    this(out, size, true);
  }

  /**
   * A sink over no stream, growing as needed; read it with {@link #array()} and {@link #length()}.
   *
   * @param jsonSurrogates whether a lone surrogate in a JSON string is escaped (as Jackson does to bytes) or becomes
   *     {@code ?} (as Jackson's text to characters, encoded to UTF-8, did in CSV cells)
   */
  Utf8Sink(int size, boolean jsonSurrogates) {
    this(null, size, jsonSurrogates);
  }

  private Utf8Sink(OutputStream out, int size, boolean jsonSurrogates) {
    this.out = out;
    this.buf = new byte[size];
    this.jsonSurrogates = jsonSurrogates;
  }

  byte[] array() {
    return buf;
  }

  int length() {
    return pos;
  }

  /** Forgets what an in-memory sink holds. */
  void reset() {
    pos = 0;
  }

  /** Makes room for {@code n} more bytes. */
  private void room(int n) throws IOException {
    if (buf.length - pos >= n) {
      return;
    }
    if (out != null && pos > 0) {
      out.write(buf, 0, pos);
      pos = 0;
      if (buf.length >= n) {
        return;
      }
    }
    buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
  }

  /** Writes what is buffered to the stream and flushes it. */
  void flush() throws IOException {
    if (out != null) {
      if (pos > 0) {
        out.write(buf, 0, pos);
        pos = 0;
      }
      out.flush();
    }
  }

  /** The bound of {@link #finiteDouble}'s hundredths: {@code 10^8 / 100}. */
  private static final double HUNDREDTHS_BELOW = 1e6;
  private static final long EIGHT_DIGITS = 100_000_000L;
  /** {@code INT_POWERS[i] = 10^i}, up to the largest below {@link Integer#MAX_VALUE}. */
  private static final int[] INT_POWERS = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
      1_000_000_000};
  /** "00" to "99": the two digits of {@code n} at {@code 2n} and {@code 2n + 1}. */
  private static final byte[] DIGIT_PAIRS = new byte[200];

  static {
    for (int n = 0; n < 100; n++) {
      DIGIT_PAIRS[2 * n] = (byte) ('0' + n / 10);
      DIGIT_PAIRS[2 * n + 1] = (byte) ('0' + n % 10);
    }
  }

  void write(int b) throws IOException {
    if (pos == buf.length) {
      room(1);
    }
    buf[pos++] = (byte) b;
  }

  void write(byte[] b) throws IOException {
    write(b, 0, b.length);
  }

  void write(byte[] b, int off, int len) throws IOException {
    if (buf.length - pos < len) {
      room(len);
    }
    System.arraycopy(b, off, buf, pos, len);
    pos += len;
  }

  /** Text known to be ASCII (numbers' own text), one byte per character. */
  void ascii(String s) throws IOException {
    int n = s.length();
    room(n);
    s.getBytes(0, n, buf, pos);
    pos += n;
  }

  /**
   * A finite double as {@link Double#toString(double)} writes it from JDK 19 on: the shortest decimal that reads back
   * as the same double, in Java's notation. Money-like values (hundredths: {@code k / 100.0} for {@code |k| < 10^8},
   * so below a million) are written from {@code k}'s digits, without a decimal conversion and its String: that text
   * was checked for every such {@code k} (ByteOutputTest checks a sample on every build). Any other value gets
   * {@link TextFormat#shortestText(double)}.
   */
  void finiteDouble(double d) throws IOException {
    if (d > -HUNDREDTHS_BELOW && d < HUNDREDTHS_BELOW) {
      long k = Math.round(d * 100);
      if (Double.doubleToRawLongBits(k / 100.0) == Double.doubleToRawLongBits(d)) {
        // -0.0 is not 0 / 100.0 (its bits differ), so it never gets here: a zero is "0.0"
        room(12);
        if (k < 0) {
          buf[pos++] = '-';
          k = -k;
        }
        // |k| < 10^8: int arithmetic (see decimal)
        int whole = (int) k / 100;
        int f = (int) k - whole * 100;
        positive(whole);
        buf[pos++] = '.';
        buf[pos++] = (byte) ('0' + f / 10);
        if (f % 10 != 0) {
          buf[pos++] = (byte) ('0' + f % 10);
        }
        return;
      }
    }
    ascii(TextFormat.shortestText(d));
  }

  /** A finite float as {@link Float#toString(float)} writes it from JDK 19 on (see {@link #finiteDouble}). */
  void finiteFloat(float f) throws IOException {
    ascii(TextFormat.shortestText(f));
  }

  /**
   * A long's decimal digits, as {@link Long#toString(long)} writes them. The digits come from int arithmetic, two at a
   * time: the C1 compiler, which the command line's short queries run on, turns every long division into a call into
   * the JVM's runtime, and one per digit (a timestamp has 13) was 4% of a query's CPU. A long beyond an int is cut into
   * parts of eight digits with one or two long divisions.
   */
  void decimal(long v) throws IOException {
    if (v == Long.MIN_VALUE) {
      write(MIN_LONG);
      return;
    }
    room(20);
    if (v < 0) {
      buf[pos++] = '-';
      v = -v;
    }
    if (v <= Integer.MAX_VALUE) {
      positive((int) v);
      return;
    }
    long high = v / EIGHT_DIGITS;
    int low = (int) (v - high * EIGHT_DIGITS);
    if (high <= Integer.MAX_VALUE) {
      positive((int) high);
    } else {
      long top = high / EIGHT_DIGITS;
      positive((int) top);
      eightDigits((int) (high - top * EIGHT_DIGITS));
    }
    eightDigits(low);
  }

  /** The digits of {@code v >= 0} (room already made). */
  private void positive(int v) {
    int digits = 1;
    while (digits < INT_POWERS.length && v >= INT_POWERS[digits]) {
      digits++;
    }
    int end = pos + digits;
    int i = end;
    while (v >= 100) {
      int q = v / 100;
      int r = (v - q * 100) * 2;
      buf[--i] = DIGIT_PAIRS[r + 1];
      buf[--i] = DIGIT_PAIRS[r];
      v = q;
    }
    if (v >= 10) {
      buf[--i] = DIGIT_PAIRS[2 * v + 1];
      buf[--i] = DIGIT_PAIRS[2 * v];
    } else {
      buf[--i] = (byte) ('0' + v);
    }
    pos = end;
  }

  /** {@code 0 <= v < 10^8} as exactly eight digits, zeros in front (room already made). */
  private void eightDigits(int v) {
    for (int i = pos + 6; i >= pos; i -= 2) {
      int q = v / 100;
      int r = (v - q * 100) * 2;
      buf[i] = DIGIT_PAIRS[r];
      buf[i + 1] = DIGIT_PAIRS[r + 1];
      v = q;
    }
    pos += 8;
  }

  /** {@code s} as plain UTF-8 (no escapes; a lone surrogate as {@code ?}). */
  void text(CharSequence s) throws IOException {
    if (s instanceof Utf8 && isAscii((Utf8) s)) {
      Utf8 u = (Utf8) s;
      write(u.getBytes(), 0, u.getByteLength());
      return;
    }
    // not plain ASCII: through its characters, so that bytes that are not well-formed UTF-8 come out as the
    // decoded String did before
    chars(s.toString(), 0, false);
  }

  static boolean isAscii(Utf8 u) {
    byte[] b = u.getBytes();
    for (int i = 0, n = u.getByteLength(); i < n; i++) {
      if (b[i] < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * ASCII bytes as one CSV cell (see {@link #csvCell(byte[], int)}). False, with nothing written, when a byte is beyond
   * ASCII: the caller writes the cell from its text then.
   */
  boolean csvAscii(byte[] b, int len) throws IOException {
    return csvCell(b, len, true);
  }

  /**
   * UTF-8 bytes as one CSV cell, copied as they are checked (most cells need nothing else): as they are, or in quotes
   * with each quote doubled when empty or holding a comma, quote or line break. Only for bytes that cannot start with
   * a byte-order mark (ASCII, JSON).
   */
  void csvCell(byte[] b, int len) throws IOException {
    csvCell(b, len, false);
  }

  private boolean csvCell(byte[] b, int len, boolean asciiOnly) throws IOException {
    if (len == 0) {
      csvQuoted(b, 0);
      return true;
    }
    room(len);
    byte[] to = buf;
    int p = pos;
    for (int i = 0; i < len; i++) {
      byte c = b[i];
      if (c < 0) {
        if (asciiOnly) {
          return false;
        }
      } else if (CSV_QUOTED[c] != 0) {
        for (int j = i + 1; asciiOnly && j < len; j++) {
          if (b[j] < 0) {
            return false;
          }
        }
        csvQuoted(b, len);
        return true;
      }
      to[p++] = c;
    }
    pos = p;
    return true;
  }

  /** Bytes in quotes, each quote among them doubled (a CSV cell that must be quoted), in one pass. */
  private void csvQuoted(byte[] b, int len) throws IOException {
    room(2 * len + 2);
    byte[] to = buf;
    int p = pos;
    to[p++] = '"';
    for (int i = 0; i < len; i++) {
      byte c = b[i];
      to[p++] = c;
      if (c == '"') {
        to[p++] = '"';
      }
    }
    to[p++] = '"';
    pos = p;
  }

  /** {@code s} as a JSON string, quotes included. */
  void jsonString(CharSequence s) throws IOException {
    write('"');
    if (s instanceof Utf8) {
      jsonUtf8((Utf8) s);
    } else {
      chars(s, 0, true);
    }
    write('"');
  }

  /**
   * Copies a Utf8's bytes with JSON's escapes in one pass while they are ASCII; from the first byte beyond ASCII on
   * through the decoded characters (the same index there: everything before it was one byte per character), so that
   * bytes that are not well-formed UTF-8 come out as the decoded String did before.
   */
  private void jsonUtf8(Utf8 u) throws IOException {
    byte[] b = u.getBytes();
    int len = u.getByteLength();
    // one pass that copies as it checks (most texts are ASCII with nothing to escape); the first byte that is not
    // hands the rest to the two-pass loop below
    room(len);
    byte[] to = buf;
    int p = pos;
    for (int i = 0; i < len; i++) {
      byte c = b[i];
      if (c < 0 || JSON_ESCAPES[c] != 0) {
        pos = p;
        jsonUtf8From(u, b, i, len);
        return;
      }
      to[p++] = c;
    }
    pos = p;
  }

  /** The bytes of {@code u} from {@code from} on (those before it are ASCII, already written). */
  private void jsonUtf8From(Utf8 u, byte[] b, int from, int len) throws IOException {
    int start = from;
    for (int i = from; i < len; i++) {
      byte c = b[i];
      if (c < 0) {
        write(b, start, i - start);
        chars(u.toString(), i, true);
        return;
      }
      if (JSON_ESCAPES[c] != 0) {
        write(b, start, i - start);
        escape(c);
        start = i + 1;
      }
    }
    write(b, start, len - start);
  }

  private void escape(int c) throws IOException {
    byte e = JSON_ESCAPES[c];
    if (e == 'u') {
      unicodeEscape(c);
    } else {
      room(2);
      buf[pos++] = '\\';
      buf[pos++] = e;
    }
  }

  private void unicodeEscape(int c) throws IOException {
    room(6);
    buf[pos++] = '\\';
    buf[pos++] = 'u';
    buf[pos++] = HEX[(c >> 12) & 0xF];
    buf[pos++] = HEX[(c >> 8) & 0xF];
    buf[pos++] = HEX[(c >> 4) & 0xF];
    buf[pos++] = HEX[c & 0xF];
  }

  /** Characters to UTF-8 from index {@code from} on, with JSON's escapes when {@code json}. */
  private void chars(CharSequence s, int from, boolean json) throws IOException {
    int n = s.length();
    for (int i = from; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        if (json && JSON_ESCAPES[c] != 0) {
          escape(c);
        } else {
          write(c);
        }
      } else if (c < 0x800) {
        room(2);
        buf[pos++] = (byte) (0xC0 | (c >> 6));
        buf[pos++] = (byte) (0x80 | (c & 0x3F));
      } else if (!Character.isSurrogate(c)) {
        room(3);
        buf[pos++] = (byte) (0xE0 | (c >> 12));
        buf[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        buf[pos++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        room(4);
        buf[pos++] = (byte) (0xF0 | (cp >> 18));
        buf[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        buf[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        buf[pos++] = (byte) (0x80 | (cp & 0x3F));
      } else if (json && jsonSurrogates) {
        unicodeEscape(c);
      } else {
        write('?');
      }
    }
  }
}
