package dev.sluice.internal.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.internal.hfile.HFileCell;
import dev.sluice.internal.hfile.HFileCompression;
import dev.sluice.internal.hfile.HFileReader;
import dev.sluice.api.CloseableIterator;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HFile data blocks ({@code HFILE_DATA_BLOCK}, the metadata table's log blocks) through {@link LogWriter} and {@link LogReader}. */
class HFileLogBlockTest {
  /** A metadata-record-like schema: the key field Hudi's readers restore, a type and a payload. */
  static final Schema SCHEMA = SchemaBuilder.record("MetadataLike").namespace("test").fields()
      .requiredString("key")
      .requiredInt("type")
      .optionalString("payload")
      .endRecord();

  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();

  private AppendResult write(List<LogBlock> blocks) {
    try (LogWriter w = LogWriter.open(storage, dir.toString(), LogFixture.FILE_ID, LogFixture.BASE, "0-0-0", 1 << 30)) {
      return w.appendBlocks(blocks);
    }
  }

  private static GenericRecord rec(String key, int type, String payload) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("key", key);
    r.put("type", type);
    r.put("payload", payload);
    return r;
  }

  private static List<GenericRecord> records(int n) {
    List<GenericRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      // not in key order: the block sorts them
      int k = (int) ((i * 7919L) % n);
      out.add(rec(String.format("%s-%06d", k % 2 == 0 ? "b" : "a", k), k % 5, "value of record " + k + " with some padding"));
    }
    return out;
  }

  private static List<GenericRecord> sorted(List<GenericRecord> records) {
    List<GenericRecord> out = new ArrayList<>(records);
    out.sort(Comparator.comparing(r -> r.get("key").toString()));
    return out;
  }

  @Test
  void recordsRoundTripInKeyOrderNextToAvroBlocks() {
    List<GenericRecord> first = records(50);
    List<GenericRecord> second = List.of(rec("__all_partitions__", 1, null), rec("p1", 2, "files"));
    AppendResult res = write(List.of(DataBlock.hfile(Map.of(HeaderKey.INSTANT_TIME, "001"), SCHEMA, first, "key"),
        DataBlock.of("002", LogFixture.SCHEMA, LogFixture.trips("t", 3, 1)),
        DataBlock.hfile(Map.of(HeaderKey.INSTANT_TIME, "003"), SCHEMA, second, "key")));
    List<LogBlock> blocks = LogFixture.readAll(storage, res.file().path());
    assertEquals(3, blocks.size());
    DataBlock h1 = (DataBlock) blocks.get(0);
    assertEquals(LogBlockType.HFILE_DATA_BLOCK, h1.type());
    assertEquals(Map.of(HeaderKey.INSTANT_TIME, "001", HeaderKey.SCHEMA, SCHEMA.toString()), h1.header());
    assertFalse(h1.recordCount().isPresent());
    assertEquals(sorted(first), LogFixture.records(h1, SCHEMA));
    assertEquals(LogBlockType.AVRO_DATA_BLOCK, blocks.get(1).type());
    assertEquals(second, LogFixture.records(blocks.get(2), SCHEMA));
  }

  @Test
  void contentIsAnHFileOfKeysAndAvroValuesWithEmptyKeyFields() throws IOException {
    List<GenericRecord> recs = records(30_000);
    AppendResult res = write(List.of(DataBlock.hfile(Map.of(HeaderKey.INSTANT_TIME, "001"), SCHEMA, recs, "key")));
    DataBlock block = (DataBlock) LogFixture.readAll(storage, res.file().path()).get(0);
    StoredContent content = block.storedContent().orElseThrow();
    List<GenericRecord> expected = sorted(recs);
    GenericDatumReader<GenericRecord> avro = new GenericDatumReader<>(SCHEMA);
    try (HFileReader hfile = HFileReader.open(storage, res.file().path(), content.offset(), content.length())) {
      assertEquals(HFileCompression.GZ, hfile.compression());
      assertEquals(SCHEMA.toString(), new String(hfile.fileInfo("schema").orElseThrow(), StandardCharsets.UTF_8));
      assertEquals(recs.size(), hfile.entryCount());
      int i = 0;
      try (CloseableIterator<HFileCell> cells = hfile.scan()) {
        while (cells.hasNext()) {
          HFileCell c = cells.next();
          GenericRecord value = avro.read(null, DecoderFactory.get().binaryDecoder(c.value(), null));
          assertEquals(expected.get(i).get("key").toString(), c.keyString());
          assertEquals("", value.get("key").toString(), "the key is stored once, in the row");
          assertEquals(expected.get(i).get("payload").toString(), value.get("payload").toString());
          i++;
        }
      }
      assertEquals(recs.size(), i);
    }
    assertEquals(expected, LogFixture.records(block, SCHEMA));
  }

  @Test
  void repeatedKeysAreRefusedBeforeAnythingIsWritten() {
    List<GenericRecord> recs = List.of(rec("k1", 1, "a"), rec("k2", 1, "b"), rec("k1", 2, "c"));
    SluiceException e = assertThrows(SluiceException.class,
        () -> write(List.of(DataBlock.hfile(Map.of(HeaderKey.INSTANT_TIME, "001"), SCHEMA, recs, "key"))));
    assertEquals(SluiceException.Kind.BAD_INPUT, e.kind());
    assertTrue(e.getMessage().contains("repeats the previous key"), e.getMessage());
  }

  @Test
  void damagedHFileContentNamesTheFileAndOffset() throws IOException {
    AppendResult res = write(List.of(DataBlock.hfile(Map.of(HeaderKey.INSTANT_TIME, "001"), SCHEMA, records(200), "key")));
    String path = res.file().path();
    DataBlock block = (DataBlock) LogFixture.readAll(storage, path).get(0);
    StoredContent content = block.storedContent().orElseThrow();
    try (RandomAccessFile f = new RandomAccessFile(path, "rw")) {
      // a byte inside the first data block's payload (its header is 33 bytes)
      f.seek(content.offset() + 40);
      int b = f.read();
      f.seek(content.offset() + 40);
      f.write(b ^ 0x01);
    }
    DataBlock damaged = (DataBlock) LogFixture.readAll(storage, path).get(0);
    SluiceException e = assertThrows(SluiceException.class, () -> LogFixture.records(damaged, SCHEMA));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains(path) && e.getMessage().contains("offset " + content.offset()), e.getMessage());
  }
}
