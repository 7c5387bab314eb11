package dev.sluice.internal.hfile;

import static dev.sluice.internal.hfile.HFileTestFiles.all;
import static dev.sluice.internal.hfile.HFileTestFiles.cells;
import static dev.sluice.internal.hfile.HFileTestFiles.open;
import static dev.sluice.internal.hfile.HFileTestFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Damaged bytes are BAD_TABLE errors naming the file and the offset; bad input to the writer is refused. */
class HFileDamageTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(HFileCompression.class)
  void aFlippedBitInADataBlockFailsItsChecksum(HFileCompression codec) throws IOException {
    Path f = write(dir.resolve("d.hfile"), cells(2000, 4), HFileWriterOptions.defaults().withCompression(codec).withBlockSize(4096));
    HFileLayout l = HFileLayout.of(f);
    HFileLayout.Header victim = l.dataBlocks().get(10);
    int at = (int) victim.offset() + HFileFormat.HEADER_SIZE + 17;
    byte[] b = l.bytes().clone();
    b[at] ^= 0x10;
    Files.write(f, b);
    try (HFileReader r = open(f)) {
      SluiceException e = assertThrows(SluiceException.class, () -> all(r));
      assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
      assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
      assertTrue(e.getMessage().contains("checksum mismatch") && e.getMessage().contains("offset " + victim.offset()), e.getMessage());
      // blocks before the damage still serve lookups: only the blocks on a key's path are read
      HFileCell early = cells(2000, 4).get(0);
      assertEquals(Arrays.toString(early.value()), Arrays.toString(r.get(early.key()).orElseThrow()));
    }
  }

  @Test
  void aDamagedIndexOrFileInfoFailsOnOpen() throws IOException {
    Path f = write(dir.resolve("i.hfile"), cells(500, 5), HFileWriterOptions.defaults().withBlockSize(2048));
    HFileLayout l = HFileLayout.of(f);
    for (BlockType t : List.of(BlockType.ROOT_INDEX, BlockType.FILE_INFO)) {
      HFileLayout.Header h = l.ofType(t).get(0);
      byte[] b = l.bytes().clone();
      b[(int) h.offset() + HFileFormat.HEADER_SIZE + 3] ^= 1;
      Path g = Files.write(dir.resolve(t + ".hfile"), b);
      SluiceException e = assertThrows(SluiceException.class, () -> open(g));
      assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
      assertTrue(e.getMessage().contains(g.toString()) && e.getMessage().contains("offset " + h.offset()), e.getMessage());
    }
  }

  @Test
  void aTruncatedOrForeignFileIsNamed() throws IOException {
    Path f = write(dir.resolve("t.hfile"), cells(100, 6), HFileWriterOptions.defaults());
    byte[] b = Files.readAllBytes(f);
    Path cut = Files.write(dir.resolve("cut.hfile"), Arrays.copyOf(b, b.length - 10));
    SluiceException e = assertThrows(SluiceException.class, () -> open(cut));
    assertEquals(SluiceException.Kind.BAD_TABLE, e.kind());
    assertTrue(e.getMessage().contains("trailer") && e.getMessage().contains(cut.toString()), e.getMessage());
    Path tiny = Files.write(dir.resolve("tiny.hfile"), new byte[] {1, 2, 3});
    SluiceException t = assertThrows(SluiceException.class, () -> open(tiny));
    assertTrue(t.getMessage().contains("fewer than the 4096-byte trailer"), t.getMessage());
    byte[] v2 = b.clone();
    v2[v2.length - 1] = 2;
    Path old = Files.write(dir.resolve("v2.hfile"), v2);
    SluiceException o = assertThrows(SluiceException.class, () -> open(old));
    assertTrue(o.getMessage().contains("major version 2"), o.getMessage());
  }

  @Test
  void keysOutOfOrderOrRepeatedAreRefused() {
    try (HFileWriter w = HFileWriter.create(HFileTestFiles.STORAGE, dir.resolve("o.hfile").toString(), HFileWriterOptions.defaults())) {
      w.append("b", new byte[1]);
      SluiceException down = assertThrows(SluiceException.class, () -> w.append("a", new byte[1]));
      assertEquals(SluiceException.Kind.BAD_INPUT, down.kind());
      assertTrue(down.getMessage().contains("key 'a' is not after the previous key 'b'"), down.getMessage());
      SluiceException again = assertThrows(SluiceException.class, () -> w.append("b", new byte[1]));
      assertTrue(again.getMessage().contains("repeats the previous key"), again.getMessage());
      w.append("c", new byte[1]);
    }
  }

  @Test
  void unsupportedCodecIsNamed() throws IOException {
    Path f = write(dir.resolve("c.hfile"), cells(10, 1), HFileWriterOptions.defaults());
    HFileLayout l = HFileLayout.of(f);
    Trailer t = l.trailer();
    Trailer snappy = new Trailer(t.fileInfoOffset(), t.loadOnOpenOffset(), t.uncompressedDataIndexSize(), t.totalUncompressedBytes(),
        t.dataIndexCount(), t.metaIndexCount(), t.entryCount(), t.dataIndexLevels(), t.firstDataBlockOffset(),
        t.lastDataBlockOffset(), t.comparator(), 3, 3, 3);
    byte[] b = l.bytes().clone();
    System.arraycopy(snappy.encode(), 0, b, b.length - HFileFormat.TRAILER_SIZE, HFileFormat.TRAILER_SIZE);
    Path g = Files.write(dir.resolve("snappy.hfile"), b);
    SluiceException e = assertThrows(SluiceException.class, () -> open(g));
    assertEquals(SluiceException.Kind.UNSUPPORTED, e.kind());
    assertTrue(e.getMessage().contains("SNAPPY"), e.getMessage());
  }
}
