package dev.sluice.internal.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.storage.LocalStorage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged files: truncation, garbage, inconsistent framing (reference §7.4). */
class LogCorruptionTest {
  @TempDir
  Path dir;

  private final LocalStorage storage = new LocalStorage();
  private byte[] file;
  private List<BlockSpan> spans;
  private final List<GenericRecord> first = LogFixture.trips("a", 4, 1);
  private final List<GenericRecord> last = LogFixture.trips("c", 3, 3);

  @BeforeEach
  void writeThreeBlocks() throws IOException {
    try (LogWriter w = LogWriter.open(storage, dir.resolve("src").toString(), LogFixture.FILE_ID, LogFixture.BASE, "0-0-0", 1 << 30)) {
      w.appendBlocks(List.of(DataBlock.of("001", LogFixture.SCHEMA, first),
          DeleteBlock.of("002", List.of(DeleteRecord.of("a1", "p1"))),
          DataBlock.of("003", LogFixture.SCHEMA, last)));
    }
    String path = LogFixture.logPath(dir.resolve("src").toString(), 1, "0-0-0");
    file = Files.readAllBytes(Path.of(path));
    spans = LogFixture.readAll(storage, path).stream().map(b -> b.span().orElseThrow()).toList();
    assertEquals(3, spans.size());
  }

