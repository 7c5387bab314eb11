package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BaseFileReader#rowWithKey} returns what a record-filtered read of the key returns, on every layout. */
class KeyedRowReadTest {
  private static final int ROWS = 3000;
  private final Storage storage = new LocalStorage();

  @TempDir
  Path dir;

  /** The test schema without the three-branch union, which the direct assembler leaves to parquet-avro. */
  private static final Schema SCHEMA = TestRecords.without(TestRecords.WITH_META, "multi");

  private static GenericRecord row(int i, String key) {
    return TestRecords.projected(TestRecords.record(i, key, "p", "f.parquet"), SCHEMA);
  }

  private Optional<GenericRecord> filtered(BaseFileReader r, String key) {
    FilterCompat.Filter byKey = FilterCompat.get(
        FilterApi.eq(FilterApi.binaryColumn(MetaFields.RECORD_KEY), Binary.fromString(key)));
    try (CloseableIterator<GenericRecord> rows = r.read(SCHEMA, byKey)) {
      return rows.hasNext() ? Optional.of(rows.next()) : Optional.empty();
    }
  }

  private boolean served(String file) throws IOException {
    try (ParquetFileReader f = ParquetFileReader.open(new StorageInputFile(storage, file))) {
      MessageType schema = f.getFooter().getFileMetaData().getSchema();
      return KeyedRowRead.serves(f.getRowGroups(), schema.getColumnDescription(new String[] {MetaFields.RECORD_KEY}));
    }
  }

  /**
   * Keys present (the first row's, the last row's and every 13th distinct key: in every row group and page) and
   * absent ones below, inside and above the key range.
   */
  private void looksUpLikeAFilteredRead(String file, List<String> keys) {
    List<String> distinct = keys.stream().distinct().toList();
    List<String> present = new ArrayList<>();
    for (int i = 0; i < distinct.size(); i++) {
      if (i % 13 == 0 || i == distinct.size() - 1) {
        present.add(distinct.get(i));
      }
    }
    List<String> probes = new ArrayList<>(present);
    probes.addAll(List.of("", "0", "key-", keys.get(0) + "x", "\uffff", "zzzz"));
    int found = 0;
    try (BaseFileReader r = BaseFileReader.open(storage, file)) {
      assertTrue(r.footer().rowCount() == ROWS);
      for (String k : probes) {
        Optional<GenericRecord> expected = filtered(r, k);
        Optional<GenericRecord> actual = r.rowWithKey(k, SCHEMA);
        assertEquals(expected, actual, k);
        if (actual.isPresent()) {
          assertEquals(k, actual.get().get(MetaFields.RECORD_KEY).toString());
          found++;
        }
      }
    }
    assertEquals(present.size(), found, "every present key found");
  }

  @Test
  void findsEveryKeyOfASluiceFileThroughItsPages() throws IOException {
    String file = dir.resolve("sluice.parquet").toString();
    List<String> keys = new ArrayList<>();
    try (BaseFileWriter w = BaseFileWriter.open(storage, file, SCHEMA,
        BaseFileWriterOptions.defaults().withRowGroupSize(64 * 1024).withPageSize(2048))) {
      for (int i = 0; i < ROWS; i++) {
        keys.add(TestRecords.key(i));
        w.write(row(i, keys.get(i)));
      }
      w.finish();
    }
    try (ParquetFileReader f = ParquetFileReader.open(new StorageInputFile(storage, file))) {
      assertTrue(f.getRowGroups().size() > 1, "several row groups");
    }
    assertTrue(served(file), "the page-level read serves Sluice's files");
    looksUpLikeAFilteredRead(file, keys);
  }

  @Test
  void findsTheFirstRowOfADictionaryEncodedKey() throws IOException {
    String file = dir.resolve("dict.parquet").toString();
    List<String> keys = new ArrayList<>();
    try (ParquetWriter<GenericRecord> w = AvroParquetWriter.<GenericRecord>builder(new StorageOutputFile(storage, file))
        .withSchema(SCHEMA).withDictionaryEncoding(true).withPageSize(2048).withRowGroupSize(64 * 1024L).build()) {
      for (int i = 0; i < ROWS; i++) {
        // each key on three rows, so the dictionary stays and a key has several rows
        keys.add(TestRecords.key(i / 3));
        w.write(row(i, keys.get(i)));
      }
    }
    assertTrue(served(file));
    looksUpLikeAFilteredRead(file, keys);
  }

  @Test
  void fallsBackToAFilteredReadForDeltaEncodedKeys() throws IOException {
    String file = dir.resolve("v2.parquet").toString();
    List<String> keys = new ArrayList<>();
    try (ParquetWriter<GenericRecord> w = AvroParquetWriter.<GenericRecord>builder(new StorageOutputFile(storage, file))
        .withSchema(SCHEMA).withWriterVersion(WriterVersion.PARQUET_2_0).withDictionaryEncoding(false)
        .withPageSize(2048).withRowGroupSize(64 * 1024L).build()) {
      for (int i = 0; i < ROWS; i++) {
        keys.add(TestRecords.key(i));
        w.write(row(i, keys.get(i)));
      }
    }
    assertFalse(served(file), "the v2 writer delta-encodes the key column");
    looksUpLikeAFilteredRead(file, keys);
  }
}
