package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Map;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The JSON forms each type accepts and rejects, one value at a time. */
class JsonValueFormsTest {
  private static final String TS_MICROS = "{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}";
  private static final String DATE = "{\"type\":\"int\",\"logicalType\":\"date\"}";
  private static final String TIME_MICROS = "{\"type\":\"long\",\"logicalType\":\"time-micros\"}";
  private static final String DEC_5_2 = "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":5,\"scale\":2}";

  @TempDir
  Path dir;
  private int files;

  private Object read(String type, String literal) {
    Path file = Inputs.write(dir, "v" + files++ + ".jsonl", "{\"v\": " + literal + "}\n");
    return Inputs.readAll(file, InputFormat.JSON, Inputs.oneField(type)).get(0).get("v");
  }

  private String error(String type, String literal) {
    Path file = Inputs.write(dir, "v" + files++ + ".jsonl", "{\"v\": " + literal + "}\n");
    String msg = Inputs.badInput(file, InputFormat.JSON, Inputs.oneField(type));
    assertTrue(msg.startsWith("Bad input at v" + (files - 1) + ".jsonl:1, field 'v': "), msg);
    return msg;
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {"12|12", "\"12\"|12", "-7|-7", "\"+7\"|7", "1.0|1", "1e3|1000", "\"2E2\"|200",
      "9223372036854775807|9223372036854775807"})
  void longForms(String literal, long expected) {
    assertEquals(expected, read("\"long\"", literal));
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"12a\"", "true", "{}", "[]", "1.5", "null", "\"\"", "\" 12\"", "9223372036854775808"})
  void longRejects(String literal) {
    error("\"long\"", literal);
  }

  @Test
  void floatingForms() {
    assertEquals(Double.NaN, read("\"double\"", "\"NaN\""));
    assertEquals(Double.NaN, read("\"double\"", "NaN"));
    assertEquals(Double.NEGATIVE_INFINITY, read("\"double\"", "\"-Infinity\""));
    assertEquals(0.1, read("\"double\"", "0.1"));
    assertEquals(0.1f, read("\"float\"", "0.1"));
    assertEquals(16777217f, read("\"float\"", "16777217"), "parsed as a float directly");
    assertEquals(3.0, read("\"double\"", "\"3\""));
    assertTrue(error("\"double\"", "1e400").contains("1e400 is out of range for a double"));
    assertTrue(error("\"long\"", "1e999999999").contains("is out of range for a long"));
    assertTrue(error("\"float\"", "1e39").contains("out of range for a float"));
    error("\"double\"", "\"0x10\"");
    error("\"double\"", "\"1f\"");
    error("\"double\"", "true");
  }

  @Test
  void booleanForms() {
    assertEquals(true, read("\"boolean\"", "true"));
    assertEquals(false, read("\"boolean\"", "\"FALSE\""));
    error("\"boolean\"", "\"yes\"");
    error("\"boolean\"", "1");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "\"2024-01-31T10:15:30Z\"                | 2024-01-31T10:15:30Z",
      "\"2024-01-31t10:15:30z\"                | 2024-01-31T10:15:30Z",
      "\"2024-01-31 10:15:30\"                 | 2024-01-31T10:15:30Z",
      "\"2024-01-31T10:15:30\"                 | 2024-01-31T10:15:30Z",
      "\"2024-01-31T10:15\"                    | 2024-01-31T10:15:00Z",
      "\"2024-01-31\"                          | 2024-01-31T00:00:00Z",
      "\"2024-01-31T10:15:30.5+05:30\"         | 2024-01-31T04:45:30.5Z",
      "\"2024-01-31T10:15:30-0800\"            | 2024-01-31T18:15:30Z",
      "\"2024-01-31T10:15:30.123456-08\"       | 2024-01-31T18:15:30.123456Z",
      "\"1969-12-31T23:59:59.999999Z\"         | 1969-12-31T23:59:59.999999Z",
      "\"+10000-01-01T00:00:00Z\"              | +10000-01-01T00:00:00Z",
      "1706696130000000                        | 2024-01-31T10:15:30Z",
      "\"1706696130000000\"                    | 2024-01-31T10:15:30Z",
  })
  void timestampForms(String literal, String instant) {
    Instant i = Instant.parse(instant);
    assertEquals(i.getEpochSecond() * 1_000_000L + i.getNano() / 1000, read(TS_MICROS, literal));
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"2024-01-31T25:00:00Z\"", "\"2024-1-31\"", "\"31/01/2024\"", "\"2024-01-31T10:15:30+19:00\"",
      "\"2024-01-31T10:15:30.1234567Z\"", "\"10000-01-01T00:00:00Z\"", "\"2024-01-31T10:15:30Z junk\"", "true"})
  void timestampRejects(String literal) {
    error(TS_MICROS, literal);
  }

  @Test
  void localTimestampRejectsAZone() {
    String local = "{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}";
    assertEquals(Instant.parse("2024-01-31T10:15:30.123Z").toEpochMilli(), read(local, "\"2024-01-31T10:15:30.123\""));
    assertTrue(error(local, "\"2024-01-31T10:15:30Z\"").contains("has a time zone"));
  }

  @Test
  void dateForms() {
    assertEquals((int) LocalDate.of(2024, 1, 31).toEpochDay(), read(DATE, "\"2024-01-31\""));
    assertEquals(19753, read(DATE, "19753"));
    assertEquals(19753, read(DATE, "\"19753\""));
    assertEquals((int) LocalDate.of(-1, 1, 1).toEpochDay(), read(DATE, "\"-0001-01-01\""));
    assertEquals((int) LocalDate.of(10000, 1, 1).toEpochDay(), read(DATE, "\"+10000-01-01\""));
    assertTrue(error(DATE, "\"2024-01-31T00:00\"").contains("is not a date (it has a time of day)"));
    error(DATE, "\"10000-01-01\"");
    error(DATE, "\"2024-02-30\"");
    error(DATE, "3000000000");
  }

  @Test
  void timeForms() {
    assertEquals(LocalTime.of(10, 15).toNanoOfDay() / 1000, read(TIME_MICROS, "\"10:15\""));
    assertEquals(LocalTime.of(10, 15, 30, 123_456_000).toNanoOfDay() / 1000, read(TIME_MICROS, "\"10:15:30.123456\""));
    assertEquals(36_000_000_000L, read(TIME_MICROS, "36000000000"));
    error(TIME_MICROS, "\"24:00:00\"");
    assertTrue(error(TIME_MICROS, "86400000000").contains("is not a time of day (out of range)"));
    error(TIME_MICROS, "-1");
    assertTrue(error(TIME_MICROS, "\"10:15:30.1234567\"").contains("is more precise than microseconds"));
  }

  private static ByteBuffer decimal(String value) {
    Schema s = Inputs.parse(DEC_5_2);
    return new Conversions.DecimalConversion().toBytes(new BigDecimal(value), s, s.getLogicalType());
  }

  @Test
  void decimalForms() {
    assertEquals(decimal("1.50"), read(DEC_5_2, "1.5"));
    assertEquals(decimal("1.50"), read(DEC_5_2, "\"1.500\""));
    assertEquals(decimal("-999.99"), read(DEC_5_2, "-999.99"));
    assertEquals(decimal("100.00"), read(DEC_5_2, "1e2"));
    assertEquals(decimal("0.00"), read(DEC_5_2, "0"));
    assertTrue(error(DEC_5_2, "1000").contains("1000 has more than 3 digits before the decimal point"));
    assertTrue(error(DEC_5_2, "1.234").contains("1.234 has more than 2 decimal places"));
    assertTrue(error(DEC_5_2, "1e999999999").contains("has more than 3 digits before the decimal point"));
    assertTrue(error(DEC_5_2, "1e-999999999").contains("has more than 2 decimal places"));
    assertEquals(decimal("1.20"), read(DEC_5_2, "1.2000000000000000000000000000000000"));
    error(DEC_5_2, "\"abc\"");
    error(DEC_5_2, "true");
  }

  @Test
  void uuidBytesAndFixedForms() {
    String uuid = "{\"type\":\"string\",\"logicalType\":\"uuid\"}";
    assertEquals("123E4567-E89B-12D3-A456-426614174000", read(uuid, "\"123E4567-E89B-12D3-A456-426614174000\""));
    error(uuid, "\"123e4567e89b12d3a456426614174000\"");
    error(uuid, "\"123e4567-e89b-12d3-a456-42661417400g\"");
    assertEquals(ByteBuffer.wrap(new byte[] {(byte) 0xfb, (byte) 0xff}), read("\"bytes\"", "\"+/8=\""));
    assertEquals(ByteBuffer.wrap(new byte[0]), read("\"bytes\"", "\"\""));
    error("\"bytes\"", "\"-_8=\"");
    assertTrue(error("{\"type\":\"fixed\",\"name\":\"F\",\"size\":4}", "\"AQID\"").contains("has 3 bytes, not 4"));
  }

  @Test
  void unionsTakeTheFirstBranchTheValueFits() {
    assertEquals(3_000_000_000L, read("[\"null\", \"int\", \"long\"]", "3000000000"));
    assertEquals(5, read("[\"null\", \"int\", \"long\"]", "5"));
    assertEquals("12", read("[\"null\", \"long\", \"string\"]", "\"12\""), "numeric types take only numbers in unions");
    assertEquals(12L, read("[\"null\", \"long\", \"string\"]", "12"));
    assertEquals("true", read("[\"boolean\", \"string\"]", "\"true\""));
    assertEquals(2.5, read("[\"long\", \"double\"]", "2.5"));
    String recordOrMap = "[\"null\", {\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]},"
        + " {\"type\":\"map\",\"values\":\"string\"}]";
    assertEquals(Map.of("x", "y"), read(recordOrMap, "{\"x\": \"y\"}"));
    GenericRecord a = (GenericRecord) read(recordOrMap, "{\"a\": 1}");
    assertEquals(1, a.get("a"));
    String enumOrString = "[\"null\", {\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"RED\"]}, \"string\"]";
    assertTrue(read(enumOrString, "\"RED\"") instanceof GenericData.EnumSymbol);
    assertEquals("BLUE", read(enumOrString, "\"BLUE\""));
    assertTrue(error("[\"int\", \"string\"]", "true").contains("true does not fit any type of the union [int, string]"));
    assertTrue(error("[\"int\", \"string\"]", "null").contains("is null"));
    assertTrue(error("[\"null\", \"int\"]", "\"x\"").contains("\"x\" is not an int"), "a nullable union reports the inner type");
  }
}
