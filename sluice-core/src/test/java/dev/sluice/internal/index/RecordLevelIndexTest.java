package dev.sluice.internal.index;

import static dev.sluice.api.TripFixture.it;
import static dev.sluice.api.TripFixture.trip;
import static dev.sluice.api.TripFixture.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.api.Config;
import dev.sluice.api.Lookup;
import dev.sluice.api.Table;
import dev.sluice.api.Tables;
import dev.sluice.api.TripFixture;
import dev.sluice.internal.fsview.FileSystemView;
import dev.sluice.internal.mdt.MetadataPartition;
import dev.sluice.internal.mdt.RecordLocation;
import dev.sluice.internal.mdt.read.MetadataTables;
import dev.sluice.internal.merge.WriteRecord;
import dev.sluice.internal.table.TableConfig;
import dev.sluice.internal.table.TableConfigStore;
import dev.sluice.internal.timeline.Timeline;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.storage.LocalStorage;
import dev.sluice.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hoodie.index.type=RECORD_INDEX} on a real Sluice table with a metadata table whose {@code record_index}
 * partition holds the location of every key ({@link RecordIndexFixture}): tags, counters, partition moves, locations
 * of file groups the table does not have, and the fallback to a global simple lookup.
 */
class RecordLevelIndexTest {
  private static final int SHARDS = 4;

  @TempDir
  Path dir;