  private String put(String name, byte[] bytes) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, bytes);
    return p.toString();
  }

  private void assertFirstTwoIntact(List<LogBlock> blocks) {
    assertEquals(first, LogFixture.records(blocks.get(0), LogFixture.SCHEMA));
    assertEquals(List.of(DeleteRecord.of("a1", "p1")), ((DeleteBlock) blocks.get(1)).readAll());
  }

  @Test
  void aLastBlockCutAtAnyByteBecomesACorruptBlockAndNeverYieldsRecords() throws IOException {
    BlockSpan lastSpan = spans.get(2);
    for (long cut = lastSpan.offset(); cut < lastSpan.end(); cut++) {
      String path = put("cut-" + cut, Arrays.copyOf(file, (int) cut));
      List<LogBlock> blocks = LogFixture.readAll(storage, path);
      long kept = cut - lastSpan.offset();
      assertFirstTwoIntact(blocks);
      if (kept < 6) {
        // no whole magic: the file just ends, as in Hudi
        assertEquals(2, blocks.size(), "cut at " + cut);
      } else {
        assertEquals(3, blocks.size(), "cut at " + cut);
        assertEquals(new CorruptBlock(lastSpan.offset(), kept), blocks.get(2), "cut at " + cut);
      }
    }
  }

  @Test
  void garbageAfterABlockMakesThatBlockCorruptAndReadingResumesAtTheNextMagic() throws IOException {
    // Hudi checks that a magic (or the end) follows each block, so the block before the garbage is lost with it
    byte[] garbage = "no magic in here, only noise 0123456789".getBytes(StandardCharsets.US_ASCII);
    int at = (int) spans.get(1).end();
    String path = put("garbage", insert(file, at, garbage));
    List<LogBlock> blocks = LogFixture.readAll(storage, path);
    assertEquals(3, blocks.size());
    assertEquals(first, LogFixture.records(blocks.get(0), LogFixture.SCHEMA));
    assertEquals(new CorruptBlock(spans.get(1).offset(), spans.get(1).size() + garbage.length), blocks.get(1));
    assertEquals(last, LogFixture.records(blocks.get(2), LogFixture.SCHEMA));
    assertEquals(spans.get(2).offset() + garbage.length, blocks.get(2).span().get().offset());
  }

  @Test
  void aBogusBlockBetweenTwoBlocksIsSkipped() throws IOException {
    ByteArrayOutputStream bogus = new ByteArrayOutputStream();
    bogus.write("#HUDI#".getBytes(StandardCharsets.US_ASCII));
    bogus.write(ByteBuffer.allocate(8).putLong(123_456L).array());
    bogus.write("half a block".getBytes(StandardCharsets.US_ASCII));
    int at = (int) spans.get(1).end();
    String path = put("bogus", insert(file, at, bogus.toByteArray()));
    List<LogBlock> blocks = LogFixture.readAll(storage, path);
    assertEquals(4, blocks.size());
    assertFirstTwoIntact(blocks);
    assertEquals(new CorruptBlock(at, bogus.size()), blocks.get(2));
    assertEquals(last, LogFixture.records(blocks.get(3), LogFixture.SCHEMA));
  }

  @Test
  void aWrongReversePointerMakesACorruptBlock() throws IOException {
    byte[] bad = file.clone();
    int pointer = (int) spans.get(0).end() - 8;
    bad[pointer + 7] ^= 1;
    List<LogBlock> blocks = LogFixture.readAll(storage, put("pointer", bad));
    assertEquals(List.of(LogBlockType.CORRUPT_BLOCK, LogBlockType.DELETE_BLOCK, LogBlockType.AVRO_DATA_BLOCK),
        blocks.stream().map(LogBlock::type).toList());
    assertEquals(new CorruptBlock(0, spans.get(0).size()), blocks.get(0));
  }

  @Test
  void aBlockLengthPastTheEndOfTheFileMakesACorruptBlockUpToTheEnd() throws IOException {
    byte[] bad = file.clone();
    ByteBuffer.wrap(bad).putLong((int) spans.get(2).offset() + 6, Long.MAX_VALUE / 2);
    List<LogBlock> blocks = LogFixture.readAll(storage, put("length", bad));
    assertEquals(3, blocks.size());
    assertEquals(new CorruptBlock(spans.get(2).offset(), spans.get(2).size()), blocks.get(2));
  }

  @Test
  void aFileThatDoesNotStartWithTheMagicIsRejected() throws IOException {
    byte[] bad = file.clone();
    bad[0] = 'X';
    String path = put("nomagic", bad);
    SluiceException e = assertThrows(SluiceException.class, () -> LogFixture.readAll(storage, path));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains(path), e.getMessage());
  }

  @Test
  void emptyAndTinyFilesHaveNoBlocks() throws IOException {
    assertEquals(List.of(), LogFixture.readAll(storage, put("empty", new byte[0])));
    assertEquals(List.of(), LogFixture.readAll(storage, put("tiny", "#HU".getBytes(StandardCharsets.US_ASCII))));
  }

  @Test
  void aLegacyVersionZeroBlockIsRejectedNamingTheFile() throws IOException {
    // a version-0 block laid out with today's framing, so that only the version tells it apart
    byte[] bad = file.clone();
    ByteBuffer.wrap(bad).putInt(14, 0);
    String path = put("legacy", bad);
    SluiceException e = assertThrows(SluiceException.class, () -> LogFixture.readAll(storage, path));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains(path) && e.getMessage().contains("version 0"), e.getMessage());

  }

  @Test
  void aZeroFilledTailLeftByACrashIsACorruptBlockNotAnError() throws IOException {
    // the magic and length made it to disk, the rest of the block reads as zeros (version 0, type 0, ...)
    BlockSpan lastSpan = spans.get(2);
    byte[] bad = file.clone();
    Arrays.fill(bad, (int) lastSpan.offset() + 14, bad.length, (byte) 0);
    List<LogBlock> blocks = LogFixture.readAll(storage, put("zeros", bad));
    assertEquals(3, blocks.size());
    assertFirstTwoIntact(blocks);
    assertEquals(new CorruptBlock(lastSpan.offset(), lastSpan.size()), blocks.get(2));
  }

  @Test
  void damageInsideAWellFramedBlockIsABadTableNotACorruptBlock() throws IOException {
    byte[] bad = file.clone();
    // the header's entry count of the first block
    ByteBuffer.wrap(bad).putInt(22, 1000);
    String path = put("inner", bad);
    SluiceException e = assertThrows(SluiceException.class, () -> LogFixture.readAll(storage, path));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains("offset 0"), e.getMessage());
  }

  @Test
  void anUnknownBlockTypeIsReported() throws IOException {
    byte[] bad = file.clone();
    ByteBuffer.wrap(bad).putInt(18, 9);
    SluiceException e = assertThrows(SluiceException.class, () -> LogFixture.readAll(storage, put("type", bad)));
    assertTrue(e.getMessage().contains("unknown block type 9"), e.getMessage());
  }

  @Test
  void damagedRecordBytesFailWhenTheRecordsAreRead() throws IOException {
    byte[] bad = file.clone();
    // the first record length of the first block: beyond the content
    long contentStart = findContentStart(bad);
    ByteBuffer.wrap(bad).putInt((int) contentStart + 8, 1 << 20);
    List<LogBlock> blocks = LogFixture.readAll(storage, put("records", bad));
    DataBlock b = assertInstanceOf(DataBlock.class, blocks.get(0));
    SluiceException e = assertThrows(SluiceException.class, () -> LogFixture.records(b, LogFixture.SCHEMA));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
  }

  private static long findContentStart(byte[] f) {
    ByteBuffer bb = ByteBuffer.wrap(f);
    int pos = 22;
    int entries = bb.getInt(pos);
    pos += 4;
    for (int i = 0; i < entries; i++) {
      pos += 4;
      pos += 4 + bb.getInt(pos);
    }
    return pos + 8;
  }

  private static byte[] insert(byte[] f, int at, byte[] extra) {
    byte[] out = new byte[f.length + extra.length];
    System.arraycopy(f, 0, out, 0, at);
    System.arraycopy(extra, 0, out, at, extra.length);
    System.arraycopy(f, at, out, at + extra.length, f.length - at);
    return out;
  }
}
