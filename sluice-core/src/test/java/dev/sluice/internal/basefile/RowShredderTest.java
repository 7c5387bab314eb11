package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroSchemaConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RowShredderTest {
  private final Storage storage = new LocalStorage();

  @TempDir
  Path dir;

  /** The test schema of every Avro type but the one the shredder leaves to parquet-avro (a 3-branch union). */
  private static final Schema SHREDDABLE = TestRecords.without(TestRecords.WITH_META, "multi");

  private static GenericRecord reduced(int i) {
    return TestRecords.projected(TestRecords.record(i, "f.parquet"), SHREDDABLE);
  }

  private Path write(String name, Schema schema, boolean direct, int rows, java.util.function.IntFunction<GenericRecord> gen) {
    Path p = dir.resolve(name);
    BaseFileWriterOptions small = BaseFileWriterOptions.defaults().withRowGroupSize(64 * 1024).withPageSize(2048);
    try (BaseFileWriter w = BaseFileWriter.open(storage, p.toString(), schema, small, direct)) {
      for (int i = 0; i < rows; i++) {
        w.write(gen.apply(i));
      }
      w.finish();
    }
    return p;
  }

  @Test
  void compilesEveryShapeButMultiBranchUnions() {
    AvroSchemaConverter converter = new AvroSchemaConverter(ParquetSettings.writeConf());
    assertTrue(RowShredder.compile(SHREDDABLE, converter.convert(SHREDDABLE), ParquetSettings.writeModel())
        .isPresent());
    assertTrue(RowShredder.compile(TestRecords.WITH_META, converter.convert(TestRecords.WITH_META),
        ParquetSettings.writeModel()).isEmpty());
  }

  @Test
  void writesTheSameBytesAsParquetAvro() throws IOException {
    // nulls at every level, empty and nested lists and maps, logical types, several pages and row groups
    Path direct = write("direct.parquet", SHREDDABLE, true, 1500, RowShredderTest::reduced);
    Path viaAvro = write("avro.parquet", SHREDDABLE, false, 1500, RowShredderTest::reduced);
    assertArrayEquals(Files.readAllBytes(viaAvro), Files.readAllBytes(direct));
    try (BaseFileReader r = BaseFileReader.open(storage, direct.toString());
        CloseableIterator<GenericRecord> rows = r.read(SHREDDABLE)) {
      assertTrue(r.footer().rowCount() == 1500);
      GenericRecord first = rows.next();
      assertEquals("id-0", first.get("id").toString());
    }
  }

  @Test
  void schemasItDeclinesStillWriteThroughParquetAvro() throws IOException {
    Path a = write("a.parquet", TestRecords.WITH_META, true, 500, i -> TestRecords.record(i, "f.parquet"));
    Path b = write("b.parquet", TestRecords.WITH_META, false, 500, i -> TestRecords.record(i, "f.parquet"));
    assertArrayEquals(Files.readAllBytes(b), Files.readAllBytes(a));
  }

  @Test
  void aNullInARequiredFieldIsABadRecordAsWithParquetAvro() {
    for (boolean direct : new boolean[] {true, false}) {
      GenericRecord bad = reduced(1);
      bad.put("s", null);
      SluiceException e = assertThrows(SluiceException.class,
          () -> write("bad-" + direct + ".parquet", SHREDDABLE, direct, 2, i -> i == 0 ? reduced(0) : bad));
      assertEquals(SluiceException.Kind.BAD_INPUT, e.kind(), "direct=" + direct);
      assertTrue(e.getMessage().contains("s"), e.getMessage());
    }
  }
}
