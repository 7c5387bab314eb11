package dev.sluice.internal.hfile;

import static dev.sluice.internal.hfile.HFileTestFiles.cells;
import static dev.sluice.internal.hfile.HFileTestFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The bytes of Sluice's HFiles follow the writer profile both Hudi readers need (reference section 4.11). */
class HFileLayoutTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(HFileCompression.class)
  void headersChecksumsAndTrailerAsHBaseWritesThem(HFileCompression codec) throws IOException {
    int blockSize = 4096;
    Path f = write(dir.resolve("f.hfile"), cells(5000, 7), HFileWriterOptions.defaults().withCompression(codec)
        .withBlockSize(blockSize).withIndex(2048, 16));
    HFileLayout l = HFileLayout.of(f);
    Map<BlockType, Long> previous = new HashMap<>();
    for (HFileLayout.Header h : l.blocks()) {
      assertEquals(HFileFormat.CHECKSUM_CRC32C, h.checksumType());
      assertEquals(16384, h.bytesPerChecksum());
      int chunks = (h.onDiskDataSizeWithHeader() + 16383) / 16384;
      assertEquals(h.onDiskDataSizeWithHeader() - HFileFormat.HEADER_SIZE + 4 * chunks, h.onDiskSizeWithoutHeader());
      if (codec == HFileCompression.NONE) {
        // HBase's sanity check of uncompressed blocks
        assertEquals(h.uncompressedSize() + 4 * chunks, h.onDiskSizeWithoutHeader());
      }
      for (int c = 0; c < chunks; c++) {
        CRC32C crc = new CRC32C();
        int from = (int) h.offset() + c * 16384;
        int to = (int) Math.min(h.offset() + h.onDiskDataSizeWithHeader(), from + 16384L);
        crc.update(l.bytes(), from, to - from);
        assertEquals((int) crc.getValue(), HFileFormat.getInt(l.bytes(), (int) h.offset() + h.onDiskDataSizeWithHeader() + 4 * c));
      }
      assertEquals(previous.getOrDefault(h.type(), -1L), h.prevOffset(), "prevBlockOffset chains blocks of one type");
      previous.put(h.type(), h.offset());
    }
    List<HFileLayout.Header> data = l.dataBlocks();
    assertTrue(data.size() > 50);
    for (int i = 0; i < data.size(); i++) {
      HFileLayout.Header h = data.get(i);
      assertTrue(h.uncompressedSize() <= blockSize, "block of " + h.uncompressedSize());
      if (i < data.size() - 1) {
        assertTrue(h.uncompressedSize() > blockSize - 200, "blocks are filled up to the size: " + h.uncompressedSize());
      }
    }
    Trailer t = l.trailer();
    assertEquals(data.get(0).offset(), t.firstDataBlockOffset());
    assertEquals(data.get(data.size() - 1).offset(), t.lastDataBlockOffset(), "start of the last data block");
    assertEquals(5000, t.entryCount());
    assertEquals(codec.id(), t.codec());
    assertEquals(HFileFormat.COMPARATOR, t.comparator());
    assertEquals(3, t.majorVersion());
    assertEquals(3, t.minorVersion());
    assertEquals(0, t.metaIndexCount());
    // leaf index blocks lie among the data blocks; load-on-open is root index, meta index, file info
    assertEquals(2, t.dataIndexLevels());
    List<BlockType> tail = new ArrayList<>();
    l.blocks().stream().filter(h -> h.offset() >= t.loadOnOpenOffset()).forEach(h -> tail.add(h.type()));
    assertEquals(List.of(BlockType.ROOT_INDEX, BlockType.ROOT_INDEX, BlockType.FILE_INFO), tail);
    assertEquals(l.ofType(BlockType.FILE_INFO).get(0).offset(), t.fileInfoOffset());
    assertEquals(t.dataIndexCount(), l.ofType(BlockType.LEAF_INDEX).size());
    HFileLayout.Header lastLeaf = l.ofType(BlockType.LEAF_INDEX).get(t.dataIndexCount() - 1);
    assertTrue(lastLeaf.offset() > data.get(data.size() - 1).offset() && lastLeaf.offset() < t.loadOnOpenOffset());
    assertTrue(l.ofType(BlockType.LEAF_INDEX).get(0).offset() < data.get(data.size() - 1).offset(), "inline leaf blocks");
  }

  @Test
  void singleLevelRootHoldsFullCellKeysOfEachBlocksFirstCell() throws IOException {
    List<HFileCell> cells = cells(300, 8);
    Path f = write(dir.resolve("s.hfile"), cells, HFileWriterOptions.defaults().withCompression(HFileCompression.NONE)
        .withBlockSize(1024));
    HFileLayout l = HFileLayout.of(f);
    HFileLayout.Header root = l.ofType(BlockType.ROOT_INDEX).get(0);
    byte[] p = java.util.Arrays.copyOfRange(l.bytes(), (int) root.offset() + HFileFormat.HEADER_SIZE,
        (int) root.offset() + HFileFormat.HEADER_SIZE + root.uncompressedSize());
    int pos = 0;
    int cell = 0;
    for (HFileLayout.Header d : l.dataBlocks()) {
      assertEquals(d.offset(), HFileFormat.getLong(p, pos));
      assertEquals(d.end() - d.offset(), HFileFormat.getInt(p, pos + 8));
      HFileFormat.VLong len = HFileFormat.readVLong(p, pos + 12, p.length);
      byte[] key = java.util.Arrays.copyOfRange(p, pos + 12 + len.size(), pos + 12 + len.size() + (int) len.value());
      // the block's first cell: find it by walking the block's cells
      int n = 0;
      for (int at = (int) d.offset() + HFileFormat.HEADER_SIZE; at < d.offset() + HFileFormat.HEADER_SIZE + d.uncompressedSize(); n++) {
        at += 8 + HFileFormat.getInt(l.bytes(), at) + HFileFormat.getInt(l.bytes(), at + 4) + 1;
      }
      assertEquals(java.util.Arrays.toString(HFileFormat.cellKey(cells.get(cell).key())), java.util.Arrays.toString(key));
      cell += n;
      pos += 12 + len.size() + (int) len.value();
    }
    assertEquals(cells.size(), cell);
    assertEquals(p.length, pos, "no mid-key metadata in a single-level root");
  }

  @Test
  void vlongMatchesHadoopEncoding() {
    long[] values = {0, 1, -1, 127, 128, -112, -113, 255, 256, 65535, 65536, Integer.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE};
    // sizes from WritableUtils.getVIntSize
    int[] sizes = {1, 1, 1, 1, 2, 1, 2, 2, 3, 3, 4, 5, 9, 9};
    for (int i = 0; i < values.length; i++) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      HFileFormat.writeVLong(out, values[i]);
      byte[] b = out.toByteArray();
      assertEquals(sizes[i], b.length, "size of " + values[i]);
      assertEquals(sizes[i], HFileFormat.vlongSize(values[i]));
      assertEquals(values[i], HFileFormat.readVLong(b, 0, b.length).value());
    }
    // a key length of 200 is 0x8f 0xc8 (one length byte, one value byte), not the protobuf varint 0xc8 0x01
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    HFileFormat.writeVLong(out, 200);
    assertEquals("[-113, -56]", java.util.Arrays.toString(out.toByteArray()));
  }
}