  private final Storage storage = new LocalStorage();
  private final List<String> warnings = new ArrayList<>();
  private final Logger jul = Logger.getLogger(RecordLevelIndex.class.getName());
  private final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord r) {
      synchronized (warnings) {
        warnings.add(r.getMessage());
      }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  };
  private String base;
  private Map<String, RecordLocation> truth;

  @BeforeEach
  void table() {
    jul.addHandler(capture);
    Path p = dir.resolve("t");
    base = p.toString();
    Table t = TripFixture.create(p, TripFixture.spec().build(), Map.of("hoodie.metadata.enable", "true",
        "hoodie.parquet.max.file.size", "20000", "hoodie.copyonwrite.record.size.estimate", "1000",
        "hoodie.parquet.small.file.limit", "0"));
    t.insert(it(trips(0, 300, 3, 1)));
    truth = RecordIndexFixture.locations(t, "20260101000000000");
    RecordIndexFixture.build(storage, base, SHARDS, truth);
  }

  @AfterEach
  void unhook() {
    jul.removeHandler(capture);
  }

  private TableConfig config() {
    return TableConfigStore.read(storage, base);
  }

  private FileSystemView view() {
    Timeline tl = new TimelineStore(storage, base).load();
    return MetadataTables.view(storage, base, tl, config(), true);
  }

  private RecordLevelIndex index(boolean updatePartitionPath, int chunk) {
    return new RecordLevelIndex(storage, new IndexedTable(base, config(), true),
        new IndexSettings(Indexes.RECORD_INDEX, true, updatePartitionPath, 2), chunk);
  }

  private static WriteRecord rec(String key, String partition) {
    return new WriteRecord(key, partition, null, 0L, WriteRecord.DeleteKind.NONE);
  }

  /** Each record's tag as "partition/fileId" of an update, "insert:partition" or "delete:partition/fileId". */
  private static Map<String, String> summary(List<TaggedRecord> tags) {
    Map<String, String> out = new TreeMap<>();
    for (TaggedRecord t : tags) {
      String v = t.location().map(l -> (t.record().isDelete() ? "delete:" : "") + l.partitionPath() + "/" + l.fileId()
          + "@" + t.record().partitionPath()).orElse("insert:" + t.record().partitionPath());
      out.merge(t.record().key(), v, (a, b) -> a + "+" + b);
    }
    return out;
  }

  private Map<String, String> globalSimple(List<WriteRecord> records, boolean update) {
    Index gs = Indexes.globalSimple(storage, new IndexSettings("GLOBAL_SIMPLE", true, update, 2));
    return summary(gs.tag(records, view()));
  }

  private List<WriteRecord> batch() {
    List<WriteRecord> records = new ArrayList<>();
    for (int i = 0; i < 300; i += 7) {
      records.add(rec(String.format("id-%06d", i), "p" + (i % 3)));
    }
    records.add(rec("new-1", "p0"));
    records.add(rec("new-2", "p2"));
    return records;
  }

  @Test
  void existingKeysUpdateTheFileGroupsTheIndexNamesNewKeysInsertAndEachShardIsOpenedOnce() {
    List<WriteRecord> records = batch();
    RecordLevelIndex ri = index(false, RecordLevelIndex.CHUNK_KEYS);
    Map<String, String> tags = summary(ri.tag(records, view()));
    assertEquals(globalSimple(records, false), tags, "the record index tags as an exact global lookup does");
    for (WriteRecord r : records) {
      RecordLocation at = truth.get(r.key());
      assertEquals(at == null ? "insert:" + r.partitionPath() : at.partition() + "/" + at.fileId() + "@" + at.partition(),
          tags.get(r.key()));
    }
    assertTrue(ri.fallbackReason().isEmpty(), ri.fallbackReason().toString());
    Set<Integer> shards = new HashSet<>();
    records.forEach(r -> shards.add(MetadataPartition.fileGroupIndex(r.key(), SHARDS)));
    assertEquals(shards.size(), ri.shardFilesOpened(), "one base HFile per shard the keys route to");
    assertEquals(ri.shardFilesOpened(), ri.filesOpened(), "no data file opened");
    assertTrue(warnings.isEmpty(), warnings.toString());
  }

  @Test
  void largeBatchesAreLookedUpInChunksWithTheSameTags() {
    List<WriteRecord> records = batch();
    RecordLevelIndex chunked = index(false, 3);
    Map<String, String> tags = summary(chunked.tag(records, view()));
    assertEquals(summary(index(false, RecordLevelIndex.CHUNK_KEYS).tag(records, view())), tags);
    Map<Integer, Integer> perShard = new TreeMap<>();
    records.forEach(r -> perShard.merge(MetadataPartition.fileGroupIndex(r.key(), SHARDS), 1, Integer::sum));
    long chunks = perShard.values().stream().mapToLong(n -> (n + 2) / 3).sum();
    assertEquals(chunks, chunked.shardFilesOpened(), "a shard's HFile is opened once per chunk of 3 keys");
  }

  @Test
  void aRecordArrivingInAnotherPartitionUpdatesItsOldPartitionOrMovesWithUpdatePartitionPath() {
    String key = "id-000000";
    RecordLocation at = truth.get(key);
    assertEquals("p0", at.partition());
    List<WriteRecord> records = List.of(rec(key, "p1"));
    assertEquals(Map.of(key, "p0/" + at.fileId() + "@p0"), summary(index(false, 100).tag(records, view())),
        "hoodie.record.index.update.partition.path=false (Hudi's default): stays in p0");
    assertEquals(Map.of(key, "delete:p0/" + at.fileId() + "@p0+insert:p1"),
        summary(index(true, 100).tag(records, view())), "true: deleted in p0, inserted in p1");
    assertEquals(globalSimple(records, true), summary(index(true, 100).tag(records, view())));
  }

  @Test
  void aLocationInAFileGroupTheTableDoesNotHaveIsLookedUpAgainNeverDuplicated() throws IOException {
    // the index sends an existing key and a new key to a file group that does not exist
    Map<String, RecordLocation> stale = new TreeMap<>(truth);
    String ghost = "00000000-1111-2222-3333-444444444444-0";
    stale.put("id-000003", new RecordLocation("p0", ghost, "20260101000000000"));
    stale.put("new-9", new RecordLocation("p1", ghost, "20260101000000000"));
    rebuild(stale);
    List<WriteRecord> records = List.of(rec("id-000003", "p0"), rec("new-9", "p1"), rec("id-000006", "p0"));
    RecordLevelIndex ri = index(false, 100);
    Map<String, String> tags = summary(ri.tag(records, view()));
    assertEquals("p0/" + truth.get("id-000003").fileId() + "@p0", tags.get("id-000003"), "found where it lives");
    assertEquals("insert:p1", tags.get("new-9"));
    assertEquals("p0/" + truth.get("id-000006").fileId() + "@p0", tags.get("id-000006"));
    assertTrue(ri.filesOpened() > ri.shardFilesOpened(), "the re-check opened base files");
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("2 key(s)") && warnings.get(0).contains(ghost), warnings.get(0));
  }

  private void rebuild(Map<String, RecordLocation> entries) throws IOException {
    Path ri = Path.of(base, ".hoodie/metadata/record_index");
    try (Stream<Path> files = Files.walk(ri)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
    RecordIndexFixture.build(storage, base, SHARDS, entries);
  }

  @Test
  void withoutAUsableRecordIndexItTagsAsGlobalSimpleAndSaysWhy() throws IOException {
    List<WriteRecord> records = new ArrayList<>(batch());
    records.add(rec("id-000001", "p2"));
    Map<String, String> expected = globalSimple(records, false);

    // the writer has the metadata table off
    RecordLevelIndex off = new RecordLevelIndex(storage, new IndexedTable(base, config(), false),
        new IndexSettings(Indexes.RECORD_INDEX, true, false, 2), 100);
    assertEquals(expected, summary(off.tag(records, view())));
    assertTrue(off.fallbackReason().orElseThrow().contains("hoodie.metadata.enable=false"));
    assertTrue(off.filesOpened() > 0 && off.shardFilesOpened() == 0);

    // record_index partition without file groups
    Path ri = Path.of(base, ".hoodie/metadata/record_index");
    try (Stream<Path> files = Files.list(ri)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    RecordLevelIndex empty = index(false, 100);
    assertEquals(expected, summary(empty.tag(records, view())));
    assertTrue(empty.fallbackReason().orElseThrow().contains("has no file group"), empty.fallbackReason().get());

    // record_index not listed (a writer without it dropped it)
    TableConfigStore.update(storage, base, c -> c.with(TableConfig.METADATA_PARTITIONS, "files"));
    RecordLevelIndex unlisted = index(false, 100);
    assertEquals(expected, summary(unlisted.tag(records, view())));
    assertTrue(unlisted.fallbackReason().orElseThrow().contains("does not list record_index"));

    // listed, but the metadata table is gone
    TableConfigStore.update(storage, base, c -> c.with(TableConfig.METADATA_PARTITIONS, "files,record_index"));
    try (Stream<Path> files = Files.walk(Path.of(base, ".hoodie/metadata"))) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
    RecordLevelIndex gone = index(false, 100);
    assertEquals(expected, summary(gone.tag(records, FileSystemView.of(storage, base,
        new TimelineStore(storage, base).load()))));
    assertTrue(gone.fallbackReason().orElseThrow().contains("metadata table cannot be used"));

    assertEquals(4, warnings.size(), warnings.toString());
    assertTrue(warnings.stream().allMatch(w -> w.contains("tagging with GLOBAL_SIMPLE instead")), warnings.toString());
  }

  @Test
  void pointLookupsGoThroughTheRecordIndexOneShardFileEach() {
    Lookup lookup = Lookup.of(Tables.open(base, Config.of(Map.of("hoodie.index.type", "RECORD_INDEX"))));
    assertEquals("name-42", lookup.get("id-000042", "ignored by a global index").orElseThrow().get("name").toString());
    assertEquals("name-7", lookup.get("id-000007", "").orElseThrow().get("name").toString());
    assertTrue(lookup.get("id-999999", "p0").isEmpty());
    assertEquals(3, lookup.indexFilesOpened(), "one record-index HFile per lookup, no data file");
    assertTrue(warnings.isEmpty(), warnings.toString());
  }

  @Test
  void aRecordIndexNotShardedByTheKeyHashIsNotTrusted() throws IOException {
    Path ri = Path.of(base, ".hoodie/metadata/record_index");
    try (Stream<Path> files = Files.list(ri)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    RecordIndexFixture.build(storage, base, SHARDS, truth, true);
    List<WriteRecord> records = batch();
    RecordLevelIndex index = index(false, 100);
    assertEquals(globalSimple(records, false), summary(index.tag(records, view())), "no key taken for an insert");
    assertTrue(index.fallbackReason().orElseThrow().contains("not sharded by Hudi's key hash"),
        index.fallbackReason().get());
    assertEquals(1, warnings.size(), warnings.toString());
  }

  @Test
  void aWriteWithRecordIndexOnATableWithoutOneWarnsAndWritesWhatGlobalSimpleWrites() {
    Map<String, Map<String, String>> results = new TreeMap<>();
    for (String type : List.of("RECORD_INDEX", "GLOBAL_SIMPLE")) {
      Path p = dir.resolve(type);
      Table t = TripFixture.create(p, TripFixture.spec().build(), Map.of("hoodie.index.type", type,
          "hoodie.simple.index.update.partition.path", "false", "hoodie.metadata.enable", "true"));
      t.insert(it(trips(0, 30, 3, 1)));
      Map<String, String> before = placement(t);
      List<GenericRecord> up = new ArrayList<>(trips(0, 10, 3, 2));
      up.add(trip("id-000004", 3, "p0", "moved?", 0));
      up.addAll(trips(100, 5, 3, 2));
      t.upsert(it(up));
      Map<String, String> after = placement(Tables.open(p.toString(), Config.empty()));
      assertEquals(35, after.size());
      for (int i = 0; i < 10; i++) {
        String k = String.format("id-%06d", i);
        assertEquals(before.get(k), after.get(k), "updated in place: " + k);
      }
      Map<String, String> shape = new TreeMap<>();
      after.forEach((k, v) -> shape.put(k, v.substring(0, v.indexOf('/'))));
      results.put(type, shape);
    }
    assertEquals(results.get("GLOBAL_SIMPLE"), results.get("RECORD_INDEX"));
    assertEquals("p1", results.get("RECORD_INDEX").get("id-000004"), "stays in its partition (update.partition.path false)");
    assertTrue(warnings.stream().anyMatch(w -> w.contains("does not list record_index")
        && w.contains("tagging with GLOBAL_SIMPLE instead")), warnings.toString());
  }

  /** Each key's "partition/fileId". */
  private static Map<String, String> placement(Table t) {
    Map<String, String> out = new TreeMap<>();
    TripFixture.rows(t.newScan().withMetaColumns(true).open()).forEach((k, r) -> out.put(k,
        r.get("_hoodie_partition_path") + "/" + r.get("_hoodie_file_name").toString().split("_")[0]));
    return out;
  }
}
