package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading Avro container files resolved to the table schema. */
class AvroFileSourceTest {
  @TempDir
  Path dir;

  static Path writeAvro(Path file, Schema schema, List<GenericRecord> records) throws IOException {
    try (DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<>(schema))) {
      w.create(schema, file.toFile());
      for (GenericRecord r : records) {
        w.append(r);
      }
    }
    return file;
  }

  @Test
  void readsEveryTypeWithTheSameSchema() throws IOException {
    List<GenericRecord> records = AllTypes.records(42, 50);
    Path file = writeAvro(dir.resolve("all.avro"), AllTypes.SCHEMA, records);
    assertEquals(records, Inputs.readAll(file, InputFormat.AVRO, AllTypes.SCHEMA));
  }

  @Test
  void resolvesByFieldNameWithPromotionsDefaultsAndUnitConversions() throws IOException {
    Schema writer = Inputs.parse("{\"type\":\"record\",\"name\":\"UserEvent\",\"namespace\":\"other\",\"fields\":["
        + "{\"name\":\"ts\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
        + "{\"name\":\"n\",\"type\":\"int\"},"
        + "{\"name\":\"ratio\",\"type\":\"float\"},"
        + "{\"name\":\"amount\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":6,\"scale\":1}},"
        + "{\"name\":\"nested\",\"type\":{\"type\":\"record\",\"name\":\"Inner\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}},"
        + "{\"name\":\"id\",\"type\":\"string\"}]}");
    Schema table = Inputs.parse("{\"type\":\"record\",\"name\":\"table_record\",\"namespace\":\"hoodie\",\"fields\":["
        + "{\"name\":\"id\",\"type\":\"string\"},"
        + "{\"name\":\"n\",\"type\":\"long\"},"
        + "{\"name\":\"ratio\",\"type\":[\"null\",\"double\"],\"default\":null},"
        + "{\"name\":\"ts\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}},"
        + "{\"name\":\"amount\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":10,\"scale\":2}},"
        + "{\"name\":\"nested\",\"type\":{\"type\":\"record\",\"name\":\"nested\",\"fields\":[{\"name\":\"x\",\"type\":\"long\"}]}},"
        + "{\"name\":\"note\",\"type\":[\"null\",\"string\"]},"
        + "{\"name\":\"level\",\"type\":\"int\",\"default\":7}]}");
    Schema dec1 = writer.getField("amount").schema();
    GenericData.Record r = new GenericData.Record(writer);
    r.put("ts", 1_706_696_130_123L);
    r.put("n", 5);
    r.put("ratio", 0.5f);
    r.put("amount", new Conversions.DecimalConversion().toBytes(new BigDecimal("12.5"), dec1, dec1.getLogicalType()));
    GenericData.Record inner = new GenericData.Record(writer.getField("nested").schema());
    inner.put("x", 3);
    r.put("nested", inner);
    r.put("id", "k1");
    Path file = writeAvro(dir.resolve("events.avro"), writer, List.of(r));

    GenericRecord out = Inputs.readAll(file, InputFormat.AVRO, table).get(0);
    assertTrue(out.getSchema() == table);
    assertEquals("k1", out.get("id"));
    assertEquals(5L, out.get("n"));
    assertEquals(0.5, out.get("ratio"));
    assertEquals(1_706_696_130_123_000L, out.get("ts"), "milliseconds become microseconds, not reinterpreted");
    Schema dec2 = table.getField("amount").schema();
    assertEquals(new Conversions.DecimalConversion().toBytes(new BigDecimal("12.50"), dec2, dec2.getLogicalType()), out.get("amount"),
        "scale 1 is rescaled to 2");
    assertEquals(3L, ((GenericRecord) out.get("nested")).get("x"));
    assertNull(out.get("note"), "nullable field missing from the file is null");
    assertEquals(7, out.get("level"), "field missing from the file takes the default");
    assertTrue(out.get("id") instanceof String, "strings come out as java.lang.String");
  }

  @Test
  void incompatibleSchemaNamesTheFileAndField() throws IOException {
    Schema writer = Inputs.parse("{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
        + "{\"name\":\"addr\",\"type\":{\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"zip\",\"type\":\"string\"}]}}]}");
    Schema table = Inputs.parse("{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
        + "{\"name\":\"addr\",\"type\":{\"type\":\"record\",\"name\":\"B\",\"fields\":[{\"name\":\"zip\",\"type\":\"long\"}]}}]}");
    GenericData.Record r = new GenericData.Record(writer);
    r.put("id", "a");
    GenericData.Record a = new GenericData.Record(writer.getField("addr").schema());
    a.put("zip", "x");
    r.put("addr", a);
    Path file = writeAvro(dir.resolve("bad.avro"), writer, List.of(r));
    assertEquals("Bad input at bad.avro, field 'addr.zip': has type string in the file, which cannot be read as long; "
        + "expected a file type that converts to long", Inputs.badInput(file, InputFormat.AVRO, table));
  }

  @Test
  void missingRequiredFieldAndExtraFieldAreErrors() throws IOException {
    Schema writer = Inputs.parse("{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
        + "{\"name\":\"extra\",\"type\":\"int\"}]}");
    GenericData.Record r = new GenericData.Record(writer);
    r.put("id", "a");
    r.put("extra", 1);
    Path file = writeAvro(dir.resolve("w.avro"), writer, List.of(r));
    Schema needsTs = Inputs.parse("{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
        + "{\"name\":\"ts\",\"type\":\"long\"}]}");
    assertEquals("Bad input at w.avro, field 'ts': is not in the file; "
        + "expected every table field that is not nullable and has no default",
        Inputs.badInput(file, InputFormat.AVRO, needsTs, InputOptions.defaults().withIgnoreUnknownFields(true)));
    Schema idOnly = Inputs.parse("{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}");
    assertEquals("Bad input at w.avro, field 'extra': is in the file but not in the table schema; "
        + "expected only table fields [id] (or ignore unknown fields)", Inputs.badInput(file, InputFormat.AVRO, idOnly));
    assertEquals("a", Inputs.readAll(file, InputFormat.AVRO, idOnly, InputOptions.defaults().withIgnoreUnknownFields(true))
        .get(0).get("id"));
  }

  @Test
  void valueErrorsNameTheRecordNumber() throws IOException {
    Schema writer = Inputs.parse("{\"type\":\"record\",\"name\":\"W\",\"fields\":["
        + "{\"name\":\"x\",\"type\":[\"null\",\"long\"]},"
        + "{\"name\":\"c\",\"type\":{\"type\":\"enum\",\"name\":\"C\",\"symbols\":[\"RED\",\"BLUE\"]}}]}");
    Schema table = Inputs.parse("{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"x\",\"type\":\"long\"},"
        + "{\"name\":\"c\",\"type\":{\"type\":\"enum\",\"name\":\"Color\",\"symbols\":[\"RED\"]}}]}");
    Schema enumSchema = writer.getField("c").schema();
    GenericData.Record ok = new GenericData.Record(writer);
    ok.put("x", 1L);
    ok.put("c", new GenericData.EnumSymbol(enumSchema, "RED"));
    GenericData.Record nullX = new GenericData.Record(writer);
    nullX.put("x", null);
    nullX.put("c", new GenericData.EnumSymbol(enumSchema, "RED"));
    GenericData.Record blue = new GenericData.Record(writer);
    blue.put("x", 2L);
    blue.put("c", new GenericData.EnumSymbol(enumSchema, "BLUE"));
    Path f1 = writeAvro(dir.resolve("n.avro"), writer, List.of(ok, ok, nullX));
    assertEquals("Bad input at n.avro: record 3, field 'x': is null; expected a whole number",
        Inputs.badInput(f1, InputFormat.AVRO, table));
    Path f2 = writeAvro(dir.resolve("e.avro"), writer, List.of(ok, blue));
    assertEquals("Bad input at e.avro: record 2, field 'c': \"BLUE\" is not a symbol of enum Color; expected one of [RED]",
        Inputs.badInput(f2, InputFormat.AVRO, table));
  }

  @Test
  void decimalPrecisionAndLossyUnitsAreCheckedPerValue() throws IOException {
    Schema writer = Inputs.parse("{\"type\":\"record\",\"name\":\"W\",\"fields\":["
        + "{\"name\":\"d\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":20,\"scale\":3}},"
        + "{\"name\":\"t\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}}]}");
    Schema table = Inputs.parse("{\"type\":\"record\",\"name\":\"T\",\"fields\":["
        + "{\"name\":\"d\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":5,\"scale\":2}},"
        + "{\"name\":\"t\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}}]}");
    Schema ds = writer.getField("d").schema();
    Conversions.DecimalConversion conv = new Conversions.DecimalConversion();
    GenericData.Record good = new GenericData.Record(writer);
    good.put("d", conv.toBytes(new BigDecimal("123.450"), ds, ds.getLogicalType()));
    good.put("t", 5_000L);
    GenericData.Record tooPrecise = new GenericData.Record(writer);
    tooPrecise.put("d", conv.toBytes(new BigDecimal("1.005"), ds, ds.getLogicalType()));
    tooPrecise.put("t", 5_000L);
    GenericData.Record lossyTime = new GenericData.Record(writer);
    lossyTime.put("d", conv.toBytes(new BigDecimal("1.000"), ds, ds.getLogicalType()));
    lossyTime.put("t", 5_001L);
    Path f = writeAvro(dir.resolve("d.avro"), writer, List.of(good, tooPrecise));
    assertEquals("Bad input at d.avro: record 2, field 'd': 1.005 has more than 2 decimal places; "
        + "expected a decimal number with at most 5 digits, 2 of them after the point", Inputs.badInput(f, InputFormat.AVRO, table));
    Path g = writeAvro(dir.resolve("t.avro"), writer, List.of(good, lossyTime));
    assertTrue(Inputs.badInput(g, InputFormat.AVRO, table).startsWith(
        "Bad input at t.avro: record 2, field 't': 5001 microseconds is more precise than milliseconds"));
    List<GenericRecord> ok = Inputs.readAll(writeAvro(dir.resolve("ok.avro"), writer, List.of(good)), InputFormat.AVRO, table);
    assertEquals(5L, ok.get(0).get("t"));
  }

  @Test
  void notAnAvroFile() {
    Path file = Inputs.write(dir, "fake.avro", "{\"not\": \"avro\"}");
    String msg = Inputs.badInput(file, InputFormat.AVRO, AllTypes.SCHEMA);
    assertTrue(msg.startsWith("Bad input at fake.avro: not a readable Avro container file"), msg);
  }
}
