package dev.sluice.internal.mdt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.SluiceException;
import dev.sluice.internal.hfile.HFileReader;
import dev.sluice.api.CloseableIterator;
import dev.sluice.internal.log.DataBlock;
import dev.sluice.internal.log.LogBlock;
import dev.sluice.internal.log.LogBlockType;
import dev.sluice.internal.log.LogReader;
import dev.sluice.storage.LocalStorage;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * The metadata table's record codec against what Hudi 0.15 wrote (the golden table {@code cow_with_metadata_table})
 * and against its own encoding: the schema, the files records and their merge, record-index entries in both file id
 * encodings, and the key hash.
 */
class MetadataRecordsTest {
  private final LocalStorage storage = new LocalStorage();

  private static Path golden() throws URISyntaxException {
    return Path.of(MetadataRecordsTest.class.getResource("/golden/cow_with_metadata_table/.hoodie/hoodie.properties")
        .toURI()).getParent().getParent();
  }

  @Test
  void theStoredSchemaIsTheOneHudiWroteIntoItsBaseFile() throws IOException, URISyntaxException {
    Path f = golden().resolve(".hoodie/metadata/files/files-0000-0_0-0-0_00000000000000010.hfile");
    try (HFileReader r = HFileReader.open(storage, f.toString(), Files.size(f))) {
      Schema hudi = new Schema.Parser().parse(new String(r.fileInfo("schema").orElseThrow(), StandardCharsets.UTF_8));
      assertEquals(hudi, MetadataRecords.storedSchema());
    }
  }

  @Test
  void hudisFilesRecordsMergeToTheDataFilesOnDisk() throws URISyntaxException, IOException {
    Path table = golden();
    Path files = table.resolve(".hoodie/metadata/files");
    Map<String, FilesRecord> merged = new TreeMap<>();
    for (int v = 1; v <= 3; v++) {
      String log = files.resolve(".files-0000-0_00000000000000010.log." + v + "_0-0-0").toString();
      try (LogReader reader = LogReader.open(storage, log)) {
        while (reader.hasNext()) {
          LogBlock b = reader.next();
          if (b.type() != LogBlockType.HFILE_DATA_BLOCK) {
            continue;
          }
          DataBlock d = (DataBlock) b;
          try (CloseableIterator<GenericRecord> it = d.records(d.writerSchema())) {
            while (it.hasNext()) {
              FilesRecord r = MetadataRecords.files(it.next(), log);
              merged.merge(r.key(), r, FilesRecord::merge);
            }
          }
        }
      }
    }
    assertEquals(List.of(FilesRecord.NON_PARTITIONED), merged.get(FilesRecord.ALL_PARTITIONS).live());
    List<String> onDisk;
    try (Stream<Path> s = Files.list(table)) {
      onDisk = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".parquet")).sorted()
          .collect(Collectors.toList());
    }
    assertEquals(onDisk, merged.get(FilesRecord.NON_PARTITIONED).live());
    for (String name : onDisk) {
      assertEquals(Files.size(table.resolve(name)), merged.get(FilesRecord.NON_PARTITIONED).entries().get(name).size());
    }
  }

  @Test
  void filesRecordsRoundTripAndMergeAsHudisPayload() {
    FilesRecord older = FilesRecord.fileList("p=1", Map.of("a.parquet", FileEntry.file(10), "b.log", FileEntry.file(5),
        "gone.parquet", FileEntry.DELETED));
    assertEquals(older, MetadataRecords.files(MetadataRecords.toAvro(older), "test"));
    FilesRecord newer = FilesRecord.fileList("p=1", Map.of("a.parquet", FileEntry.DELETED, "b.log", FileEntry.file(3),
        "c.parquet", FileEntry.file(7), "gone.parquet", FileEntry.DELETED));
    FilesRecord m = older.merge(newer);
    // a live entry removed, a size that only grows, an add, a tombstone on a tombstone kept
    assertEquals(Map.of("b.log", FileEntry.file(5), "c.parquet", FileEntry.file(7), "gone.parquet", FileEntry.DELETED),
        m.entries());
    assertEquals(List.of("b.log", "c.parquet"), m.live());
    assertEquals(".", FilesRecord.fileList("", Map.of()).key());
    assertThrows(IllegalArgumentException.class, () -> older.merge(FilesRecord.partitionList(Map.of())));
  }

  @Test
  void recordIndexEntriesRoundTripInBothFileIdEncodings() {
    String uuid = UUID.nameUUIDFromBytes("x".getBytes(StandardCharsets.UTF_8)).toString();
    for (String fileId : List.of(uuid + "-0", uuid + "-12", uuid, "files-0000-0", uuid + "-x", uuid.toUpperCase())) {
      RecordLocation loc = new RecordLocation("2024/01/02", fileId, "20261205031500123");
      GenericRecord rec = MetadataRecords.toAvro("key-1", loc);
      GenericRecord info = (GenericRecord) rec.get("recordIndexMetadata");
      boolean uuidForm = fileId.equals(uuid + "-0") || fileId.equals(uuid + "-12") || fileId.equals(uuid);
      assertEquals(uuidForm ? 0 : 1, info.get("fileIdEncoding"), fileId);
      assertEquals(uuidForm ? "" : fileId, info.get("fileId"), fileId);
      assertEquals(loc, MetadataRecords.location(rec, "test"));
    }
    GenericRecord files = MetadataRecords.toAvro(FilesRecord.partitionList(Map.of()));
    SluiceException e = assertThrows(SluiceException.class, () -> MetadataRecords.location(files, "/t/x.log"));
    assertTrue(e.getMessage().contains("/t/x.log"), e.getMessage());
    GenericData.Record wrongType = new GenericData.Record(MetadataRecords.storedSchema());
    wrongType.put("key", "k");
    wrongType.put("type", 5);
    assertThrows(SluiceException.class, () -> MetadataRecords.files(wrongType, "test"));
  }

  @Test
  void keysHashToFileGroupsAsJavasStringHash() {
    Random random = new Random(19);
    for (int i = 0; i < 10_000; i++) {
      byte[] b = new byte[1 + random.nextInt(20)];
      random.nextBytes(b);
      String key = new String(b, StandardCharsets.UTF_8);
      int groups = 1 + random.nextInt(50);
      int index = MetadataPartition.fileGroupIndex(key, groups);
      assertEquals(Math.abs(Math.abs(key.hashCode()) % groups), index, key);
      assertTrue(index >= 0 && index < groups);
    }
    // the one hash whose absolute value is negative
    assertEquals(Integer.MIN_VALUE, "polygenelubricants".hashCode());
    assertEquals(8, MetadataPartition.fileGroupIndex("polygenelubricants", 10));
    assertEquals("record-index-0007-0", MetadataPartition.RECORD_INDEX.fileId(7));
    assertEquals(MetadataPartition.FILES, MetadataPartition.of("files").orElseThrow());
  }
}
