package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;
import java.util.UUID;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaseFileWriterTest {
  private final Storage storage = new LocalStorage();

  @TempDir
  Path dir;

  @Test
  void existingFileIsNotOverwritten() throws IOException {
    Path p = dir.resolve("taken.parquet");
    Files.writeString(p, "keep me");
    SluiceException e = assertThrows(SluiceException.class, () -> BaseFileWriter.open(storage, p.toString(),
        TestRecords.WITH_META, BaseFileWriterOptions.defaults()));
    assertEquals(SluiceException.Kind.STORAGE, e.kind());
    assertEquals("keep me", Files.readString(p));
  }

  @Test
  void schemaWithoutMetaFieldsIsRejectedBeforeWriting() {
    Path p = dir.resolve("nometa.parquet");
    SluiceException e = assertThrows(SluiceException.class, () -> BaseFileWriter.open(storage, p.toString(),
        TestRecords.USER, BaseFileWriterOptions.defaults()));
    assertEquals(SluiceException.Kind.INTERNAL, e.kind());
    assertTrue(Files.notExists(p));
  }

  @Test
  void badRecordFailsTheWriterAndLeavesTheFileForCleanup() {
    Path p = dir.resolve("bad.parquet");
    BaseFileWriter w = BaseFileWriter.open(storage, p.toString(), TestRecords.WITH_META,
        BaseFileWriterOptions.defaults());
    w.write(TestRecords.record(0, "bad.parquet"));
    GenericRecord bad = TestRecords.record(1, "bad.parquet");
    bad.put("s", null);
    SluiceException e = assertThrows(SluiceException.class, () -> w.write(bad));
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    assertTrue(e.getMessage().contains("record 2") && e.getMessage().contains("key-1"), e.getMessage());
    assertThrows(SluiceException.class, () -> w.write(TestRecords.record(2, "bad.parquet")));
    assertThrows(SluiceException.class, w::finish);
    w.close();
    w.close();
    assertTrue(Files.exists(p));
    assertThrows(SluiceException.class, () -> BaseFileReader.open(storage, p.toString()));
  }

  @Test
  void recordWithoutKeyIsRejected() {
    Path p = dir.resolve("nokey.parquet");
    try (BaseFileWriter w = BaseFileWriter.open(storage, p.toString(), TestRecords.WITH_META,
        BaseFileWriterOptions.defaults())) {
      GenericRecord r = TestRecords.record(0, "nokey.parquet");
      r.put(MetaFields.RECORD_KEY, null);
      assertThrows(SluiceException.class, () -> w.write(r));
    }
  }

  @Test
  void recordOfAnotherSchemaIsRejected() {
    Path p = dir.resolve("other.parquet");
    Schema other = MetaFields.withMetaFields(SchemaBuilder.record("everything").namespace("sluice.test").fields()
        .requiredString("id").endRecord());
    GenericData.Record r = new GenericData.Record(other);
    r.put(MetaFields.RECORD_KEY, "k");
    r.put("id", "x");
    try (BaseFileWriter w = BaseFileWriter.open(storage, p.toString(), TestRecords.WITH_META,
        BaseFileWriterOptions.defaults())) {
      // an equal schema parsed separately is fine
      Schema same = new Schema.Parser().parse(TestRecords.WITH_META.toString());
      GenericData.Record ok = new GenericData.Record(same);
      GenericRecord full = TestRecords.record(0, "other.parquet");
      for (Schema.Field f : same.getFields()) {
        ok.put(f.pos(), full.get(f.pos()));
      }
      w.write(ok);
      SluiceException e = assertThrows(SluiceException.class, () -> w.write(r));
      assertEquals(SluiceException.Kind.INTERNAL, e.kind());
      assertEquals(1, w.finish().recordCount());
    }
  }

  @Test
  void closeWithoutFinishReleasesAndKeepsPartialFile() {
    Path p = dir.resolve("partial.parquet");
    BaseFileWriter w = BaseFileWriter.open(storage, p.toString(), TestRecords.WITH_META,
        BaseFileWriterOptions.defaults());
    for (int i = 0; i < 10; i++) {
      w.write(TestRecords.record(i, "partial.parquet"));
    }
    w.close();
    assertTrue(Files.exists(p));
    assertThrows(SluiceException.class, w::finish);
  }

  @Test
  void estimatedBytesTracksWrittenAndBufferedData() {
    Path p = dir.resolve("size.parquet");
    try (BaseFileWriter w = BaseFileWriter.open(storage, p.toString(), TestRecords.WITH_META,
        BaseFileWriterOptions.defaults())) {
      long last = w.estimatedBytes();
      assertEquals(4, last); // the leading magic "PAR1"
      for (int i = 0; i < 3000; i++) {
        w.write(TestRecords.record(i, "size.parquet"));
        if (i % 500 == 499) {
          long now = w.estimatedBytes();
          assertTrue(now > last, "estimate did not grow: " + now + " <= " + last);
          last = now;
        }
      }
      long beforeFinish = w.estimatedBytes();
      WrittenFile f = w.finish();
      // all rows are still buffered in one row group, so only the buffered part of the estimate sees them; it is
      // an estimate (encoded, partly uncompressed), so compare within a factor of two of the data's final size
      long bloomChars = 4 * ((13 + 12 + 13 + (2_587_966 + 7) / 8 + 2) / 3);
      long data = f.sizeBytes() - bloomChars;
      assertTrue(beforeFinish > data / 2 && beforeFinish < data * 2, "estimate " + beforeFinish + ", data " + data);
    }
  }

  @Test
  void acceptsJavaFormsOfLogicalTypes() {
    Schema dec = LogicalTypes.decimal(12, 3).addToSchema(Schema.create(Schema.Type.BYTES));
    Schema decFixed = LogicalTypes.decimal(9, 2).addToSchema(Schema.createFixed("d5", null, "t", 5));
    Schema user = SchemaBuilder.record("logical").namespace("t").fields()
        .name("dec").type(dec).noDefault()
        .name("dec_fixed").type(decFixed).noDefault()
        .name("day").type(LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT))).noDefault()
        .name("tod").type(LogicalTypes.timeMicros().addToSchema(Schema.create(Schema.Type.LONG))).noDefault()
        .name("ts").type(LogicalTypes.timestampMicros().addToSchema(Schema.create(Schema.Type.LONG))).noDefault()
        .name("tsm").type(LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG))).noDefault()
        .name("id").type(LogicalTypes.uuid().addToSchema(Schema.create(Schema.Type.STRING))).noDefault()
        .endRecord();
    Schema schema = MetaFields.withMetaFields(user);
    BigDecimal amount = new BigDecimal("-12345.678");
    BigDecimal small = new BigDecimal("9876.54");
    Instant ts = Instant.parse("2026-03-04T05:06:07.123456Z");
    UUID uuid = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
    GenericData.Record r = new GenericData.Record(schema);
    r.put(MetaFields.RECORD_KEY, "k");
    r.put("dec", amount);
    r.put("dec_fixed", small);
    r.put("day", LocalDate.of(2026, 3, 4));
    r.put("tod", LocalTime.of(13, 14, 15, 16_000));
    r.put("ts", ts);
    r.put("tsm", ts);
    r.put("id", uuid);
    String p = dir.resolve("logical.parquet").toString();
    try (BaseFileWriter w = BaseFileWriter.open(storage, p, schema, BaseFileWriterOptions.defaults())) {
      w.write(r);
      w.finish();
    }
    try (BaseFileReader reader = BaseFileReader.open(storage, p)) {
      List<GenericRecord> read = BaseFileRoundTripTest.readAll(reader.read(schema));
      GenericRecord g = read.get(0);
      Conversions.DecimalConversion dc = new Conversions.DecimalConversion();
      assertEquals(amount, dc.fromBytes((java.nio.ByteBuffer) g.get("dec"), dec, dec.getLogicalType()));
      assertEquals(small, dc.fromFixed((GenericFixed) g.get("dec_fixed"), decFixed, decFixed.getLogicalType()));
      assertEquals((int) LocalDate.of(2026, 3, 4).toEpochDay(), g.get("day"));
      assertEquals(LocalTime.of(13, 14, 15, 16_000).toNanoOfDay() / 1000, g.get("tod"));
      assertEquals(ts.getEpochSecond() * 1_000_000 + 123_456, g.get("ts"));
      assertEquals(ts.toEpochMilli(), g.get("tsm"));
      assertEquals(uuid.toString(), g.get("id").toString());
    }
  }
}
