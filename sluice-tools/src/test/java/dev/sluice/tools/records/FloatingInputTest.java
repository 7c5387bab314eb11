package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Floats and doubles read from JSON Lines and CSV input are exactly the values the JDK's parser gives for the same
 * text (the input parses them with jackson-core's FastDoubleParser): shortest texts of random bit patterns, long
 * exact expansions, halfway cases, subnormals, underflow, the largest values and the special ones.
 */
class FloatingInputTest {
  private static final Schema SCHEMA = SchemaBuilder.record("r").fields()
      .requiredInt("i").requiredFloat("f").requiredDouble("d").endRecord();

  @TempDir
  Path dir;

  /** Texts that are hard for a parser: halfway cases, many digits, the ends of the ranges. */
  private static List<String> hardTexts() {
    List<String> t = new ArrayList<>(List.of("0", "-0.0", "1", "0.1", "1.1", "-2.25e-3", "2e23", "8.41e21",
        "9007199254740993", "9007199254740992.5", "16777217", "16777216.5", "1.00000017881393432617187499",
        "1.000000178813934326171875", "1.00000017881393432617187501", "3.4028235e38", "3.4028236e38",
        "1.7976931348623157e308", "1.7976931348623158e308", "4.9e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "1.4e-45", "7.006492321624085e-46", "1e-400", "1e-50", "123456789012345678901234567890",
        "0.30000000000000004", "2.2250738585072011e-308", "2.2250738585072012e-308", "1.17549435e-38",
        "4.35640912e-39", "0.000000000000000000000000000000000000000000001"));
    // exact decimal expansions of random doubles and of the halfway points next to them: 50-770 digits
    Random r = new Random(20261206L);
    for (int i = 0; i < 200; i++) {
      double d = Double.longBitsToDouble(r.nextLong() & 0x7fefffffffffffffL);
      BigDecimal exact = new BigDecimal(d);
      BigDecimal next = new BigDecimal(Math.nextUp(d));
      t.add(exact.toString());
      t.add(exact.add(next).divide(BigDecimal.valueOf(2)).toString());
      float f = Float.intBitsToFloat(r.nextInt() & 0x7f7fffff);
      t.add(new BigDecimal(f).add(new BigDecimal(Math.nextUp(f))).divide(BigDecimal.valueOf(2)).toPlainString());
    }
    for (int i = 0; i < 3000; i++) {
      t.add(Double.toString(Double.longBitsToDouble(r.nextLong() & 0x7fefffffffffffffL)));
      t.add(Float.toString(Float.intBitsToFloat(r.nextInt() & 0x7f7fffff)));
      t.add(r.nextInt(1_000_000) + "." + r.nextInt(100));
    }
    return t;
  }

  @Test
  void jsonLinesGiveTheJdksValues() {
    List<String> texts = hardTexts();
    StringBuilder json = new StringBuilder();
    for (int i = 0; i < texts.size(); i++) {
      String v = texts.get(i);
      json.append("{\"i\": ").append(i).append(", \"f\": ").append(floatText(v)).append(", \"d\": ")
          .append(doubleText(v)).append("}\n");
    }
    // JSON's non-numeric NaN is taken; its Infinity is refused as out of range for a double or float field
    json.append("{\"i\": -1, \"f\": NaN, \"d\": NaN}\n");
    List<GenericRecord> rows = Inputs.readAll(Inputs.write(dir, "n.jsonl", json.toString()), InputFormat.JSON, SCHEMA);
    assertTheJdksValues(texts, rows, Double.NaN);
  }

  @Test
  void csvCellsGiveTheJdksValues() {
    List<String> texts = hardTexts();
    StringBuilder csv = new StringBuilder("i,f,d\n");
    for (int i = 0; i < texts.size(); i++) {
      csv.append(i).append(',').append(floatText(texts.get(i))).append(',').append(doubleText(texts.get(i)))
          .append('\n');
    }
    csv.append("-1,NaN,-Infinity\n");
    List<GenericRecord> rows = Inputs.readAll(Inputs.write(dir, "n.csv", csv.toString()), InputFormat.CSV, SCHEMA);
    assertTheJdksValues(texts, rows, Double.NEGATIVE_INFINITY);
  }

  /**
   * Each row {@code i} holds the JDK's float and double of {@code texts[i]}; the row numbered -1 holds NaN and
   * {@code special} (the input's non-numeric values).
   */
  private static void assertTheJdksValues(List<String> texts, List<GenericRecord> rows, double special) {
    assertEquals(texts.size() + 1, rows.size());
    for (GenericRecord row : rows) {
      int i = (Integer) row.get("i");
      if (i < 0) {
        assertEquals(Float.NaN, (Float) row.get("f"));
        assertEquals(special, (Double) row.get("d"));
        continue;
      }
      assertSameValues(texts.get(i), row);
    }
  }

  /** The text, or 0 where the JDK's float of it is infinite (beyond the range: refused as input, not tested here). */
  private static String floatText(String text) {
    return Float.isInfinite(Float.parseFloat(text)) ? "0" : text;
  }

  private static String doubleText(String text) {
    return Double.isInfinite(Double.parseDouble(text)) ? "0" : text;
  }

  private static void assertSameValues(String text, GenericRecord row) {
    String f = floatText(text);
    String d = doubleText(text);
    assertEquals(Float.floatToRawIntBits(Float.parseFloat(f)), Float.floatToRawIntBits((Float) row.get("f")),
        () -> "float of " + f);
    assertEquals(Double.doubleToRawLongBits(Double.parseDouble(d)),
        Double.doubleToRawLongBits((Double) row.get("d")), () -> "double of " + d);
  }
}
