package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading JSON Lines: every type from its plain-JSON form, and every kind of bad input. */
class JsonLinesReadTest {
  @TempDir
  Path dir;

  private static final String EVERY_TYPE = String.join("",
      "{\"f_null\": null, \"f_boolean\": true, \"f_int\": -12, \"f_long\": 9007199254740993, \"f_float\": 1.1,",
      " \"f_double\": -2.25e-3, \"f_bytes\": \"AQID\", \"f_string\": \"h\\u00e9llo, \\\"world\\\"\", \"f_fixed\": \"AAECAw==\",",
      " \"f_enum\": \"GREEN\", \"f_array\": [1, 2, 3], \"f_map\": {\"a\": \"x\", \"b\": \"y\"},",
      " \"f_record\": {\"city\": \"Paris\", \"zip\": 75001, \"geo\": {\"lat\": 48.85, \"lon\": 2.35}},",
      " \"f_nullable_string\": null, \"f_nullable_record\": {\"city\": \"Oslo\", \"geo\": {\"lat\": 59.9, \"lon\": 10}},",
      " \"f_union\": \"text\", \"f_array_of_records\": [{\"lat\": 1, \"lon\": 2}], \"f_map_of_arrays\": {\"k\": [1, null, 3]},",
      " \"f_decimal_bytes\": 1234.5, \"f_decimal_fixed\": \"-0.0001\", \"f_big_decimal\": 3.14159,",
      " \"f_date\": \"2024-01-31\", \"f_time_millis\": \"10:15:30.123\", \"f_time_micros\": \"23:59:59.999999\",",
      " \"f_timestamp_millis\": \"2024-01-31T10:15:30.123Z\", \"f_timestamp_micros\": \"2024-01-31T10:15:30.123456+02:00\",",
      " \"f_timestamp_nanos\": \"2024-01-31 10:15:30\", \"f_local_timestamp_millis\": \"2024-01-31T10:15:30.5\",",
      " \"f_local_timestamp_micros\": 1706696130000000, \"f_local_timestamp_nanos\": \"2024-01-31T10:15:30.123456789\",",
      " \"f_uuid\": \"123e4567-e89b-12d3-a456-426614174000\", \"f_uuid_fixed\": \"123e4567-e89b-12d3-a456-426614174000\",",
      " \"f_duration\": \"AQAAAAIAAAADAAAA\", \"f_nullable_timestamp\": 1706696130123456, \"f_nullable_decimal\": null}");

