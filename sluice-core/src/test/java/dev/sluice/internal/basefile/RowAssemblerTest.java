package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RowAssemblerTest {
  private static final Storage STORAGE = new LocalStorage();
  private static final int ROWS = 1500;

  @TempDir
  static Path dir;

  private static String path;

  /** The test schema without the one field (a three-branch union) the assembler leaves to parquet-avro. */
  private static final Schema SCHEMA = TestRecords.without(TestRecords.WITH_META, "multi");

  /** Several row groups and pages, dictionary and plain pages (repeating and unique strings). */
  @BeforeAll
  static void writeFile() {
    path = dir.resolve("f.parquet").toString();
    try (BaseFileWriter w = BaseFileWriter.open(STORAGE, path, SCHEMA,
        BaseFileWriterOptions.defaults().withRowGroupSize(64 * 1024).withPageSize(2048))) {
      for (int i = 0; i < ROWS; i++) {
        w.write(TestRecords.projected(TestRecords.record(i, "f.parquet"), SCHEMA));
      }
      w.finish();
    }
  }

  private static List<GenericRecord> read(Schema projection, boolean direct) {
    return read(path, projection, direct);
  }

  private static List<GenericRecord> read(String file, Schema projection, boolean direct) {
    List<GenericRecord> out = new ArrayList<>();
    try (BaseFileReader r = BaseFileReader.open(STORAGE, file);
        CloseableIterator<GenericRecord> it = r.read(projection, FilterCompat.NOOP, direct)) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  /** Equal values of the same classes, all the way down (Utf8 is not String, Array is not ArrayList). */
  private static void assertSame(Object expected, Object actual, String where) {
    if (expected == null || actual == null) {
      assertEquals(expected, actual, where);
      return;
    }
    assertEquals(expected.getClass(), actual.getClass(), where);
    if (expected instanceof GenericRecord e) {
      GenericRecord a = (GenericRecord) actual;
      assertEquals(e.getSchema(), a.getSchema(), where);
      for (Schema.Field f : e.getSchema().getFields()) {
        assertSame(e.get(f.pos()), a.get(f.pos()), where + "." + f.name());
      }
    } else if (expected instanceof Collection<?> e) {
      Collection<?> a = (Collection<?>) actual;
      assertEquals(e.size(), a.size(), where);
      Iterator<?> ia = a.iterator();
      int i = 0;
      for (Object x : e) {
        assertSame(x, ia.next(), where + "[" + i++ + "]");
      }
    } else if (expected instanceof Map<?, ?> e) {
      Map<?, ?> a = (Map<?, ?>) actual;
      assertEquals(e.keySet(), a.keySet(), where);
      for (Map.Entry<?, ?> x : e.entrySet()) {
        assertSame(x.getValue(), a.get(x.getKey()), where + "{" + x.getKey() + "}");
      }
    } else if (expected instanceof ByteBuffer e) {
      assertEquals(e, actual, where);
    } else {
      assertEquals(expected, actual, where);
    }
  }

  private static void sameAsParquetAvro(Schema projection) {
    List<GenericRecord> viaAvro = read(projection, false);
    List<GenericRecord> direct = read(projection, true);
    assertEquals(ROWS, viaAvro.size());
    assertEquals(viaAvro.size(), direct.size());
    for (int i = 0; i < ROWS; i++) {
      assertSame(viaAvro.get(i), direct.get(i), "row " + i);
    }
  }

  @Test
  void readsEveryShapeAsParquetAvroDoes() {
    assertTrue(RowAssembler.compile(SCHEMA, Projection.requested(fileSchema(), SCHEMA)).isPresent());
    sameAsParquetAvro(SCHEMA);
  }

  @Test
  void readsProjectionsAndPrunedNestedRecords() {
    Schema inner = SCHEMA.getField("nested").schema();
    // another name: one schema cannot define "inner" twice (and parquet-avro matches fields by name anyway)
    Schema innerX = Schema.createRecord("inner_x", null, inner.getNamespace(), false,
        List.of(new Schema.Field("x", Schema.create(Schema.Type.INT))));
    Schema projection = Schema.createRecord(SCHEMA.getName(), null, SCHEMA.getNamespace(), false, List.of(
        new Schema.Field(SCHEMA.getField("mrec"), SCHEMA.getField("mrec").schema()),
        new Schema.Field("nested", innerX),
        new Schema.Field(SCHEMA.getField(MetaFields.RECORD_KEY), SCHEMA.getField(MetaFields.RECORD_KEY).schema()),
        new Schema.Field(SCHEMA.getField("recs"), SCHEMA.getField("recs").schema())));
    sameAsParquetAvro(projection);
  }

  /**
   * Parquet's v2 writer delta-encodes some columns, which Sluice's column reader leaves to Parquet's: one row
   * group then mixes the two readers, and the rows are still parquet-avro's.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void readsV2FilesMixingBothColumnReaders(boolean dictionary) throws IOException {
    String v2 = dir.resolve("v2-" + dictionary + ".parquet").toString();
    try (ParquetWriter<GenericRecord> w = AvroParquetWriter.<GenericRecord>builder(new StorageOutputFile(STORAGE, v2))
        .withSchema(SCHEMA).withWriterVersion(WriterVersion.PARQUET_2_0).withDictionaryEncoding(dictionary)
        .withPageSize(2048).withRowGroupSize(64 * 1024L).build()) {
      for (int i = 0; i < ROWS; i++) {
        w.write(TestRecords.projected(TestRecords.record(i, "f.parquet"), SCHEMA));
      }
    }
    try (ParquetFileReader f = ParquetFileReader.open(new StorageInputFile(STORAGE, v2))) {
      List<ColumnDescriptor> columns = f.getFooter().getFileMetaData().getSchema().getColumns();
      long own = columns.stream().filter(c -> CopyColumnReader.readsAll(c, f.getRowGroups())).count();
      assertTrue(own > 0 && own < columns.size(), own + " of " + columns.size() + " columns read by Sluice's reader");
      assertTrue(f.getRowGroups().size() > 1, "several row groups");
    }
    List<GenericRecord> viaAvro = read(v2, SCHEMA, false);
    List<GenericRecord> direct = read(v2, SCHEMA, true);
    assertEquals(ROWS, viaAvro.size());
    assertEquals(ROWS, direct.size());
    for (int i = 0; i < ROWS; i++) {
      assertSame(viaAvro.get(i), direct.get(i), "row " + i);
    }
  }

  @Test
  void declinesWhatItDoesNotReproduce() {
    Schema full = TestRecords.WITH_META;
    assertFalse(RowAssembler.compile(full, Projection.requested(fileSchemaOf(full), full)).isPresent(),
        "three-branch union");
    Schema promoted = Schema.createRecord("r", null, "t", false,
        List.of(new Schema.Field("i", Schema.create(Schema.Type.LONG))));
    assertFalse(RowAssembler.compile(promoted, Projection.requested(fileSchema(), promoted)).isPresent(),
        "int column read as long");
  }

  private static org.apache.parquet.schema.MessageType fileSchema() {
    return fileSchemaOf(SCHEMA);
  }

  private static org.apache.parquet.schema.MessageType fileSchemaOf(Schema s) {
    return new org.apache.parquet.avro.AvroSchemaConverter(ParquetSettings.writeConf()).convert(s);
  }
}
