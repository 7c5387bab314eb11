package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.bloom.BloomFilter;
import dev.sluice.internal.bloom.BloomFilterType;
import dev.sluice.internal.bloom.BloomFilters;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.avro.AvroWriteSupport;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RowCopierTest {
  private static final Schema SCHEMA = TestRecords.without(TestRecords.WITH_META, "multi");
  /** Map entries come back from records in hash order, from the copier in stored order: bytes differ there. */
  private static final Schema NO_MAPS = TestRecords.without(TestRecords.without(SCHEMA, "m"), "mrec");
  private static final BaseFileWriterOptions SMALL =
      BaseFileWriterOptions.defaults().withRowGroupSize(64 * 1024).withPageSize(2048);
  private final Storage storage = new LocalStorage();

  @TempDir
  Path dir;

  private static GenericRecord row(int i, String fileName) {
    return row(SCHEMA, i, fileName);
  }

  private static GenericRecord row(Schema schema, int i, String fileName) {
    GenericRecord full = TestRecords.record(i, fileName);
    GenericData.Record out = new GenericData.Record(schema);
    for (Schema.Field f : schema.getFields()) {
      out.put(f.pos(), full.get(f.name()));
    }
    return out;
  }

  private static boolean dropped(int i) {
    return i % 7 == 3;
  }

  private Path source(int rows) {
    return source(SCHEMA, rows);
  }

  private Path source(Schema schema, int rows) {
    Path p = dir.resolve("source-" + schema.getFields().size() + ".parquet");
    try (BaseFileWriter w = BaseFileWriter.open(storage, p.toString(), schema, SMALL)) {
      for (int i = 0; i < rows; i++) {
        w.write(row(schema, i, "source.parquet"));
      }
      w.finish();
    }
    return p;
  }

  @Test
  void copiedRowsGiveTheFileThatRewritingTheRecordsGives() throws IOException {
    // several row groups and pages in both files, nulls and empty collections at every level
    Path copied = dir.resolve("copied.parquet");
    Path rewritten = dir.resolve("rewritten.parquet");
    merge(NO_MAPS, copied, rewritten);
    assertArrayEquals(Files.readAllBytes(rewritten), Files.readAllBytes(copied));
  }

  @Test
  void mapsKeepTheirEntriesInStoredOrder() {
    Path copied = dir.resolve("copied-maps.parquet");
    Path rewritten = dir.resolve("rewritten-maps.parquet");
    merge(SCHEMA, copied, rewritten);
    try (BaseFileReader a = BaseFileReader.open(storage, rewritten.toString());
        BaseFileReader b = BaseFileReader.open(storage, copied.toString());
        CloseableIterator<GenericRecord> ia = a.read(SCHEMA);
        CloseableIterator<GenericRecord> ib = b.read(SCHEMA)) {
      int n = 0;
      while (ia.hasNext()) {
        assertEquals(ia.next(), ib.next(), "row " + n);
        n++;
      }
      assertTrue(!ib.hasNext() && n == 1500 + 1);
    }
  }

  /** The same merge (drop every 7th row for a new one, append one) through the copier and through records. */
  private void merge(Schema schema, Path copied, Path rewritten) {
    int rows = 1500;
    Path src = source(schema, rows);
    List<Object> orderings = new ArrayList<>();
    try (BaseFileReader reader = BaseFileReader.open(storage, src.toString());
        BaseFileWriter w = BaseFileWriter.open(storage, copied.toString(), schema, SMALL)) {
      Optional<RowCopier> copier = RowCopier.open(reader, w, Optional.of("l"), "new.parquet");
      assertTrue(copier.isPresent());
      int i = 0;
      try (RowCopier c = copier.get()) {
        while (c.next()) {
          assertEquals(TestRecords.key(i), c.key());
          orderings.add(c.ordering());
          if (dropped(i)) {
            c.drop();
            w.write(row(schema, i + rows, "new.parquet"));
          } else {
            c.copy();
          }
          i++;
        }
      }
      assertEquals(rows, i);
      w.write(row(schema, 2 * rows, "new.parquet"));
      w.finish();
    }
    try (BaseFileReader reader = BaseFileReader.open(storage, src.toString());
        CloseableIterator<GenericRecord> it = reader.read(schema);
        BaseFileWriter w = BaseFileWriter.open(storage, rewritten.toString(), schema, SMALL, false)) {
      int i = 0;
      while (it.hasNext()) {
        GenericRecord r = it.next();
        assertEquals(r.get("l"), orderings.get(i));
        if (dropped(i)) {
          w.write(row(schema, i + rows, "new.parquet"));
        } else {
          r.put(MetaFields.FILE_NAME, "new.parquet");
          w.write(r);
        }
        i++;
      }
      w.write(row(schema, 2 * rows, "new.parquet"));
      w.finish();
    }
  }

  @Test
  void declinesASourceOfAnotherSchemaAndATargetWritingThroughParquetAvro() {
    Path src = source(10);
    Schema other = TestRecords.without(SCHEMA, "opt_arr");
    try (BaseFileReader reader = BaseFileReader.open(storage, src.toString());
        BaseFileWriter narrower = BaseFileWriter.open(storage, dir.resolve("a.parquet").toString(), other, SMALL);
        BaseFileWriter viaAvro = BaseFileWriter.open(storage, dir.resolve("b.parquet").toString(), SCHEMA, SMALL,
            false)) {
      assertTrue(RowCopier.open(reader, narrower, Optional.empty(), "a.parquet").isEmpty());
      assertTrue(RowCopier.open(reader, viaAvro, Optional.empty(), "b.parquet").isEmpty());
      assertTrue(RowCopier.open(reader, viaAvro, Optional.of("nested"), "b.parquet").isEmpty());
    }
  }

  @Test
  void readsNullAndStringOrderingValuesAsRecordsHoldThem() {
    Path src = source(20);
    try (BaseFileReader reader = BaseFileReader.open(storage, src.toString());
        CloseableIterator<GenericRecord> it = reader.read(SCHEMA);
        BaseFileWriter w = BaseFileWriter.open(storage, dir.resolve("t.parquet").toString(), SCHEMA, SMALL);
        BaseFileWriter w2 = BaseFileWriter.open(storage, dir.resolve("u.parquet").toString(), SCHEMA, SMALL);
        RowCopier byOptional = RowCopier.open(reader, w, Optional.of("opt_l"), "t.parquet").orElseThrow();
        RowCopier byString = RowCopier.open(reader, w2, Optional.of("s"), "u.parquet").orElseThrow()) {
      while (it.hasNext()) {
        GenericRecord r = it.next();
        assertTrue(byOptional.next());
        assertTrue(byString.next());
        assertEquals(r.get("opt_l"), byOptional.ordering());
        assertEquals(r.get("s"), byString.ordering());
      }
      assertTrue(!byOptional.next() && !byString.next());
    }
  }

  /**
   * A source written with v2 pages and no dictionaries (delta-encoded columns, read by Parquet's reader, beside
   * columns {@link CopyColumnReader} reads): the copied rows are the source's rows, in order.
   */
  @Test
  void copiesAFileWhoseColumnsTwoReadersRead() throws IOException {
    Path src = dir.resolve("v2.parquet");
    PlainParquetConfiguration conf = new PlainParquetConfiguration();
    conf.setBoolean(AvroWriteSupport.WRITE_OLD_LIST_STRUCTURE, true);
    try (ParquetWriter<GenericRecord> w = AvroParquetWriter.<GenericRecord>builder(
            new StorageOutputFile(storage, src.toString())).withConf(conf).withSchema(SCHEMA)
        .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_2_0).withDictionaryEncoding(false)
        .withPageSize(2048).withRowGroupSize(64 * 1024L).build()) {
      for (int i = 0; i < 1500; i++) {
        w.write(row(i, "source.parquet"));
      }
    }
    Path copied = dir.resolve("copied-v2.parquet");
    try (BaseFileReader reader = BaseFileReader.open(storage, src.toString());
        BaseFileWriter w = BaseFileWriter.open(storage, copied.toString(), SCHEMA, SMALL)) {
      try (RowCopier c = RowCopier.open(reader, w, Optional.of("l"), "new.parquet").orElseThrow()) {
        int i = 0;
        while (c.next()) {
          if (dropped(i++)) {
            c.drop();
          } else {
            c.copy();
          }
        }
      }
      w.finish();
    }
    try (BaseFileReader a = BaseFileReader.open(storage, src.toString());
        BaseFileReader b = BaseFileReader.open(storage, copied.toString());
        CloseableIterator<GenericRecord> ia = a.read(SCHEMA);
        CloseableIterator<GenericRecord> ib = b.read(SCHEMA)) {
      int i = 0;
      int kept = 0;
      while (ia.hasNext()) {
        GenericRecord expected = ia.next();
        if (!dropped(i++)) {
          expected.put(MetaFields.FILE_NAME, new Utf8("new.parquet"));
          assertEquals(expected, ib.next(), "kept row " + kept++);
        }
      }
      assertTrue(!ib.hasNext() && kept > 1000);
    }
  }

  /**
   * A rewrite starts from the old file's bloom filter: copied and updated keys are not hashed again, so the new
   * filter is exactly the old one with the inserted key added (deleted keys stay in it, which a filter built anew
   * would not have).
   */
  @Test
  void aRewriteContinuesTheOldFilesBloomFilter() {
    Path src = source(1500);
    Path out = dir.resolve("continued.parquet");
    String oldBloom;
    int deleted = 0;
    try (BaseFileReader reader = BaseFileReader.open(storage, src.toString());
        BaseFileWriter w = BaseFileWriter.open(storage, out.toString(), SCHEMA, SMALL)) {
      BloomFilter old = reader.bloomFilter().orElseThrow();
      oldBloom = old.serialize();
      assertTrue(w.continueBloom(old, reader.footer().rowCount()));
      try (RowCopier c = RowCopier.open(reader, w, Optional.of("l"), "new.parquet").orElseThrow()) {
        int i = 0;
        while (c.next()) {
          if (i % 11 == 5) {
            c.drop();
            deleted++;
          } else if (dropped(i)) {
            c.drop();
            w.writeReplacing(row(i, "new.parquet"));
          } else {
            c.copy();
          }
          i++;
        }
      }
      w.write(row(SCHEMA, 5000, "new.parquet"));
      w.finish();
    }
    BloomFilter expected = BloomFilters.deserialize(oldBloom, BloomFilterType.DYNAMIC_V0);
    expected.add(TestRecords.key(5000));
    try (BaseFileReader r = BaseFileReader.open(storage, out.toString())) {
      assertEquals(expected.serialize(), r.bloomFilter().orElseThrow().serialize());
      assertEquals(1501 - deleted, r.footer().rowCount());
      assertTrue(deleted > 100);
    }
  }
}