  @Test
  void readsEveryTypeFromPlainJson() {
    Path file = Inputs.write(dir, "all.jsonl", EVERY_TYPE + "\n");
    List<GenericRecord> records = Inputs.readAll(file, InputFormat.JSON, AllTypes.SCHEMA);
    assertEquals(1, records.size());
    GenericRecord r = records.get(0);
    Schema s = AllTypes.SCHEMA;
    assertEquals(s, r.getSchema());
    assertNull(r.get("f_null"));
    assertEquals(true, r.get("f_boolean"));
    assertEquals(-12, r.get("f_int"));
    assertEquals(9007199254740993L, r.get("f_long"));
    assertEquals(1.1f, r.get("f_float"));
    assertEquals(-2.25e-3, r.get("f_double"));
    assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3}), r.get("f_bytes"));
    assertEquals("héllo, \"world\"", r.get("f_string"));
    assertEquals(new GenericData.Fixed(s.getField("f_fixed").schema(), new byte[] {0, 1, 2, 3}), r.get("f_fixed"));
    assertEquals("GREEN", r.get("f_enum").toString());
    assertEquals(List.of(1L, 2L, 3L), r.get("f_array"));
    assertEquals(Map.of("a", "x", "b", "y"), r.get("f_map"));
    GenericRecord address = (GenericRecord) r.get("f_record");
    assertEquals("Paris", address.get("city"));
    assertEquals(75001, address.get("zip"));
    assertEquals(48.85, ((GenericRecord) address.get("geo")).get("lat"));
    GenericRecord oslo = (GenericRecord) r.get("f_nullable_record");
    assertNull(oslo.get("zip"), "absent nullable field is null");
    assertEquals(10.0, ((GenericRecord) oslo.get("geo")).get("lon"), "a JSON integer is a valid double");
    assertNull(r.get("f_nullable_string"));
    assertEquals("text", r.get("f_union"));
    assertEquals(1.0, ((GenericRecord) ((List<?>) r.get("f_array_of_records")).get(0)).get("lat"));
    assertEquals(Map.of("k", java.util.Arrays.asList(1, null, 3)), r.get("f_map_of_arrays"));

    Schema decBytes = s.getField("f_decimal_bytes").schema();
    assertEquals(new Conversions.DecimalConversion().toBytes(new BigDecimal("1234.50"), decBytes, decBytes.getLogicalType()),
        r.get("f_decimal_bytes"));
    Schema decFixed = s.getField("f_decimal_fixed").schema();
    assertEquals(new Conversions.DecimalConversion().toFixed(new BigDecimal("-0.0001"), decFixed, decFixed.getLogicalType()),
        r.get("f_decimal_fixed"));
    assertEquals(new BigDecimal("3.14159"), new Conversions.BigDecimalConversion()
        .fromBytes((ByteBuffer) r.get("f_big_decimal"), null, LogicalTypes.bigDecimal()));

    assertEquals((int) LocalDate.of(2024, 1, 31).toEpochDay(), r.get("f_date"));
    assertEquals((int) (LocalTime.of(10, 15, 30, 123_000_000).toNanoOfDay() / 1_000_000), r.get("f_time_millis"));
    assertEquals(LocalTime.of(23, 59, 59, 999_999_000).toNanoOfDay() / 1000, r.get("f_time_micros"));
    assertEquals(Instant.parse("2024-01-31T10:15:30.123Z").toEpochMilli(), r.get("f_timestamp_millis"));
    assertEquals(ChronoUnit.MICROS.between(Instant.EPOCH, OffsetDateTime.parse("2024-01-31T10:15:30.123456+02:00").toInstant()),
        r.get("f_timestamp_micros"));
    assertEquals(ChronoUnit.NANOS.between(Instant.EPOCH, Instant.parse("2024-01-31T10:15:30Z")), r.get("f_timestamp_nanos"));
    assertEquals(LocalDateTime.parse("2024-01-31T10:15:30.5").toInstant(ZoneOffset.UTC).toEpochMilli(),
        r.get("f_local_timestamp_millis"));
    assertEquals(1706696130000000L, r.get("f_local_timestamp_micros"));
    assertEquals(ChronoUnit.NANOS.between(Instant.EPOCH, LocalDateTime.parse("2024-01-31T10:15:30.123456789")
        .toInstant(ZoneOffset.UTC)), r.get("f_local_timestamp_nanos"));
    assertEquals("123e4567-e89b-12d3-a456-426614174000", r.get("f_uuid"));
    UUID u = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
    ByteBuffer ub = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
    assertEquals(ByteBuffer.wrap(ub.array()), ByteBuffer.wrap(((GenericFixed) r.get("f_uuid_fixed")).bytes()));
    assertEquals(ByteBuffer.wrap(new byte[] {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}),
        ByteBuffer.wrap(((GenericFixed) r.get("f_duration")).bytes()));
    assertEquals(1706696130123456L, r.get("f_nullable_timestamp"));
    assertNull(r.get("f_nullable_decimal"));
    assertEquals(42, r.get("f_with_default"), "absent field with a default takes the default");
  }

  @Test
  void skipsBlankLinesAndCountsPhysicalLines() {
    Schema schema = Inputs.oneField("\"long\"");
    Path file = Inputs.write(dir, "data.jsonl", "{\"v\": 1}\n\n   \n{\"v\": 2}\r\n\n{\"v\": \"x\"}\n");
    String msg = Inputs.badInput(file, InputFormat.JSON, schema);
    assertEquals("Bad input at data.jsonl:6, field 'v': \"x\" is not a long; expected a whole number", msg);
  }

  @Test
  void wrongTypeMessageNamesFileLineAndField() {
    Schema schema = Inputs.parse("{\"type\":\"record\",\"name\":\"E\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
        + "{\"name\":\"ts\",\"type\":\"long\"}]}");
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i < 17; i++) {
      sb.append("{\"id\": \"r").append(i).append("\", \"ts\": ").append(i).append("}\n");
    }
    sb.append("{\"id\": \"r17\", \"ts\": \"abc\"}\n");
    Path file = Inputs.write(dir, "data.jsonl", sb.toString());
    assertEquals("Bad input at data.jsonl:17, field 'ts': \"abc\" is not a long; expected a whole number",
        Inputs.badInput(file, InputFormat.JSON, schema));
  }

  @Test
  void malformedJsonNamesTheLine() {
    Schema schema = Inputs.oneField("\"long\"");
    Path file = Inputs.write(dir, "broken.jsonl", "{\"v\": 1}\n{\"v\": 2,\n{\"v\": 3}\n");
    String msg = Inputs.badInput(file, InputFormat.JSON, schema);
    assertTrue(msg.startsWith("Bad input at broken.jsonl:2: malformed JSON at line 3, column 1: "), msg);
  }

  @Test
  void twoObjectsOnOneLineAndNonObjectsAreErrors() {
    Schema schema = Inputs.oneField("\"long\"");
    String msg = Inputs.badInput(Inputs.write(dir, "two.jsonl", "{\"v\": 1}\n{\"v\": 2} {\"v\": 3}\n"), InputFormat.JSON, schema);
    assertTrue(msg.startsWith("Bad input at two.jsonl:2: a second JSON value"), msg);
    msg = Inputs.badInput(Inputs.write(dir, "arr.jsonl", "[1, 2]\n"), InputFormat.JSON, schema);
    assertEquals("Bad input at arr.jsonl:1: an array is not a JSON object; expected one JSON object per line", msg);
  }

  @Test
  void nestedFieldPathsAreDotted() {
    Schema schema = Inputs.parse("{\"type\":\"record\",\"name\":\"P\",\"fields\":["
        + "{\"name\":\"address\",\"type\":{\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"city\",\"type\":\"string\"}]}},"
        + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"int\"}},"
        + "{\"name\":\"attrs\",\"type\":[\"null\",{\"type\":\"map\",\"values\":{\"type\":\"array\",\"items\":\"A\"}}]}]}");
    String msg = Inputs.badInput(Inputs.write(dir, "p.jsonl", "{\"address\": {\"city\": 5}, \"tags\": []}\n"),
        InputFormat.JSON, schema);
    assertEquals("Bad input at p.jsonl:1, field 'address.city': 5 is not a string; expected a string", msg);
    msg = Inputs.badInput(Inputs.write(dir, "t.jsonl", "{\"address\": {\"city\": \"x\"}, \"tags\": [1, 2, \"three\"]}\n"),
        InputFormat.JSON, schema);
    assertTrue(msg.startsWith("Bad input at t.jsonl:1, field 'tags[2]': \"three\" is not an int"), msg);
    msg = Inputs.badInput(Inputs.write(dir, "m.jsonl",
        "{\"address\": {\"city\": \"x\"}, \"tags\": [], \"attrs\": {\"k\": [{\"city\": \"y\"}, {}]}}\n"), InputFormat.JSON, schema);
    assertEquals("Bad input at m.jsonl:1, field 'attrs[\"k\"][1].city': is missing; "
        + "expected a value (the field is not nullable and has no default)", msg);
  }

  @Test
  void outOfRangeIntIsAnError() {
    String msg = Inputs.badInput(Inputs.write(dir, "i.jsonl", "{\"v\": 2147483648}\n"), InputFormat.JSON, Inputs.oneField("\"int\""));
    assertEquals("Bad input at i.jsonl:1, field 'v': 2147483648 is out of range for an int; "
        + "expected a whole number between -2147483648 and 2147483647", msg);
    msg = Inputs.badInput(Inputs.write(dir, "l.jsonl", "{\"v\": 9223372036854775808}\n"), InputFormat.JSON, Inputs.oneField("\"long\""));
    assertTrue(msg.contains("9223372036854775808 is out of range for a long"), msg);
    msg = Inputs.badInput(Inputs.write(dir, "f.jsonl", "{\"v\": 1.5}\n"), InputFormat.JSON, Inputs.oneField("\"int\""));
    assertTrue(msg.contains("1.5 is not a whole number"), msg);
  }

  @Test
  void badEnumSymbolBase64AndDateAreErrors() {
    String msg = Inputs.badInput(Inputs.write(dir, "e.jsonl", "{\"v\": \"PURPLE\"}\n"), InputFormat.JSON,
        Inputs.oneField("{\"type\":\"enum\",\"name\":\"Color\",\"symbols\":[\"RED\",\"GREEN\"]}"));
    assertEquals("Bad input at e.jsonl:1, field 'v': \"PURPLE\" is not a symbol of enum Color; expected one of [RED, GREEN]", msg);
    msg = Inputs.badInput(Inputs.write(dir, "b.jsonl", "{\"v\": \"not base64!\"}\n"), InputFormat.JSON, Inputs.oneField("\"bytes\""));
    assertTrue(msg.startsWith("Bad input at b.jsonl:1, field 'v': \"not base64!\" is not valid base64"), msg);
    assertTrue(msg.endsWith("expected base64-encoded bytes"), msg);
    msg = Inputs.badInput(Inputs.write(dir, "d.jsonl", "{\"v\": \"2024-02-30\"}\n"), InputFormat.JSON,
        Inputs.oneField("{\"type\":\"int\",\"logicalType\":\"date\"}"));
    assertTrue(msg.startsWith("Bad input at d.jsonl:1, field 'v': \"2024-02-30\" is not a valid date"), msg);
    assertTrue(msg.endsWith("expected an ISO-8601 date like 2024-01-31, or days since 1970-01-01"), msg);
  }

  @Test
  void missingRequiredFieldAndNullForNonNullable() {
    Schema schema = Inputs.parse("{\"type\":\"record\",\"name\":\"E\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
        + "{\"name\":\"note\",\"type\":[\"null\",\"string\"]}]}");
    List<GenericRecord> ok = Inputs.readAll(Inputs.write(dir, "ok.jsonl", "{\"id\": \"a\"}\n"), InputFormat.JSON, schema);
    assertNull(ok.get(0).get("note"), "a nullable field without default may be absent");
    String msg = Inputs.badInput(Inputs.write(dir, "m.jsonl", "{\"id\": \"a\"}\n{\"note\": \"n\"}\n"), InputFormat.JSON, schema);
    assertEquals("Bad input at m.jsonl:2, field 'id': is missing; expected a value (the field is not nullable and has no default)",
        msg);
    msg = Inputs.badInput(Inputs.write(dir, "n.jsonl", "{\"id\": null}\n"), InputFormat.JSON, schema);
    assertEquals("Bad input at n.jsonl:1, field 'id': is null; expected a string", msg);
  }

  @Test
  void unknownFieldIsAnErrorUnlessIgnored() {
    Schema schema = Inputs.oneField("\"long\"");
    Path file = Inputs.write(dir, "u.jsonl", "{\"v\": 1, \"extra\": {\"deep\": [1, {\"x\": 2}]}}\n");
    String msg = Inputs.badInput(file, InputFormat.JSON, schema);
    assertEquals("Bad input at u.jsonl:1, field 'extra': is not a field of record R; expected only fields [v] "
        + "(or ignore unknown fields)", msg);
    List<GenericRecord> records = Inputs.readAll(file, InputFormat.JSON, schema, InputOptions.defaults().withIgnoreUnknownFields(true));
    assertEquals(1L, records.get(0).get("v"));
  }

  @Test
  void duplicateFieldIsAnError() {
    String msg = Inputs.badInput(Inputs.write(dir, "dup.jsonl", "{\"v\": 1, \"v\": 2}\n"), InputFormat.JSON, Inputs.oneField("\"long\""));
    assertEquals("Bad input at dup.jsonl:1, field 'v': appears more than once in the object; expected each field at most once", msg);
  }

  @Test
  void recordsHaveExactlyTheTableSchema() {
    Schema schema = Inputs.oneField("[\"null\", \"long\"]");
    List<GenericRecord> records = Inputs.readAll(Inputs.write(dir, "s.jsonl", "{\"v\": 1}\n{}\n{\"v\": null}\n"),
        InputFormat.JSON, schema);
    assertEquals(3, records.size());
    for (GenericRecord r : records) {
      assertTrue(r.getSchema() == schema);
    }
    assertEquals(1L, records.get(0).get("v"));
    assertNull(records.get(1).get("v"));
  }
}
