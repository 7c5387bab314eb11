package dev.sluice.internal.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.basefile.BaseFileReader;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.api.SluiceException;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Parquet data blocks ({@code PARQUET_DATA_BLOCK}) through {@link LogWriter} and {@link LogReader}. */
class ParquetLogBlockTest {
  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();

  private AppendResult write(List<LogBlock> blocks) {
    try (LogWriter w = LogWriter.open(storage, dir.toString(), LogFixture.FILE_ID, LogFixture.BASE, "0-0-0", 1 << 30)) {
      return w.appendBlocks(blocks);
    }
  }

  private static DataBlock parquet(String instant, List<GenericRecord> records, String codec) {
    return DataBlock.parquet(Map.of(HeaderKey.INSTANT_TIME, instant), LogFixture.SCHEMA, records,
        BaseFileWriterOptions.defaults().withCodec(codec));
  }

  @Test
  void parquetBlocksRoundTripNextToAvroBlocks() {
    List<GenericRecord> first = LogFixture.trips("a", 40, 1);
    List<GenericRecord> second = LogFixture.trips("b", 9, 2);
    AppendResult res = write(List.of(parquet("001", first, "gzip"), DataBlock.of("002", LogFixture.SCHEMA, second),
        parquet("003", second, "snappy")));

    List<LogBlock> blocks = LogFixture.readAll(storage, res.file().path());
    assertEquals(3, blocks.size());
    DataBlock p1 = (DataBlock) blocks.get(0);
    assertEquals(LogBlockType.PARQUET_DATA_BLOCK, p1.type());
    assertEquals(LogBlockType.AVRO_DATA_BLOCK, blocks.get(1).type());
    assertEquals(LogBlockType.PARQUET_DATA_BLOCK, blocks.get(2).type());
    assertFalse(p1.recordCount().isPresent());
    assertEquals(LogFixture.SCHEMA, p1.writerSchema());
    assertEquals(Map.of(HeaderKey.INSTANT_TIME, "001", HeaderKey.SCHEMA, LogFixture.SCHEMA.toString()), p1.header());
    assertEquals(first, LogFixture.records(p1, LogFixture.SCHEMA));
    assertEquals(second, LogFixture.records(blocks.get(1), LogFixture.SCHEMA));
    assertEquals(second, LogFixture.records(blocks.get(2), LogFixture.SCHEMA));
  }

  @Test
  void contentIsOneParquetFileWithoutBloomFilterOrKeyRange() throws IOException {
    AppendResult res = write(List.of(parquet("001", LogFixture.trips("a", 5, 1), "gzip")));
    StoredContent content = contentOf(res.file().path());
    byte[] head = new byte[4];
    byte[] tail = new byte[4];
    try (RandomAccessFile f = new RandomAccessFile(res.file().path(), "r")) {
      f.seek(content.offset());
      f.readFully(head);
      f.seek(content.offset() + content.length() - 4);
      f.readFully(tail);
    }
    assertEquals("PAR1", new String(head, java.nio.charset.StandardCharsets.US_ASCII));
    assertEquals("PAR1", new String(tail, java.nio.charset.StandardCharsets.US_ASCII));
    BaseFileReader reader = BaseFileReader.openRange(storage, res.file().path(), content.offset(), content.length(), "t");
    assertEquals(5, reader.footer().rowCount());
    assertTrue(reader.bloomFilter().isEmpty());
    assertTrue(reader.footer().minRecordKey().isEmpty());
    assertEquals(LogFixture.SCHEMA, reader.footer().schema());
  }

  @Test
  void recordsResolveToAReaderSchemaByName() {
    AppendResult res = write(List.of(parquet("001", LogFixture.trips("a", 3, 9), "snappy")));
    Schema reader = SchemaBuilder.record("Trip").namespace("test").fields()
        .optionalString("_hoodie_record_key")
        .requiredLong("ts")
        .name("added").type().stringType().stringDefault("dflt")
        .endRecord();
    List<GenericRecord> got = LogFixture.records(LogFixture.readAll(storage, res.file().path()).get(0), reader);
    assertEquals(3, got.size());
    for (int i = 0; i < 3; i++) {
      assertEquals(reader, got.get(i).getSchema());
      assertEquals("a" + i, got.get(i).get("_hoodie_record_key").toString());
      assertEquals(9L, got.get(i).get("ts"));
      assertEquals("dflt", got.get(i).get("added").toString());
    }
  }

  @Test
  void damagedParquetContentNamesTheFileAndBlockOffset() throws IOException {
    AppendResult res = write(List.of(DataBlock.of("001", LogFixture.SCHEMA, LogFixture.trips("x", 2, 1)),
        parquet("002", LogFixture.trips("a", 20, 1), "gzip")));
    String path = res.file().path();
    DataBlock block = (DataBlock) LogFixture.readAll(storage, path).get(1);
    long blockOffset = block.span().orElseThrow().offset();
    StoredContent content = contentOf(path);
    // overwrite the Parquet footer length and trailing magic: framing stays valid, the embedded file does not
    try (RandomAccessFile f = new RandomAccessFile(path, "rw")) {
      f.seek(content.offset() + content.length() - 8);
      f.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    }
    DataBlock damaged = (DataBlock) LogFixture.readAll(storage, path).get(1);
    SluiceException e = assertThrows(SluiceException.class, () -> LogFixture.records(damaged, LogFixture.SCHEMA));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains(path), e.getMessage());
    assertTrue(e.getMessage().contains("offset " + blockOffset), e.getMessage());
  }

  /** The stored content of the last block of the file. */
  private StoredContent contentOf(String path) {
    List<LogBlock> blocks = LogFixture.readAll(storage, path);
    DataBlock last = (DataBlock) blocks.get(blocks.size() - 1);
    return last.storedContent().orElseThrow();
  }
}
