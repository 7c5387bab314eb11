package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CopyColumnReaderTest {
  private static final int ROWS = 3000;
  private final Storage storage = new LocalStorage();

  @TempDir
  Path dir;

  /**
   * Every column the reader takes gives, value by value, the levels and values Parquet's own reader gives, with
   * some values skipped instead of read: pages v1 and v2, with and without dictionaries, nulls, nested and repeated
   * columns, several pages and row groups.
   */
  @ParameterizedTest
  @CsvSource({"PARQUET_1_0, true, -1", "PARQUET_1_0, false, -1", "PARQUET_2_0, true, 18", "PARQUET_2_0, false, 4"})
  void readsWhatParquetsReaderReads(WriterVersion version, boolean dictionary, int atLeast) throws IOException {
    String path = dir.resolve("f-" + version + dictionary + ".parquet").toString();
    try (ParquetWriter<GenericRecord> w = AvroParquetWriter.<GenericRecord>builder(new StorageOutputFile(storage, path))
        .withSchema(TestRecords.WITH_META).withWriterVersion(version).withDictionaryEncoding(dictionary)
        .withCompressionCodec(CompressionCodecName.SNAPPY).withPageSize(2048).withRowGroupSize(128 * 1024L).build()) {
      for (int i = 0; i < ROWS; i++) {
        // repeated keys give columns a dictionary that lasts; others abandon theirs
        w.write(TestRecords.record(i, TestRecords.key(i % 50), "p" + (i % 3), "f.parquet"));
      }
    }
    int compared = 0;
    try (ParquetFileReader ours = ParquetFileReader.open(new StorageInputFile(storage, path));
        ParquetFileReader theirs = ParquetFileReader.open(new StorageInputFile(storage, path))) {
      MessageType schema = ours.getFooter().getFileMetaData().getSchema();
      List<ColumnDescriptor> taken = schema.getColumns().stream()
          .filter(c -> CopyColumnReader.readsAll(c, ours.getRowGroups())).toList();
      // v1 files use only encodings the reader decodes; v2 ones also delta encodings, for the columns left out
      int expected = atLeast < 0 ? schema.getColumns().size() : atLeast;
      assertTrue(taken.size() >= expected, version + ": the reader takes " + taken.size() + " columns");
      int group = 0;
      PageReadStore a;
      while ((a = ours.readNextRowGroup()) != null) {
        PageReadStore b = theirs.readNextRowGroup();
        ColumnReadStoreImpl store = new ColumnReadStoreImpl(b, new RowCopier.Ignored(schema), schema,
            ours.getFooter().getFileMetaData().getCreatedBy());
        for (ColumnDescriptor c : taken) {
          compare(c, CopyColumnReader.open(c, a.getPageReader(c)), store.getColumnReader(c), group);
          compared++;
        }
        group++;
      }
      assertTrue(group > 1, "several row groups");
    }
    assertTrue(compared > 0);
  }

  private static void compare(ColumnDescriptor c, ColumnReader mine, ColumnReader parquet, int group) {
    String where = String.join(".", c.getPath()) + " in row group " + group;
    assertEquals(parquet.getTotalValueCount(), mine.getTotalValueCount(), where);
    for (long i = 0; i < parquet.getTotalValueCount(); i++) {
      String at = where + ", value " + i;
      assertEquals(parquet.getCurrentRepetitionLevel(), mine.getCurrentRepetitionLevel(), at);
      assertEquals(parquet.getCurrentDefinitionLevel(), mine.getCurrentDefinitionLevel(), at);
      if (parquet.getCurrentDefinitionLevel() == c.getMaxDefinitionLevel()) {
        if (i % 5 == 2) {
          parquet.skip();
          mine.skip();
        } else if (i % 5 != 4) {
          // the remaining fifth is left for consume to skip
          switch (c.getPrimitiveType().getPrimitiveTypeName()) {
            case INT32 -> assertEquals(parquet.getInteger(), mine.getInteger(), at);
            case INT64 -> assertEquals(parquet.getLong(), mine.getLong(), at);
            case FLOAT -> assertEquals(parquet.getFloat(), mine.getFloat(), at);
            case DOUBLE -> assertEquals(parquet.getDouble(), mine.getDouble(), at);
            case BOOLEAN -> assertEquals(parquet.getBoolean(), mine.getBoolean(), at);
            default -> {
              assertEquals(parquet.getBinary(), mine.getBinary(), at);
              assertEquals(parquet.getBinary(), mine.getBinary(), at + " (read twice)");
            }
          }
        }
      }
      if (i % 5 == 4 && parquet.getCurrentDefinitionLevel() == c.getMaxDefinitionLevel()) {
        parquet.skip();
      }
      parquet.consume();
      mine.consume();
    }
  }
}
