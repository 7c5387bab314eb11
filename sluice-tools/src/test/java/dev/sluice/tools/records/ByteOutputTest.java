package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.NumberOutput;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

/**
 * The query output's byte path (values formatted straight into UTF-8 buffers: {@link JsonBytes}, {@link CsvCellBytes})
 * writes exactly the bytes of the paths it replaced: JSON Lines as Jackson's generator wrote them to bytes, CSV as the
 * character writer encoded to UTF-8. Every type (random values of {@link AllTypes}, strings as Java Strings and as
 * the Avro {@link Utf8} the readers return) and the awkward strings: control characters, quotes, commas, line
 * breaks, a byte-order mark, characters beyond the BMP, lone surrogates, bytes that are not UTF-8, extreme numbers.
 */
class ByteOutputTest {
  private static final String[] AWKWARD = {"", "plain", "\u0000\u0001\u0008\u0009\n\u000B\u000C\r\u001F\u007F",
      "quote \" back\\slash /", "a,b", "\"", "\uFEFFbom first", "x\uFEFF", "Grüße 日本語", "emoji \uD83D\uDE00 end",
      "lone high \uD83D", "lone low \uDE00 mid", "\uDE00\uD83D", "\u2028\u2029", "é", "\r\n",
      "tab\t, \"quote\" then é, \\ and 日本\n"};

