package dev.sluice.internal.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Conversions;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/** The delete list datum against Avro's own generic reader and writer for the schema (reference §7.5). */
class DeleteRecordCodecTest {
  /** Wrapper names in union order, as the reference lists them (branch 0 is null). */
  private static final List<String> WRAPPERS = List.of("BooleanWrapper", "IntWrapper", "LongWrapper", "FloatWrapper",
      "DoubleWrapper", "BytesWrapper", "StringWrapper", "DateWrapper", "DecimalWrapper", "TimeMicrosWrapper",
      "TimestampMicrosWrapper");

  private static final List<DeleteRecord> ALL = List.of(
      new DeleteRecord("k-null", "p", null),
      new DeleteRecord("k-bool", "p", false),
      new DeleteRecord("k-int", "p", -7),
      new DeleteRecord("k-long", "p", Long.MIN_VALUE),
      new DeleteRecord("k-float", "p", 3.5f),
      new DeleteRecord("k-double", "p", 1e300),
      new DeleteRecord("k-bytes", "p", ByteBuffer.wrap(new byte[] {0, -1, 5})),
      new DeleteRecord("k-string", "p", "s\u00fc"),
      new DeleteRecord("k-date", "p", LocalDate.of(1960, 1, 1)),
      new DeleteRecord("k-decimal", "p", new BigDecimal("123456789012345.5")),
      new DeleteRecord("k-time", "p", LocalTime.of(23, 59, 59, 999_999_000)),
      new DeleteRecord("k-ts", "p", Instant.parse("2024-05-06T07:08:09.123456Z")),
      new DeleteRecord(null, null, 1));

  private static byte[] encode(List<DeleteRecord> deletes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    DeleteRecordCodec.encode(deletes, enc);
    enc.flush();
    return out.toByteArray();
  }

  @Test
  void theSchemaHasTheReferencesShape() {
    Schema s = DeleteRecordCodec.schema();
    assertEquals("org.apache.hudi.avro.model.HoodieDeleteRecordList", s.getFullName());
    Schema item = s.getField("deleteRecordList").schema().getElementType();
    assertEquals("org.apache.hudi.avro.model.HoodieDeleteRecord", item.getFullName());
    assertEquals(List.of("recordKey", "partitionPath", "orderingVal"), item.getFields().stream().map(Schema.Field::name).toList());
    List<Schema> branches = item.getField("orderingVal").schema().getTypes();
    assertEquals(Schema.Type.NULL, branches.get(0).getType());
    assertEquals(WRAPPERS, branches.subList(1, 12).stream().map(Schema::getName).toList());
    assertEquals("ArrayWrapper", branches.get(12).getName(), "Hudi 1.1's 13th branch");
    Schema decimal = branches.get(9).getField("value").schema();
    assertEquals("decimal", decimal.getLogicalType().getName());
    assertEquals(30, decimal.getObjectProp("precision"));
    assertEquals(15, decimal.getObjectProp("scale"));
    assertEquals("time-micros", branches.get(10).getField("value").schema().getLogicalType().getName());
    assertNull(branches.get(11).getField("value").schema().getLogicalType(), "timestamps are plain longs");
    assertNull(branches.get(8).getField("value").schema().getLogicalType(), "dates are plain ints");
  }

  @Test
  void aGenericReaderSeesTheWrapperOfEachOrderingType() throws IOException {
    GenericRecord list = new GenericDatumReader<GenericRecord>(DeleteRecordCodec.schema())
        .read(null, DecoderFactory.get().binaryDecoder(encode(ALL), null));
    @SuppressWarnings("unchecked")
    List<GenericRecord> items = (List<GenericRecord>) list.get("deleteRecordList");
    assertEquals(ALL.size(), items.size());
    assertNull(items.get(0).get("orderingVal"));
    for (int i = 1; i <= 11; i++) {
      GenericRecord wrapper = (GenericRecord) items.get(i).get("orderingVal");
      assertEquals(WRAPPERS.get(i - 1), wrapper.getSchema().getName(), ALL.get(i).recordKey());
      assertEquals(ALL.get(i).recordKey(), items.get(i).get("recordKey").toString());
    }
    assertEquals(-7, ((GenericRecord) items.get(2).get("orderingVal")).get("value"));
    assertEquals(Long.MIN_VALUE, ((GenericRecord) items.get(3).get("orderingVal")).get("value"));
    assertEquals((int) LocalDate.of(1960, 1, 1).toEpochDay(), ((GenericRecord) items.get(8).get("orderingVal")).get("value"));
    assertEquals(Instant.parse("2024-05-06T07:08:09.123456Z").getEpochSecond() * 1_000_000 + 123_456,
        ((GenericRecord) items.get(11).get("orderingVal")).get("value"));
    assertEquals((23 * 3600 + 59 * 60 + 59) * 1_000_000L + 999_999, ((GenericRecord) items.get(10).get("orderingVal")).get("value"));
    Schema decimalSchema = ((GenericRecord) items.get(9).get("orderingVal")).getSchema().getField("value").schema();
    ByteBuffer dec = (ByteBuffer) ((GenericRecord) items.get(9).get("orderingVal")).get("value");
    assertEquals(new BigDecimal("123456789012345.500000000000000"),
        new Conversions.DecimalConversion().fromBytes(dec, decimalSchema, decimalSchema.getLogicalType()));
    assertNull(items.get(12).get("recordKey"));
    assertNull(items.get(12).get("partitionPath"));
  }

