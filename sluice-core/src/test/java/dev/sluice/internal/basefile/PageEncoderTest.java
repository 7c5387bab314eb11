package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.basefile.BaseFileWriter.PageEncoder;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sluice's column encoder ({@code encode.ColumnChunkStore}) against Parquet's column writers: the same rows through
 * either give the same file, byte for byte - pages, encodings (dictionary, fallback to plain within a chunk and at
 * the first page), statistics, column and offset indexes, row group cuts - over every Avro type, nulls and
 * repetition at every level.
 */
class PageEncoderTest {
  private static final Schema SCHEMA = TestRecords.without(TestRecords.WITH_META, "multi");
  private final Storage storage = new LocalStorage();

  @TempDir
  Path dir;

  private Path write(String name, BaseFileWriterOptions options, boolean direct, PageEncoder encoder, int rows,
      int distinct) {
    Path p = dir.resolve(name + "-" + encoder + ".parquet");
    try (BaseFileWriter w = BaseFileWriter.open(storage, p.toString(), SCHEMA, options, direct, encoder)) {
      for (int i = 0; i < rows; i++) {
        // a few distinct rows repeated keep the dictionaries; all distinct makes them overflow
        GenericRecord full = TestRecords.record(i % distinct, TestRecords.key(i), "p" + (i % 3), "f.parquet");
        w.write(TestRecords.projected(full, SCHEMA));
      }
      w.finish();
    }
    return p;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "small pages and row groups, 2048, 65536, true, snappy, true, 3000, 3000",
      "small pages with repeated rows, 2048, 65536, true, snappy, true, 3000, 40",
      "default sizes, 1048576, 134217728, true, snappy, true, 5000, 5000",
      "default sizes with repeated rows, 1048576, 134217728, true, gzip, true, 5000, 7",
      "no dictionary, 4096, 262144, false, uncompressed, true, 3000, 3000",
      "through parquet-avro, 2048, 65536, true, snappy, false, 2000, 100",
  })
  void bothEncodersWriteTheSameFile(String label, int pageSize, long rowGroupSize, boolean dictionary, String codec,
      boolean direct, int rows, int distinct) throws IOException {
    BaseFileWriterOptions options = BaseFileWriterOptions.defaults().withPageSize(pageSize)
        .withRowGroupSize(rowGroupSize).withCodec(codec);
    if (!dictionary) {
      options = new BaseFileWriterOptions(options.codec(), options.rowGroupSize(), options.pageSize(), false,
          options.bloomType(), options.bloomNumEntries(), options.bloomFpp(), options.bloomMaxEntries());
    }
    String name = label.replace(' ', '-').replace(",", "");
    Path sluice = write(name, options, direct, PageEncoder.SLUICE, rows, distinct);
    Path parquet = write(name, options, direct, PageEncoder.PARQUET, rows, distinct);
    Set<Encoding> encodings = EnumSet.noneOf(Encoding.class);
    try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(sluice))) {
      for (BlockMetaData b : r.getFooter().getBlocks()) {
        for (ColumnChunkMetaData c : b.getColumns()) {
          encodings.addAll(c.getEncodings());
        }
      }
      assertEquals(rows, r.getRecordCount());
    }
    if (dictionary) {
      assertTrue(encodings.contains(Encoding.PLAIN_DICTIONARY), "dictionaries written: " + encodings);
    }
    assertTrue(encodings.contains(Encoding.PLAIN), "plain pages written: " + encodings);
    assertEquals(describe(parquet), describe(sluice), label);
    assertArrayEquals(Files.readAllBytes(parquet), Files.readAllBytes(sluice), label);
  }

  @org.junit.jupiter.api.Test
  void valuesInDirectBuffersAreEncodedAsTheirBytes() throws IOException {
    // readers with a direct allocator hand out values backed by off-heap buffers: they are copied, not referenced
    Schema user = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"r\",\"fields\":["
        + "{\"name\":\"s\",\"type\":\"string\"}]}");
    Schema schema = dev.sluice.internal.basefile.MetaFields.withMetaFields(user);
    BaseFileWriterOptions options = BaseFileWriterOptions.defaults().withPageSize(1024).withRowGroupSize(32 * 1024);
    java.util.List<byte[]> files = new java.util.ArrayList<>();
    for (PageEncoder encoder : PageEncoder.values()) {
      Path p = dir.resolve("direct-" + encoder + ".parquet");
      try (BaseFileWriter w = BaseFileWriter.open(storage, p.toString(), schema, options, true, encoder)) {
        org.apache.parquet.column.ColumnWriteStore store = null;
        for (int i = 0; i < 2000; i++) {
          store = w.directColumns();
          String key = "k" + i;
          for (org.apache.parquet.column.ColumnDescriptor c : w.parquetSchema().getColumns()) {
            // high-cardinality keys, a few distinct values elsewhere: plain and dictionary pages
            String v = c.getPath()[0].equals(MetaFields.RECORD_KEY) ? key : c.getPath()[0] + (i % 5);
            byte[] b = v.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            // a fresh buffer per value: "constant" values may be kept by reference (Parquet's dictionary does)
            java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(b.length + 7);
            direct.put(7, b);
            org.apache.parquet.io.api.Binary value = org.apache.parquet.io.api.Binary.fromConstantByteBuffer(
                direct.slice(7, b.length));
            store.getColumnWriter(c).write(value, 0, c.getMaxDefinitionLevel());
          }
          w.endCopiedRow(key);
        }
        w.finish();
      }
      files.add(Files.readAllBytes(p));
    }
    assertArrayEquals(files.get(1), files.get(0));
    try (BaseFileReader r = BaseFileReader.open(storage, dir.resolve("direct-SLUICE.parquet").toString());
        dev.sluice.api.CloseableIterator<GenericRecord> rows = r.read(schema)) {
      for (int i = 0; i < 2000; i++) {
        GenericRecord row = rows.next();
        assertEquals("k" + i, row.get(MetaFields.RECORD_KEY).toString());
        assertEquals("s" + (i % 5), row.get("s").toString());
      }
      assertTrue(!rows.hasNext());
    }
  }

  /** Every column chunk's metadata, for a readable difference before the byte comparison. */
  static String describe(Path file) throws IOException {
    StringBuilder out = new StringBuilder();
    try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file))) {
      int g = 0;
      for (BlockMetaData b : r.getFooter().getBlocks()) {
        out.append("row group ").append(g++).append(": ").append(b.getRowCount()).append(" rows\n");
        for (ColumnChunkMetaData c : b.getColumns()) {
          out.append("  ").append(c.getPath()).append(' ').append(c.getEncodings()).append(" values ")
              .append(c.getValueCount()).append(" bytes ").append(c.getTotalUncompressedSize()).append('/')
              .append(c.getTotalSize()).append(" dict@").append(c.getDictionaryPageOffset()).append(" stats ")
              .append(c.getStatistics()).append('\n');
        }
      }
    }
    return out.toString();
  }
}