  private static byte[] newJson(Schema schema, List<GenericRecord> records) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonRecordWriter w = new JsonRecordWriter(out, schema)) {
      for (GenericRecord r : records) {
        w.write(r);
      }
    }
    return out.toByteArray();
  }

  /** The JSON Lines to bytes as they were before: Jackson's generator over the stream. */
  private static byte[] jacksonJson(Schema schema, List<GenericRecord> records) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    JsonValueWriter writer = JsonValueWriter.compile(schema);
    try (JsonGenerator g = JsonRecordWriter.FACTORY.createGenerator(out)) {
      for (GenericRecord r : records) {
        writer.write(g, r);
        g.writeRaw('\n');
      }
    }
    return out.toByteArray();
  }

  private static byte[] newCsv(Schema schema, List<GenericRecord> records) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (CsvRecordWriter w = new CsvRecordWriter(out, schema)) {
      for (GenericRecord r : records) {
        w.write(r);
      }
    }
    return out.toByteArray();
  }

  /** The CSV to bytes as it was before: the character writer through a UTF-8 encoder. */
  private static byte[] charCsv(Schema schema, List<GenericRecord> records) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Writer chars = new OutputStreamWriter(out, StandardCharsets.UTF_8);
    try (CsvRecordWriter w = new CsvRecordWriter(chars, schema)) {
      for (GenericRecord r : records) {
        w.write(r);
      }
    }
    return out.toByteArray();
  }

  private static void assertSameBytes(Schema schema, List<GenericRecord> records) throws IOException {
    byte[] expectedJson = jacksonJson(schema, records);
    assertEquals(new String(expectedJson, StandardCharsets.UTF_8), new String(newJson(schema, records), StandardCharsets.UTF_8));
    assertArrayEquals(expectedJson, newJson(schema, records));
    byte[] expectedCsv = charCsv(schema, records);
    assertEquals(new String(expectedCsv, StandardCharsets.UTF_8), new String(newCsv(schema, records), StandardCharsets.UTF_8));
    assertArrayEquals(expectedCsv, newCsv(schema, records));
  }

  /**
   * A value as the readers hand it out: Avro's Utf8 made from the bytes (made from a String it would keep that String
   * and give it back, lone surrogates and all, where a reader's has only the bytes).
   */
  private static Utf8 read(String s) {
    return new Utf8(s.getBytes(StandardCharsets.UTF_8));
  }

  /** A deep copy with every String as Avro's Utf8 (what the Parquet and Avro readers hand out). */
  private static Object utf8(Object v) {
    if (v instanceof String) {
      return read((String) v);
    }
    if (v instanceof GenericData.Record) {
      GenericData.Record r = (GenericData.Record) v;
      GenericData.Record copy = new GenericData.Record(r.getSchema());
      for (int i = 0; i < r.getSchema().getFields().size(); i++) {
        copy.put(i, utf8(r.get(i)));
      }
      return copy;
    }
    if (v instanceof List) {
      List<Object> copy = new ArrayList<>();
      for (Object o : (List<?>) v) {
        copy.add(utf8(o));
      }
      return copy;
    }
    if (v instanceof Map) {
      Map<Object, Object> copy = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        copy.put(utf8(e.getKey()), utf8(e.getValue()));
      }
      return copy;
    }
    return v;
  }

  @Test
  void everyTypeGivesTheBytesOfTheFormerPaths() throws IOException {
    List<GenericRecord> records = AllTypes.records(22, 300);
    assertSameBytes(AllTypes.SCHEMA, records);
    List<GenericRecord> asUtf8 = new ArrayList<>();
    for (GenericRecord r : records) {
      asUtf8.add((GenericRecord) utf8(r));
    }
    assertSameBytes(AllTypes.SCHEMA, asUtf8);
  }

  @Test
  void awkwardStringsAndNumbersGiveTheBytesOfTheFormerPaths() throws IOException {
    Schema schema = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":["
        + "{\"name\":\"s\",\"type\":\"string\"},{\"name\":\"n\",\"type\":[\"null\",\"string\"]},"
        + "{\"name\":\"l\",\"type\":\"long\"},{\"name\":\"i\",\"type\":\"int\"},{\"name\":\"d\",\"type\":\"double\"},"
        + "{\"name\":\"f\",\"type\":\"float\"},{\"name\":\"arr\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
        + "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"string\"}},"
        + "{\"name\":\"t\",\"type\":\"string\"}]}");
    long[] longs = {0, -1, 9, 10, -10, 99, 100, 123456789012345L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
    int[] ints = {0, -1, 7, Integer.MAX_VALUE, Integer.MIN_VALUE, 1000000};
    double[] doubles = {0.0, -0.0, 1.5, 1e-300, 1e300, 123.45, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, Double.MIN_VALUE, 1.0E7, 0.001};
    float[] floats = {0f, -0f, 1.1f, Float.NaN, Float.NEGATIVE_INFINITY, Float.MAX_VALUE, 1.0E-5f};
    List<GenericRecord> records = new ArrayList<>();
    for (int k = 0; k < AWKWARD.length * 2; k++) {
      String s = AWKWARD[k % AWKWARD.length];
      boolean asUtf8 = k >= AWKWARD.length;
      GenericRecord r = new GenericData.Record(schema);
      r.put("s", asUtf8 ? read(s) : s);
      r.put("n", k % 3 == 0 ? null : asUtf8 ? read(s) : s);
      r.put("l", longs[k % longs.length]);
      r.put("i", ints[k % ints.length]);
      r.put("d", doubles[k % doubles.length]);
      r.put("f", floats[k % floats.length]);
      r.put("arr", List.of(s, "x", s));
      Map<Object, Object> m = new LinkedHashMap<>();
      m.put(asUtf8 ? read(s) : s, s);
      m.put("k,\"", "v");
      r.put("m", m);
      r.put(3 + 5, AWKWARD[(k + 1) % AWKWARD.length]);
      records.add(r);
    }
    // bytes that are not well-formed UTF-8, as a Utf8 value may hold them: decoded as the String of them was
    GenericRecord bad = new GenericData.Record(schema);
    bad.put("s", new Utf8(new byte[] {'a', (byte) 0xC3, 'b', (byte) 0xFF, (byte) 0xED, (byte) 0xA0, (byte) 0x80}));
    bad.put("n", new Utf8(new byte[] {(byte) 0xE6, (byte) 0x97}));
    bad.put("l", 1L);
    bad.put("i", 2);
    bad.put("d", 3.0);
    bad.put("f", 4f);
    bad.put("arr", List.of());
    bad.put("m", Map.of());
    bad.put(8, new Utf8(new byte[] {'"', ',', (byte) 0xEF, (byte) 0xBB, (byte) 0xBF}));
    records.add(bad);
    for (GenericRecord r : records) {
      assertSameBytes(schema, List.of(r));
    }
    assertSameBytes(schema, records);
  }

  /** Longs written from int digit pairs (a long beyond an int in parts of eight digits) give Long.toString's text. */
  @Test
  void longsAreLongToStringsText() throws IOException {
    java.util.Random random = new java.util.Random(20261206L);
    List<Long> values = new ArrayList<>();
    for (long k = -1_000; k <= 1_000; k++) {
      values.add(k);
    }
    long p = 1;
    for (int i = 0; i < 19; i++) {
      for (long d = -1; d <= 1; d++) {
        values.add(p + d);
        values.add(-(p + d));
      }
      p *= 10;
    }
    for (long v : new long[] {Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, Integer.MIN_VALUE, Integer.MIN_VALUE - 1L,
        Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, 99_999_999L, 100_000_000L, 1_000_000_000_000_000_00L / 10,
        9_999_999_999_999_999L, 1_765_000_000_000L, 10_000_000_000_000_000L, 1_000_000_001_000_000_01L / 10}) {
      values.add(v);
    }
    for (int i = 0; i < 200_000; i++) {
      values.add(random.nextLong());
      values.add(random.nextLong() >> random.nextInt(64));
      values.add((long) random.nextInt());
    }
    Utf8Sink sink = new Utf8Sink(16, true);
    StringBuilder expected = new StringBuilder();
    for (long v : values) {
      sink.decimal(v);
      sink.write(' ');
      expected.append(v).append(' ');
    }
    assertEquals(expected.toString(), new String(sink.array(), 0, sink.length(), StandardCharsets.US_ASCII));
  }

  /**
   * Doubles are written as {@code Double.toString} writes them from JDK 19 on (the shortest decimal that reads back):
   * the hundredths from their digits, every other one through Jackson's Schubfach. Each text reads back as its double.
   */
  @Test
  void doublesAreDoubleToStringsText() throws IOException {
    java.util.Random random = new java.util.Random(20261206L);
    List<Double> values = new ArrayList<>();
    for (long k = -300_000; k <= 300_000; k++) {
      values.add(k / 100.0);
    }
    for (int i = 0; i < 300_000; i++) {
      long k = random.nextLong() % 100_000_000L;
      values.add(k / 100.0);
      values.add(random.nextDouble() * 1e6);
      values.add(k / 1000.0);
    }
    for (long k : new long[] {99_999_999L, -99_999_999L, 100_000_000L, 100_000_001L, 1L, 10L, 110L}) {
      values.add(k / 100.0);
    }
    double[] others = {-0.0, 0.1 + 0.2, 1e-3, 9.99e-4, 1e-5, 999_999.99, 999_999.995, 1e6, 1e6 + 0.01, 1e7,
        Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, 4.35, 0.07, 1.005, Math.nextUp(0.01),
        Math.nextDown(123.45)};
    for (double d : others) {
      values.add(d);
    }
    Utf8Sink sink = new Utf8Sink(16, true);
    StringBuilder expected = new StringBuilder();
    for (double d : values) {
      int start = sink.length();
      sink.finiteDouble(d);
      String text = new String(sink.array(), start, sink.length() - start, StandardCharsets.US_ASCII);
      assertEquals(d, Double.parseDouble(text), text);
      sink.write(' ');
      expected.append(NumberOutput.toString(d, true)).append(' ');
    }
    assertEquals(expected.toString(), new String(sink.array(), 0, sink.length(), StandardCharsets.US_ASCII));
    // and through both formatters' byte paths, as the former ones wrote them
    Schema schema = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":["
        + "{\"name\":\"d\",\"type\":\"double\"},{\"name\":\"o\",\"type\":[\"null\",\"double\"]}]}");
    List<GenericRecord> records = new ArrayList<>();
    for (int i = 0; i < values.size(); i += 97) {
      GenericRecord r = new GenericData.Record(schema);
      r.put("d", values.get(i));
      r.put("o", i % 3 == 0 ? null : values.get(values.size() - 1 - i));
      records.add(r);
    }
    assertSameBytes(schema, records);
  }

  /**
   * Where JDK 17's {@code Double.toString} writes more digits than needed, the output has the shortest text, as JDK 19
   * and later write it: the query's output does not depend on the JDK it runs on.
   */
  @Test
  void doublesAndFloatsHaveTheirShortestTextOnEveryJdk() throws IOException {
    Utf8Sink sink = new Utf8Sink(16, true);
    for (double d : new double[] {2e23, 1e23, 8.41e21, 4.0301848979298270e17}) {
      sink.finiteDouble(d);
      sink.write(' ');
    }
    for (float f : new float[] {1.0e23f, 0.39379692f, 3.4028235e38f, 1.4e-45f}) {
      sink.finiteFloat(f);
      sink.write(' ');
    }
    assertEquals("2.0E23 1.0E23 8.41E21 4.030184897929827E17 1.0E23 0.39379692 3.4028235E38 1.4E-45 ",
        new String(sink.array(), 0, sink.length(), StandardCharsets.US_ASCII));
  }

  @Test
  void outputLargerThanTheBufferIsWholeAndInOrder() throws IOException {
    // records beyond 64 KiB each and in sum: the buffer flushes mid-record and grows for one longer than itself
    List<GenericRecord> records = new ArrayList<>(AllTypes.records(7, 50));
    Schema schema = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"big\",\"fields\":["
        + "{\"name\":\"s\",\"type\":\"string\"}]}");
    List<GenericRecord> big = new ArrayList<>();
    for (int k = 0; k < 5; k++) {
      GenericRecord r = new GenericData.Record(schema);
      r.put("s", new Utf8("ab\"c,\n".repeat(20_000 + k * 7_000)));
      big.add(r);
    }
    assertSameBytes(schema, big);
    assertSameBytes(AllTypes.SCHEMA, records);
  }

  /**
   * A CSV cell of ASCII bytes is copied as it is checked, into a buffer that flushes mid-cell; one with a byte beyond
   * ASCII, even after a comma that already asked for quotes, writes nothing and is left to the text path.
   */
  @Test
  void csvCellsOfAsciiCrossTheBufferAndOthersWriteNothing() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Utf8Sink sink = new Utf8Sink(out, 8);
    for (String cell : new String[] {"abcdef", "a,b\"c", "", "0123456789", "line\nbreak"}) {
      byte[] b = cell.getBytes(StandardCharsets.US_ASCII);
      assertTrue(sink.csvAscii(b, b.length), cell);
      sink.write('|');
    }
    byte[] mixed = "x,\"\u00e9".getBytes(StandardCharsets.UTF_8);
    assertFalse(sink.csvAscii(mixed, mixed.length));
    byte[] plain = "ab\u00e9".getBytes(StandardCharsets.UTF_8);
    assertFalse(sink.csvAscii(plain, plain.length));
    sink.flush();
    assertEquals("abcdef|\"a,b\"\"c\"|\"\"|0123456789|\"line\nbreak\"|", out.toString(StandardCharsets.UTF_8));
  }
}