  @Test
  void theHandEncodingIsByteForByteAvrosGenericEncoding() throws IOException {
    Schema s = DeleteRecordCodec.schema();
    Schema item = s.getField("deleteRecordList").schema().getElementType();
    List<Schema> branches = item.getField("orderingVal").schema().getTypes();
    List<GenericRecord> items = new ArrayList<>();
    for (DeleteRecord d : ALL) {
      GenericRecord r = new GenericData.Record(item);
      r.put("recordKey", d.recordKey());
      r.put("partitionPath", d.partitionPath());
      r.put("orderingVal", genericWrapper(d.orderingValue(), branches));
      items.add(r);
    }
    GenericRecord list = new GenericData.Record(s);
    list.put("deleteRecordList", items);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(s).write(list, enc);
    enc.flush();
    assertArrayEquals(out.toByteArray(), encode(ALL));
    assertArrayEquals(new byte[] {0}, encode(List.of()), "an empty array is a single zero");
  }

  /**
   * Hudi 1.1's delete of a table with several ordering fields carries an {@code ArrayWrapper} (branch 12) of one
   * wrapped value per field, a {@code LocalDateWrapper} (element branch 12) among them: read as the list of values,
   * and written back byte for byte as Avro's generic writer writes it.
   */
  @Test
  void severalOrderingValuesAreReadFromAnArrayWrapper() throws IOException {
    Schema s = DeleteRecordCodec.schema();
    Schema item = s.getField("deleteRecordList").schema().getElementType();
    List<Schema> branches = item.getField("orderingVal").schema().getTypes();
    Schema arrayWrapper = branches.get(12);
    List<Schema> elements = arrayWrapper.getField("wrappedValues").schema().getTypes().get(1).getElementType()
        .getTypes();
    assertEquals("LocalDateWrapper", elements.get(12).getName());
    GenericRecord localDate = new GenericData.Record(elements.get(12));
    localDate.put("value", 19000);
    List<Object> wrapped = new ArrayList<>();
    wrapped.add(genericWrapper(7L, branches));
    wrapped.add(null);
    wrapped.add(genericWrapper("b", branches));
    wrapped.add(localDate);
    GenericRecord array = new GenericData.Record(arrayWrapper);
    array.put("wrappedValues", wrapped);
    GenericRecord noValues = new GenericData.Record(arrayWrapper);
    noValues.put("wrappedValues", null);
    List<GenericRecord> items = new ArrayList<>();
    for (GenericRecord ordering : List.of(array, noValues)) {
      GenericRecord r = new GenericData.Record(item);
      r.put("recordKey", "k" + items.size());
      r.put("partitionPath", "p");
      r.put("orderingVal", ordering);
      items.add(r);
    }
    GenericRecord list = new GenericData.Record(s);
    list.put("deleteRecordList", items);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(s).write(list, enc);
    enc.flush();

    DeleteRecordCodec.Decoding decoding = new DeleteRecordCodec.Decoding(
        DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
    List<DeleteRecord> read = new ArrayList<>();
    while (decoding.hasNext()) {
      read.add(decoding.next());
    }
    List<Object> values = new ArrayList<>();
    values.add(7L);
    values.add(null);
    values.add("b");
    values.add(LocalDate.ofEpochDay(19000));
    assertEquals(List.of(new DeleteRecord("k0", "p", values), new DeleteRecord("k1", "p", null)), read);

    List<Object> written = new ArrayList<>(values.subList(0, 3));
    GenericRecord r = new GenericData.Record(item);
    r.put("recordKey", "k0");
    r.put("partitionPath", "p");
    GenericRecord three = new GenericData.Record(arrayWrapper);
    three.put("wrappedValues", wrapped.subList(0, 3));
    r.put("orderingVal", three);
    GenericRecord one = new GenericData.Record(s);
    one.put("deleteRecordList", List.of(r));
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    BinaryEncoder e2 = EncoderFactory.get().binaryEncoder(expected, null);
    new GenericDatumWriter<GenericRecord>(s).write(one, e2);
    e2.flush();
    assertArrayEquals(expected.toByteArray(), encode(List.of(new DeleteRecord("k0", "p", written))));
  }

  /** The wrapper record Avro's generic writer needs for {@code v}, built from the schema independently. */
  private static GenericRecord genericWrapper(Object v, List<Schema> branches) {
    if (v == null) {
      return null;
    }
    int branch;
    Object value;
    if (v instanceof Boolean) {
      branch = 1;
      value = v;
    } else if (v instanceof Integer) {
      branch = 2;
      value = v;
    } else if (v instanceof Long) {
      branch = 3;
      value = v;
    } else if (v instanceof Float) {
      branch = 4;
      value = v;
    } else if (v instanceof Double) {
      branch = 5;
      value = v;
    } else if (v instanceof ByteBuffer) {
      branch = 6;
      value = v;
    } else if (v instanceof String) {
      branch = 7;
      value = v;
    } else if (v instanceof LocalDate d) {
      branch = 8;
      value = (int) d.toEpochDay();
    } else if (v instanceof BigDecimal d) {
      branch = 9;
      Schema ds = branches.get(9).getField("value").schema();
      value = new Conversions.DecimalConversion().toBytes(d.setScale(15), ds, ds.getLogicalType());
    } else if (v instanceof LocalTime t) {
      branch = 10;
      value = t.toNanoOfDay() / 1000;
    } else {
      Instant ts = (Instant) v;
      branch = 11;
      value = ts.getEpochSecond() * 1_000_000 + ts.getNano() / 1000;
    }
    GenericRecord w = new GenericData.Record(branches.get(branch));
    w.put("value", value);
    return w;
  }
}
