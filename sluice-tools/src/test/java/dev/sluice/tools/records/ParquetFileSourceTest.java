package dev.sluice.tools.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading Parquet files resolved to the table schema by field name. */
class ParquetFileSourceTest {
  @TempDir
  Path dir;

  static Path writeParquet(Path file, Schema schema, List<GenericRecord> records) throws IOException {
    PlainParquetConfiguration conf = new PlainParquetConfiguration();
    // Three-level lists, as Hudi and Spark write them; the default two-level form cannot hold null elements.
    conf.set("parquet.avro.write-old-list-structure", "false");
    try (ParquetWriter<GenericRecord> w = AvroParquetWriter.<GenericRecord>builder(new LocalOutputFile(file))
        .withConf(conf).withSchema(schema).withDataModel(GenericData.get()).build()) {
      for (GenericRecord r : records) {
        w.write(r);
      }
    }
    return file;
  }

  @Test
  void readsEveryTypeWrittenByParquetAvro() throws IOException {
    List<GenericRecord> records = AllTypes.records(7, 40).stream()
        .map(r -> AllTypes.project(r, AllTypes.PARQUET_SCHEMA)).toList();
    Path file = writeParquet(dir.resolve("all.parquet"), AllTypes.PARQUET_SCHEMA, records);
    assertEquals(records, Inputs.readAll(file, InputFormat.PARQUET, AllTypes.PARQUET_SCHEMA));
  }

  @Test
  void resolvesByNameWithPromotionsAndMissingNullable() throws IOException {
    Schema writer = Inputs.parse("{\"type\":\"record\",\"name\":\"spark_schema\",\"fields\":["
        + "{\"name\":\"n\",\"type\":\"int\"},{\"name\":\"f\",\"type\":[\"null\",\"float\"]},"
        + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}}]}");
    Schema table = Inputs.parse("{\"type\":\"record\",\"name\":\"T\",\"fields\":["
        + "{\"name\":\"tags\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"string\"]}]},"
        + "{\"name\":\"n\",\"type\":\"long\"},{\"name\":\"f\",\"type\":[\"null\",\"double\"]},"
        + "{\"name\":\"missing\",\"type\":[\"null\",\"string\"]}]}");
    GenericData.Record r = new GenericData.Record(writer);
    r.put("n", 3);
    r.put("f", 1.5f);
    r.put("tags", new GenericData.Array<>(writer.getField("tags").schema(), List.of("a", "b")));
    GenericRecord out = Inputs.readAll(writeParquet(dir.resolve("p.parquet"), writer, List.of(r)), InputFormat.PARQUET, table).get(0);
    assertEquals(3L, out.get("n"));
    assertEquals(1.5, out.get("f"));
    assertEquals(List.of("a", "b"), out.get("tags"));
    assertNull(out.get("missing"));
  }

  @Test
  void incompatibleTypeAndUnknownColumnNameTheField() throws IOException {
    Schema writer = Inputs.parse("{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
        + "{\"name\":\"more\",\"type\":\"int\"}]}");
    GenericData.Record r = new GenericData.Record(writer);
    r.put("id", "x");
    r.put("more", 1);
    Path file = writeParquet(dir.resolve("w.parquet"), writer, List.of(r));
    Schema longId = Inputs.parse("{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
        + "{\"name\":\"more\",\"type\":\"int\"}]}");
    assertEquals("Bad input at w.parquet, field 'id': has type string in the file, which cannot be read as long; "
        + "expected a file type that converts to long", Inputs.badInput(file, InputFormat.PARQUET, longId));
    Schema idOnly = Inputs.parse("{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}");
    assertTrue(Inputs.badInput(file, InputFormat.PARQUET, idOnly).startsWith(
        "Bad input at w.parquet, field 'more': is in the file but not in the table schema"));
    assertEquals("x", Inputs.readAll(file, InputFormat.PARQUET, idOnly, InputOptions.defaults().withIgnoreUnknownFields(true))
        .get(0).get("id"));
  }

  @Test
  void readsSparkStyleIntDecimalsAndInt96Timestamps() throws IOException {
    MessageType type = MessageTypeParser.parseMessageType("message spark_schema {"
        + " required int32 d32 (DECIMAL(9,2)); optional int64 d64 (DECIMAL(18,3)); optional int96 ts;"
        + " optional group xs (LIST) { repeated group list { optional int32 element (DECIMAL(5,1)); } } }");
    Path file = dir.resolve("spark.parquet");
    Instant when = Instant.parse("2024-01-31T10:15:30.123456Z");
    long julianDay = 2_440_588L + Math.floorDiv(when.getEpochSecond(), 86_400L);
    long nanoOfDay = Math.floorMod(when.getEpochSecond(), 86_400L) * 1_000_000_000L + when.getNano();
    byte[] int96 = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putLong(nanoOfDay).putInt((int) julianDay).array();
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(file))
        .withConf(new PlainParquetConfiguration()).withType(type).build()) {
      Group g = new SimpleGroupFactory(type).newGroup().append("d32", 12345).append("d64", -5L)
          .append("ts", Binary.fromConstantByteArray(int96));
      g.addGroup("xs").addGroup("list").append("element", 15);
      w.write(g);
    }
    Schema table = Inputs.parse("{\"type\":\"record\",\"name\":\"T\",\"fields\":["
        + "{\"name\":\"d32\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}},"
        + "{\"name\":\"d64\",\"type\":[\"null\",{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":18,\"scale\":3}]},"
        + "{\"name\":\"ts\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}]},"
        + "{\"name\":\"xs\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",{\"type\":\"bytes\",\"logicalType\":\"decimal\","
        + "\"precision\":6,\"scale\":2}]}]}]}");
    GenericRecord out = Inputs.readAll(file, InputFormat.PARQUET, table).get(0);
    Conversions.DecimalConversion conv = new Conversions.DecimalConversion();
    Schema d32 = table.getField("d32").schema();
    assertEquals(conv.toBytes(new BigDecimal("123.45"), d32, d32.getLogicalType()), out.get("d32"));
    Schema d64 = table.getField("d64").schema().getTypes().get(1);
    assertEquals(conv.toBytes(new BigDecimal("-0.005"), d64, d64.getLogicalType()), out.get("d64"));
    assertEquals(ChronoUnit.MICROS.between(Instant.EPOCH, when), out.get("ts"));
    Schema x = table.getField("xs").schema().getTypes().get(1).getElementType().getTypes().get(1);
    assertEquals(List.of(conv.toBytes(new BigDecimal("1.50"), x, x.getLogicalType())), out.get("xs"));
  }

  @Test
  void notAParquetFile() {
    Path file = Inputs.write(dir, "fake.parquet", "definitely not parquet");
    assertTrue(Inputs.badInput(file, InputFormat.PARQUET, AllTypes.SCHEMA).startsWith(
        "Bad input at fake.parquet: not a readable Parquet file"));
  }
}
