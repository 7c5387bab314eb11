package dev.sluice.internal.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.internal.hfile.HFileCell;
import dev.sluice.internal.hfile.HFileCompression;
import dev.sluice.internal.hfile.HFileReader;
import dev.sluice.api.CloseableIterator;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;

/**
 * The metadata table of the golden table {@code cow_with_metadata_table} (written by Hudi 0.15.0 with HBase's
 * HFile writer, see golden/README.md): Sluice reads its base HFile and its HFILE_DATA_BLOCK log blocks.
 */
class HFileGoldenTest {
  private final LocalStorage storage = new LocalStorage();

  private Path files() throws URISyntaxException {
    return Path.of(getClass().getResource("/golden/cow_with_metadata_table/.hoodie/metadata/files/.hoodie_partition_metadata")
        .toURI()).getParent();
  }

  @Test
  void baseFileWrittenByHudi() throws IOException, URISyntaxException {
    Path f = files().resolve("files-0000-0_0-0-0_00000000000000010.hfile");
    try (HFileReader r = HFileReader.open(storage, f.toString(), Files.size(f))) {
      assertEquals(1, r.entryCount());
      assertEquals(HFileCompression.GZ, r.compression());
      assertEquals("__all_partitions__", new String(r.fileInfo("minRecordKey").orElseThrow(), StandardCharsets.UTF_8));
      assertEquals("DYNAMIC_V0", new String(r.fileInfo("bloomFilterTypeCode").orElseThrow(), StandardCharsets.UTF_8));
      assertEquals(431380, r.metaBlock("bloomFilter").orElseThrow().length);
      Schema schema = new Schema.Parser().parse(new String(r.fileInfo("schema").orElseThrow(), StandardCharsets.UTF_8));
      byte[] value = r.get("__all_partitions__").orElseThrow();
      assertEquals(55, value.length);
      GenericRecord rec = new GenericDatumReader<GenericRecord>(schema).read(null, DecoderFactory.get().binaryDecoder(value, null));
      assertEquals("", rec.get("key").toString(), "Hudi stores the key only in the row");
      assertEquals(1, rec.get("type"));
    }
  }

  @Test
  void logBlocksWrittenByHudi() throws URISyntaxException {
    int blocks = 0;
    List<String> keys = new ArrayList<>();
    for (int v = 1; v <= 3; v++) {
      String path = files().resolve(".files-0000-0_00000000000000010.log." + v + "_0-0-0").toString();
      for (LogBlock b : LogFixture.readAll(storage, path)) {
        if (b.type() != LogBlockType.HFILE_DATA_BLOCK) {
          continue;
        }
        blocks++;
        DataBlock d = (DataBlock) b;
        StoredContent content = d.storedContent().orElseThrow();
        List<String> cellKeys = new ArrayList<>();
        try (HFileReader r = HFileReader.open(storage, path, content.offset(), content.length());
             CloseableIterator<HFileCell> cells = r.scan()) {
          cells.forEachRemaining(c -> cellKeys.add(c.keyString()));
          assertEquals(d.header().get(HeaderKey.SCHEMA), new String(r.fileInfo("schema").orElseThrow(), StandardCharsets.UTF_8));
        }
        List<String> recordKeys = new ArrayList<>();
        for (GenericRecord rec : LogFixture.records(d, d.writerSchema())) {
          recordKeys.add(rec.get("key").toString());
        }
        assertEquals(cellKeys, recordKeys, "the row key is put back into the key field");
        keys.addAll(recordKeys);
      }
    }
    assertTrue(blocks >= 2, "HFile log blocks: " + blocks);
    assertTrue(keys.contains("__all_partitions__"), keys.toString());
  }
}
