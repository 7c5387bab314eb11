package dev.sluice.internal.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The on-disk layout of blocks, parsed field by field with a plain DataInputStream (reference §7.1-7.3). */
class LogBlockBytesTest {
  private static final byte[] MAGIC = "#HUDI#".getBytes(StandardCharsets.US_ASCII);

  @TempDir
  Path dir;

  /** The fields of one block as §7.1 lays them out. */
  private record Raw(long start, long blockLength, int version, int type, Map<Integer, String> header, int headerBytes,
                     long contentLength, byte[] content, int footerCount, long reversePointer, long end) {
  }

  private static Raw parse(byte[] file, int at) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(file, at, file.length - at));
    byte[] magic = new byte[6];
    in.readFully(magic);
    assertArrayEquals(MAGIC, magic, "magic at " + at);
    long length = in.readLong();
    int version = in.readInt();
    int type = in.readInt();
    int headerCount = in.readInt();
    int headerBytes = 4;
    Map<Integer, String> header = new java.util.HashMap<>();
    for (int i = 0; i < headerCount; i++) {
      int key = in.readInt();
      byte[] v = new byte[in.readInt()];
      in.readFully(v);
      header.put(key, new String(v, StandardCharsets.UTF_8));
      headerBytes += 8 + v.length;
    }
    long contentLength = in.readLong();
    byte[] content = new byte[(int) contentLength];
    in.readFully(content);
    int footerCount = in.readInt();
    long reverse = in.readLong();
    long end = at + 6 + 8 + 4 + 4 + headerBytes + 8 + contentLength + 4 + 8;
    return new Raw(at, length, version, type, header, headerBytes, contentLength, content, footerCount, reverse, end);
  }

  @Test
  void oneRecordDataBlockHasTheObservedStructure() throws IOException {
    LocalStorage storage = new LocalStorage();
    GenericRecord rec = LogFixture.trip("k1", "p1", 7L, 5);
    AppendResult res;
    try (LogWriter w = LogWriter.open(storage, dir.toString(), LogFixture.FILE_ID, LogFixture.BASE, "0-0-0", 1 << 30)) {
      res = w.appendBlocks(List.of(DataBlock.of("20261201184936748", LogFixture.SCHEMA, List.of(rec))));
    }
    byte[] file = Files.readAllBytes(Path.of(res.file().path()));
    assertEquals(0, res.offset());
    assertEquals(file.length, res.size());
    assertEquals(file.length, res.file().size());
    assertEquals(1, res.version());

    Raw b = parse(file, 0);
    assertEquals(1, b.version(), "log format version");
    assertEquals(3, b.type(), "AVRO_DATA_BLOCK ordinal");
    assertEquals(2, b.header().size());
    assertEquals("20261201184936748", b.header().get(0), "INSTANT_TIME is ordinal 0");
    assertEquals(LogFixture.SCHEMA, new org.apache.avro.Schema.Parser().parse(b.header().get(2)), "SCHEMA is ordinal 2");
    assertEquals(4 + 4 + b.headerBytes() + 8 + b.contentLength() + 4 + 8, b.blockLength(), "block length = 4+4+H+8+C+F+8");
    assertEquals(0, b.footerCount(), "empty footer");
    assertEquals(b.blockLength() + 6, b.reversePointer(), "reverse pointer = block length + 6");
    assertEquals(file.length, b.end(), "the block is the whole file");
    assertEquals(file.length, 6 + 8 + b.blockLength());

    DataInputStream content = new DataInputStream(new ByteArrayInputStream(b.content()));
    assertEquals(3, content.readInt(), "data block content version");
    assertEquals(1, content.readInt(), "record count");
    int recordLength = content.readInt();
    assertEquals(b.contentLength() - 12, recordLength, "one record fills the rest of the content");
    byte[] avro = new byte[recordLength];
    content.readFully(avro);
    GenericRecord decoded = new GenericDatumReader<GenericRecord>(LogFixture.SCHEMA)
        .read(null, DecoderFactory.get().binaryDecoder(avro, null));
    assertEquals(rec, decoded);
  }

  @Test
  void blocksOfOneAppendLieBackToBackAndTheSecondAppendStartsWhereTheFirstEnded() throws IOException {
    Storage storage = LogFixture.appendingStorage();
    Map<HeaderKey, String> header = new EnumMap<>(HeaderKey.class);
    header.put(HeaderKey.INSTANT_TIME, "002");
    header.put(HeaderKey.SCHEMA, LogFixture.SCHEMA.toString());
    AppendResult first;
    AppendResult second;
    try (LogWriter w = LogWriter.open(storage, dir.toString(), LogFixture.FILE_ID, LogFixture.BASE, "0-0-0", 1 << 30)) {
      first = w.appendBlocks(List.of(new DataBlock(header, LogFixture.SCHEMA, LogFixture.trips("a", 3, 1)),
          new DeleteBlock(header, List.of(DeleteRecord.of("x", "p1")))));
      second = w.appendBlocks(List.of(CommandBlock.rollback("003", "002")));
    }
    byte[] file = Files.readAllBytes(Path.of(second.file().path()));
    Raw data = parse(file, 0);
    Raw delete = parse(file, (int) data.end());
    Raw command = parse(file, (int) delete.end());
    assertEquals(file.length, command.end());
    assertEquals(0, first.offset());
    assertEquals(delete.end(), first.size());
    assertEquals(delete.end(), second.offset());
    assertEquals(command.end() - delete.end(), second.size());

    assertEquals(1, delete.type(), "DELETE_BLOCK ordinal");
    assertEquals(2, delete.header().size(), "the delete block shares the data block's header");
    DataInputStream dc = new DataInputStream(new ByteArrayInputStream(delete.content()));
    assertEquals(3, dc.readInt(), "delete block content version");
    assertEquals(delete.contentLength() - 8, dc.readInt(), "Avro datum length");

    assertEquals(0, command.type(), "COMMAND_BLOCK ordinal");
    assertEquals(0, command.contentLength(), "command blocks have no content");
    assertEquals(Map.of(0, "003", 1, "002", 3, "0"), command.header());
    assertEquals(command.blockLength() + 6, command.reversePointer());
  }

  @Test
  void headerKeysAndBlockTypesKeepHudisOrdinals() {
    assertEquals(List.of("COMMAND_BLOCK", "DELETE_BLOCK", "CORRUPT_BLOCK", "AVRO_DATA_BLOCK", "HFILE_DATA_BLOCK",
        "PARQUET_DATA_BLOCK", "CDC_DATA_BLOCK"), java.util.Arrays.stream(LogBlockType.values()).map(Enum::name).toList());
    assertEquals(List.of("INSTANT_TIME", "TARGET_INSTANT_TIME", "SCHEMA", "COMMAND_BLOCK_TYPE", "COMPACTED_BLOCK_TIMES",
        "RECORD_POSITIONS", "BLOCK_IDENTIFIER", "IS_PARTIAL", "BASE_FILE_INSTANT_TIME_OF_RECORD_POSITIONS"),
        java.util.Arrays.stream(HeaderKey.values()).map(Enum::name).toList(), "HeaderMetadataType of Hudi 1.1.1");
  }
}
