package dev.sluice.internal.basefile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.bloom.BloomFilter;
import dev.sluice.internal.bloom.BloomFilterType;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import dev.sluice.api.CloseableIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaseFileRoundTripTest {
  private final Storage storage = new LocalStorage();

  @TempDir
  Path dir;

  static List<GenericRecord> readAll(CloseableIterator<GenericRecord> it) {
    List<GenericRecord> out = new ArrayList<>();
    try (it) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  private List<GenericRecord> write(String path, int n, BaseFileWriterOptions options) {
    List<GenericRecord> written = new ArrayList<>();
    try (BaseFileWriter w = BaseFileWriter.open(storage, path, TestRecords.WITH_META, options)) {
      for (int i = 0; i < n; i++) {
        GenericRecord r = TestRecords.record(i, "f1.parquet");
        w.write(r);
        written.add(r);
      }
      WrittenFile f = w.finish();
      assertEquals(n, f.recordCount());
    }
    return written;
  }

  @Test
  void everyAvroTypeSurvivesTheRoundTrip() {
    for (String codec : BaseFileWriterOptions.CODECS) {
      String path = dir.resolve("all-" + codec + ".parquet").toString();
      List<GenericRecord> written = write(path, 300, BaseFileWriterOptions.defaults().withCodec(codec));
      try (BaseFileReader r = BaseFileReader.open(storage, path)) {
        assertEquals(TestRecords.WITH_META, r.footer().schema());
        assertEquals(300, r.footer().rowCount());
        List<GenericRecord> read = readAll(r.read(r.footer().schema()));
        assertEquals(written.size(), read.size());
        for (int i = 0; i < written.size(); i++) {
          assertEquals(written.get(i), read.get(i), codec + " record " + i);
        }
      }
    }
  }

  @Test
  void writtenFileDescribesTheFile() throws IOException {
    String path = dir.resolve("w.parquet").toString();
    try (BaseFileWriter w = BaseFileWriter.open(storage, path, TestRecords.WITH_META,
        BaseFileWriterOptions.defaults())) {
      long before = w.estimatedBytes();
      for (int i = 0; i < 50; i++) {
        w.write(TestRecords.record(i, "w.parquet"));
      }
      assertEquals(50, w.recordCount());
      assertTrue(w.estimatedBytes() > before);
      WrittenFile f = w.finish();
      assertEquals(path, f.path());
      assertEquals(Files.size(Path.of(path)), f.sizeBytes());
      assertEquals(50, f.recordCount());
      // String order: "key-0" < "key-1" < "key-10" < ... < "key-9" < "key-49"? no: "key-49" < "key-5"
      assertEquals("key-0", f.minKey());
      assertEquals("key-9", f.maxKey());
    }
  }

  @Test
  void footerHasExactlyHudisKeys() {
    String path = dir.resolve("footer.parquet").toString();
    List<String> keys = List.of("b", "a\uFFFD", "a\uD83D\uDE00", "é", "Z");
    try (BaseFileWriter w = BaseFileWriter.open(storage, path, TestRecords.WITH_META,
        BaseFileWriterOptions.defaults())) {
      for (int i = 0; i < keys.size(); i++) {
        w.write(TestRecords.record(i, keys.get(i), "p", "footer.parquet"));
      }
      w.finish();
    }
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      Map<String, String> kv = r.footer().keyValueMetadata();
      assertEquals(Set.of("parquet.avro.schema", "writer.model.name", "org.apache.hudi.bloomfilter",
          "hoodie_bloom_filter_type_code", "hoodie_min_record_key", "hoodie_max_record_key"), kv.keySet());
      assertEquals("avro", kv.get("writer.model.name"));
      assertEquals(TestRecords.WITH_META, new Schema.Parser().parse(kv.get("parquet.avro.schema")));
      assertEquals("DYNAMIC_V0", kv.get("hoodie_bloom_filter_type_code"));
      // Java String order (UTF-16 units): U+FFFD sorts after the surrogate pair of U+1F600, unlike in UTF-8
      assertEquals("Z", kv.get("hoodie_min_record_key"));
      assertEquals("é", kv.get("hoodie_max_record_key"));
      assertEquals("Z", r.footer().minRecordKey().orElseThrow());
      assertEquals("é", r.footer().maxRecordKey().orElseThrow());
      BloomFilter bloom = r.bloomFilter().orElseThrow();
      assertEquals(BloomFilterType.DYNAMIC_V0, bloom.type());
      assertEquals(kv.get("org.apache.hudi.bloomfilter"), bloom.serialize());
      for (String k : keys) {
        assertTrue(bloom.mightContain(k));
      }
      assertFalse(bloom.mightContain("not-a-key"));
    }
  }

  @Test
  void simpleBloomFilterHasNoTypeCode() {
    String path = dir.resolve("simple.parquet").toString();
    BaseFileWriterOptions options = BaseFileWriterOptions.defaults().withBloom(BloomFilterType.SIMPLE, 1000,
        0.001, 0);
    write(path, 20, options);
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      assertFalse(r.footer().keyValueMetadata().containsKey("hoodie_bloom_filter_type_code"));
      BloomFilter bloom = r.bloomFilter().orElseThrow();
      assertEquals(BloomFilterType.SIMPLE, bloom.type());
      for (int i = 0; i < 20; i++) {
        assertTrue(bloom.mightContain(TestRecords.key(i)));
      }
    }
  }

  @Test
  void emptyFileHasBloomButNoKeyRange() {
    String path = dir.resolve("empty.parquet").toString();
    write(path, 0, BaseFileWriterOptions.defaults());
    try (BaseFileReader r = BaseFileReader.open(storage, path)) {
      assertEquals(0, r.footer().rowCount());
      assertTrue(r.footer().minRecordKey().isEmpty());
      assertTrue(r.footer().maxRecordKey().isEmpty());
      assertTrue(r.bloomFilter().isPresent());
      assertTrue(readAll(r.read(r.footer().schema())).isEmpty());
      try (CloseableIterator<String> keys = r.recordKeys()) {
        assertFalse(keys.hasNext());
      }
    }
  }

  /** Hudi 0.15 writes through parquet-avro's defaults: two-level lists, UUIDs as plain strings. */
  @Test
  void parquetSchemaUsesHudisLayout() throws IOException {
    String path = dir.resolve("layout.parquet").toString();
    write(path, 3, BaseFileWriterOptions.defaults());
    MessageType schema;
    try (ParquetFileReader r = ParquetFileReader.open(new StorageInputFile(storage, path))) {
      schema = r.getFooter().getFileMetaData().getSchema();
    }
    String text = schema.toString();
    assertTrue(text.contains("optional binary _hoodie_commit_time (STRING);"), text);
    assertTrue(text.contains("required group ints (LIST) {\n    repeated int32 array;\n  }"), text);
    assertTrue(text.contains("required binary u (STRING);"), text);
    assertTrue(text.contains("required int64 ts_us (TIMESTAMP(MICROS,true));"), text);
    assertTrue(text.contains("required fixed_len_byte_array(8) dec_f (DECIMAL(18,4));"), text);
  }
}
